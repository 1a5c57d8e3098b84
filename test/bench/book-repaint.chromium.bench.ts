import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { report } from './measure';
import { openBrowserBench, percentile, round } from './browser';

/**
 * From a depth event leaving main to the order book repainted, in Chromium through the harness,
 * with the embedded sandbox's market maker quoting (its own depth events, not made-up ones).
 * Main's side stamps each `market:depth` message as it is sent (an extra top-level field the
 * renderer's api ignores); the page notes when the frame that drew it is painted. Both clocks are
 * the machine's wall clock at sub-millisecond resolution (`timeOrigin + now()`). A minute of the
 * market maker's quotes: some thirty events, so the worst is not one unlucky frame in ten.
 */
const COLLECT_MS = 60_000;

const nativeSend = WebSocket.prototype.send;
WebSocket.prototype.send = function send(this: WebSocket, data: unknown, ...rest: unknown[]) {
  if (typeof data === 'string' && data.startsWith('{"event":"market:depth"')) {
    const at = performance.timeOrigin + performance.now();
    data = `{"benchSentAt":${at},${data.slice(1)}`;
  }
  return (nativeSend as (...args: unknown[]) => void).call(this, data, ...rest);
} as typeof WebSocket.prototype.send;

const bench = await openBrowserBench();
try {
  const { harness, page } = bench;
  await page.addInitScript(() => {
    const w = window as unknown as { benchRepaints: number[] };
    w.benchRepaints = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof Native>) {
        super(...args);
        this.addEventListener('message', (message: MessageEvent<string>) => {
          const head = /^\{"benchSentAt":([\d.]+),/.exec(message.data);
          if (!head) return;
          const sent = Number(head[1]);
          // The app's listener runs next and its update is drawn in the coming frame; a message
          // posted from that frame runs once it is painted.
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () =>
              w.benchRepaints.push(performance.timeOrigin + performance.now() - sent);
            channel.port2.postMessage(null);
          });
        });
      }
    };
  });
  await page.goto(`${harness.url}#/trade`);
  await page.getByRole('region', { name: 'Order book' }).waitFor();
  await page.getByRole('button', { name: /^Ask / }).first().waitFor({ timeout: 60_000 });
  await page.evaluate(() => {
    (window as unknown as { benchRepaints: number[] }).benchRepaints = [];
  });
  await page.waitForTimeout(COLLECT_MS);
  const times = await page.evaluate(
    () => (window as unknown as { benchRepaints: number[] }).benchRepaints,
  );
  if (times.length === 0) throw new Error('no depth event reached the page');
  report('book-repaint-after-depth-event', {
    unit: 'ms',
    events: times.length,
    median: round(percentile(times, 0.5)),
    p95: round(percentile(times, 0.95)),
    worst: round(Math.max(...times)),
    target: 50,
  });
} finally {
  await bench.close();
}
