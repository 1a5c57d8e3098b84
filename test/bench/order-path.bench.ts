import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { OperationResult, PreparedOperation } from '../../src-shared/contract';
import type { Depth } from '../../src-shared/domain';
import type { Serialized } from '../../src-shared/domain/amount';
import { USDM, appWorld } from '../fixtures/app/app-world';
import { report } from './measure';

/**
 * The client's own cost per order: one limit order through the full service path the app uses
 * (pre-trade checks, build on the server, decode and intent check, sign, journal, submit,
 * settle), against the embedded sandbox on loopback, minus the time the app spent
 * waiting on the exchange's HTTP answers (observed through undici's diagnostics channels, as the
 * union of request intervals). The journal's disk flushes count where the path waits for them
 * (an order's entry is flushed while the signer reads it; see the operations service). Also:
 * sequential orders per second through that whole path.
 */
const WARMUP = 10;
const ORDERS = Number(process.env['BENCH_ORDER_PATH_ORDERS'] ?? 200);

// Every HTTP exchange of the app, start to last byte, in performance.now() time; and when the
// order's build was asked for and its submit answered (the window the order path is defined on).
const started = new WeakMap<object, { at: number; path: string }>();
let intervals: Array<[number, number]> = [];
let buildAsked = Number.NaN;
let buildAnswered = Number.NaN;
let submitAsked = Number.NaN;
let submitAnswered = Number.NaN;
subscribe('undici:request:create', (message) => {
  const { request } = message as { request: { path?: string } };
  const at = performance.now();
  const path = request.path ?? '';
  if (path.startsWith('/order/build')) buildAsked = at;
  if (path.startsWith('/order/submit')) submitAsked = at;
  started.set(request, { at, path });
});
const finished = (message: unknown): void => {
  const { request } = message as { request: object };
  const start = started.get(request);
  if (start === undefined) return;
  const at = performance.now();
  intervals.push([start.at, at]);
  if (start.path.startsWith('/order/build')) buildAnswered = at;
  if (start.path.startsWith('/order/submit')) submitAnswered = at;
};
subscribe('undici:request:trailers', finished);
subscribe('undici:request:error', finished);

/** Time covered by at least one of `spans` between `from` and `to`. */
const covered = (spans: Array<[number, number]>, from: number, to: number): number => {
  const inside = spans
    .map(([a, b]): [number, number] => [Math.max(a, from), Math.min(b, to)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of inside) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
};

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
};

const world = await appWorld({
  sandboxArgs: ['--no-takers', '--no-rate-limit', '--confirmation-delay-ms', '0'],
  // Background refreshes would overlap the orders; the path measured here needs none.
  pollEveryMs: 600_000,
});
try {
  const { call } = world;
  await world.joinAsVectorWallet();
  await world.deposit([
    { unit: 'lovelace', amount: '10' },
    { unit: USDM, amount: '5000' },
  ]);
  const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
  const price = (Number(depth.bids[0]?.price ?? '0.5') * 0.7).toFixed(4);

  const placeOne = async (): Promise<{
    total: number;
    client: number;
    path: number;
    prepare: number;
    confirm: number;
  }> => {
    intervals = [];
    buildAsked = Number.NaN;
    buildAnswered = Number.NaN;
    submitAsked = Number.NaN;
    submitAnswered = Number.NaN;
    const t0 = performance.now();
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '10',
      price,
    });
    const preparedAt = performance.now();
    const done = await call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
    });
    const t1 = performance.now();
    if (!done.order) throw new Error('the order was not placed');
    // Build asked → submit answered: the exchange's two answers and the app's work between them
    // (decode and intent check, the confirmation, signature, journal), minus the server's time.
    const path = submitAnswered - buildAsked - covered(intervals, buildAsked, submitAnswered);
    // The path's two halves: the build's answer to the prepared order (decode, intent check, its
    // unsigned journal entry, flushed meanwhile), and the confirmation to the submit asked (the
    // signer's own check, the signature, the signed entry's write).
    const prepare = preparedAt - buildAnswered;
    const confirm = submitAsked - preparedAt;
    return { total: t1 - t0, client: t1 - t0 - covered(intervals, t0, t1), path, prepare, confirm };
  };

  for (let i = 0; i < WARMUP; i++) await placeOne();
  const totals: number[] = [];
  const clients: number[] = [];
  const paths: number[] = [];
  const prepares: number[] = [];
  const confirms: number[] = [];
  const start = performance.now();
  let paused = 0;
  for (let i = 0; i < ORDERS; i++) {
    if ((i + WARMUP) % 90 === 0) {
      // The exchange allows 100 open orders per account: clear them, off the clock.
      const t0 = performance.now();
      await call('trading:cancelAll', { symbol: 'ADAUSDM' });
      paused += performance.now() - t0;
    }
    const { total, client, path, prepare, confirm } = await placeOne();
    paths.push(path);
    prepares.push(prepare);
    confirms.push(confirm);
    totals.push(total);
    clients.push(client);
  }
  const elapsed = performance.now() - start - paused;
  const round = (value: number): number => Number(value.toFixed(3));
  report('order-path: client cost per order, build asked → submit answered, minus server', {
    unit: 'ms',
    median: round(quantile(paths, 0.5)),
    p99: round(quantile(paths, 0.99)),
    target_median: 1,
    prepare_median: round(quantile(prepares, 0.5)),
    confirm_median: round(quantile(confirms, 0.5)),
    orders: ORDERS,
    // The JIT matters here: most of this code runs a few hundred times, not enough for V8's
    // optimising compiler without its mid tier (Maglev, in V8 from Node.js 22 and Electron).
    runtime: `node ${process.versions.node}, v8 ${process.versions.v8}`,
  });
  report('order-path: client cost per order, whole path with the pre-trade reads, minus server', {
    unit: 'ms',
    median: round(quantile(clients, 0.5)),
    p99: round(quantile(clients, 0.99)),
  });
  report('order-path: sequential orders through the full service path', {
    unit: 'orders/s',
    value: Math.round((ORDERS / elapsed) * 1000),
    total_median_ms: round(quantile(totals, 0.5)),
    total_p99_ms: round(quantile(totals, 0.99)),
  });
} finally {
  await world.dispose();
}
