import type { Order } from '../../src-shared/domain';
import { Money } from '../../src-shared/money';
import { report } from './measure';
import { openBrowserBench, percentile, round } from './browser';

/**
 * The Orders screen with 100,000 records, in Chromium through the harness: main's `orders:all`
 * answers with 100,000 orders (one execution each), as an account with years of trading would.
 * Figures: the first render of the table once the records are in the renderer (parsing the
 * message is reported on its own), and the worst frame while scrolling it end to end.
 */
const COUNT = Number(process.env['BENCH_ORDERS'] ?? 100_000);

const ordersOf = (count: number): Order[] => {
  const start = Date.parse('2024-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const price = new Money(0.6).plus(new Money(i % 500).div(10_000));
    const qty = new Money(10 + (i % 90));
    const id = `bench-${String(i).padStart(8, '0')}`;
    return {
      id,
      accountId: 'bench-account',
      symbol: i % 3 === 0 ? 'NIGHTUSDM' : 'ADAUSDM',
      side,
      type: 'limit',
      status: 'fully_filled',
      price,
      baseQty: qty,
      quoteQty: price.times(qty),
      lockedBaseQty: new Money(0),
      lockedQuoteQty: new Money(0),
      executedBaseQty: qty,
      executedQuoteQty: price.times(qty),
      executedPrice: price,
      openBaseQty: new Money(0),
      marketOrderLimitPrice: null,
      slippageBp: null,
      commission: new Money('0.01'),
      commissionRateBp: 10,
      commissionUnit: 'lovelace',
      activeOrderUtxoId: null,
      createdAt: at,
      updatedAt: at,
      executions: [
        {
          id: `${id}-e1`,
          orderId: id,
          accountId: 'bench-account',
          counterPartyOrderId: `maker-${i}`,
          price,
          baseQty: qty,
          quoteQty: price.times(qty),
          commission: new Money('0.01'),
          commissionUnit: 'lovelace',
          role: i % 2 === 0 ? 'taker' : 'maker',
          createdAt: at,
        },
      ],
    } satisfies Order;
  });
};

const bench = await openBrowserBench();
try {
  const { harness, page } = bench;
  const orders = ordersOf(COUNT);
  // Main's answer, through the real dispatcher, serializer and socket.
  Object.assign(harness.services.handlers.orders, { all: async () => orders });

  // Before the app's own scripts: note when the big answer arrives, then when the table's rows
  // are in the page and laid out (painting not included); parsing the message is timed apart.
  // The app's listener runs after this one and its rows are put in the page by the microtasks
  // that follow it, so a task queued here runs after them; forcing layout there adds its cost.
  // Plain JavaScript: a function passed from here would carry the TypeScript loader's helpers.
  await page.addInitScript({
    content: `(() => {
      const count = ${COUNT};
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (message) => {
            if (!window.benchArmed || message.data.length < count * 100 || !message.data.includes('"bench-00000000"')) return;
            // Kept to time its parsing afterwards (parsing it here would double the garbage).
            window.benchMessage = message.data;
            const ready = performance.now();
            const look = () => {
              const grid = document.querySelector('[role=grid][aria-rowcount="' + (count + 1) + '"]');
              if (!grid || !grid.querySelector('[role=row][aria-rowindex="2"]')) return setTimeout(look, 0);
              void grid.offsetHeight;
              window.benchTotalMs = performance.now() - ready;
            };
            setTimeout(look, 0);
          });
        }
      };
    })();`,
  });

  // The screen settles first (its first answer arrives while the page boots); the figure is for
  // the table drawn from scratch when the trader opens the order history.
  await page.goto(`${harness.url}#/orders`);
  await page.getByRole('tab', { name: 'Open orders' }).click();
  await page.getByRole('grid', { name: 'Open orders' }).waitFor({ timeout: 120_000 });
  await page.waitForTimeout(2000);
  await page.evaluate(() => ((window as unknown as { benchArmed: boolean }).benchArmed = true));
  await page.getByRole('tab', { name: 'Order history' }).click();
  await page.waitForFunction(() => 'benchTotalMs' in window, null, { timeout: 120_000 });
  const first = await page.evaluate(async () => {
    const w = window as unknown as { benchTotalMs: number; benchMessage?: string };
    await new Promise((settled) => setTimeout(settled, 1000));
    const t0 = performance.now();
    JSON.parse(w.benchMessage ?? '');
    const parse = performance.now() - t0;
    delete w.benchMessage;
    return { render: w.benchTotalMs - parse, parse };
  });
  report('orders-table-first-render', {
    unit: 'ms',
    rows: COUNT,
    render: round(first.render),
    target: 100,
    message_parse: round(first.parse),
  });

  // Scroll the whole list in steps of about a screen, one step per frame: each frame's work
  // (the scroll handler, the rows swapped in, style, layout and paint) from the frame's start
  // until it is painted.
  const frames = await page.evaluate(async () => {
    const grid = document.querySelector<HTMLElement>('[role=grid]');
    if (!grid) throw new Error('no grid');
    const times: number[] = [];
    const step = grid.clientHeight * 0.9;
    const total = grid.scrollHeight - grid.clientHeight;
    const jumps = 300;
    for (let i = 1; i <= jumps; i++) {
      // A few frames of steady scrolling, then a jump further down (as a dragged scrollbar does).
      const target = i % 10 === 0 ? Math.round((total * i) / jumps) : grid.scrollTop + step;
      times.push(
        await new Promise<number>((done) =>
          requestAnimationFrame(() => {
            const t0 = performance.now();
            grid.scrollTop = Math.min(total, target);
            grid.dispatchEvent(new Event('scroll'));
            const channel = new MessageChannel();
            channel.port1.onmessage = () => done(performance.now() - t0);
            // Posted during this frame: runs as soon as the frame is painted.
            channel.port2.postMessage(null);
          }),
        ),
      );
    }
    return times;
  });
  report('orders-table-scroll', {
    unit: 'ms',
    rows: COUNT,
    frames: frames.length,
    worst_frame: round(Math.max(...frames)),
    p99_frame: round(percentile(frames, 0.99)),
    median_frame: round(percentile(frames, 0.5)),
    target: 16,
  });
} finally {
  await bench.close();
}
