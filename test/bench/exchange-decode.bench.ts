import { parseJsonExact } from '../../src-main/exchange/json';
import { decodeOrderPage } from '../../src-main/exchange/wire';
import { pageOf } from '../fixtures/exchange/records';
import { measure, report, type Timing } from './measure';

/**
 * Decoding a full page of order records (250, the most `GET /accounts/order-records` returns),
 * half in the seed's field set with two executions each, half in the older one with a fill:
 * JSON text → validated domain `Order`s with exact decimals, the text parsed as the transport
 * parses it (numbers a float cannot hold kept as text). Target: median ≤ 5 ms.
 */
const ms = (bench: string, t: Timing, target?: number): void =>
  report(bench, {
    unit: 'ms',
    median: Number(t.median.toFixed(4)),
    p99: Number(t.p99.toFixed(4)),
    mean: Number(t.mean.toFixed(4)),
    iterations: t.iterations,
    ...(target === undefined ? {} : { target_median: target }),
  });

const text = JSON.stringify(pageOf(250, 250, 1));
const where = { endpoint: 'GET /accounts/order-records', action: 'read your order records' };
const asked = { page: 1, limit: 250 };

const check = decodeOrderPage(parseJsonExact(text), where, asked);
if (check.orders.length !== 250) throw new Error('the page did not decode to 250 orders');

ms(
  'exchange.decode_order_page_250_ms',
  await measure(() => decodeOrderPage(parseJsonExact(text), where, asked), {
    iterations: 500,
    warmup: 50,
  }),
  5,
);
const parsed = JSON.parse(text) as unknown;
ms(
  'exchange.decode_order_page_250_without_json_parse_ms',
  await measure(() => decodeOrderPage(parsed, where, asked), { iterations: 500, warmup: 50 }),
);
report('exchange.order_page_250_bytes', { unit: 'bytes', value: text.length });
