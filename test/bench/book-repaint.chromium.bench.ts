import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { report } from './measure';
import { openBrowserBench, percentile, rendererMain, round, type TraceEvent } from './browser';

/**
 * From a depth event leaving main to the order book repainted, in Chromium through the harness,
 * with the embedded sandbox's market maker quoting (its own depth events, not made-up ones).
 * Main's side stamps each `market:depth` message as it is sent (an extra top-level field the
 * renderer's api ignores); the page notes when the frame that drew it is painted. Both clocks are
 * the machine's wall clock at sub-millisecond resolution (`timeOrigin + now()`). A minute of the
 * market maker's quotes: some thirty events, so the worst is not one unlucky frame in ten.
 *
 * Then, under Chromium's trace, the page's own work for each event: the style, layout and paint
 * of the frame that drew it, on the CPU (the figure above also holds the wait for that frame and
 * for a core, which this one leaves out). The book's part of a frame is what its markup decides.
 */
const COLLECT_MS = 60_000;
const TRACE_MS = 20_000;

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
  const { harness, page, browser } = bench;
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
          performance.mark('bench-depth');
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

  await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing'] });
  await page.waitForTimeout(TRACE_MS);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: TraceEvent[];
  };
  const { cpu: drawing, pageLaidOut } = drawingWork(trace.traceEvents);
  report('book-drawing-per-depth-event', {
    unit: 'ms (on the CPU)',
    events: drawing.length,
    median: round(percentile(drawing, 0.5)),
    worst: round(Math.max(...drawing)),
    // Depth events whose frame laid out the whole page rather than the boxes that changed.
    page_laid_out: pageLaidOut,
  });
} finally {
  await bench.close();
}

/**
 * For each depth event that reached the page (its mark), the CPU time of the drawing work in the
 * first frame after it: from the first style or layout after the mark to the paint that ends it.
 * And how many of those frames laid out the whole page: a layout whose root is the document, not
 * the fixed boxes (the book's levels, its middle line, the header's best prices) that changed.
 */
function drawingWork(events: TraceEvent[]): { cpu: number[]; pageLaidOut: number } {
  // What the page spends drawing a frame: style, layout, pre-paint, paint and layerizing.
  const DRAWING = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize']);
  const onMain = rendererMain(events).sort((a, b) => a.ts - b.ts);
  const marks = onMain.filter((e) => e.name === 'bench-depth').map((e) => e.ts);
  const drawn = onMain.filter((e) => e.ph === 'X' && DRAWING.has(e.name));
  const out: number[] = [];
  let pageLaidOut = 0;
  for (const [k, at] of marks.entries()) {
    const next = marks[k + 1] ?? Number.POSITIVE_INFINITY;
    const first = drawn.findIndex((e) => e.ts >= at);
    if (first < 0 || (drawn[first]?.ts ?? 0) >= next) continue;
    // Nested events (a forced layout inside style, paint's own parts) are counted once.
    let cpu = 0;
    let until = 0;
    let whole = false;
    for (const e of drawn.slice(first)) {
      if (e.ts >= next) break;
      if (e.name === 'Layout' && rootsOf(e).includes('#document')) whole = true;
      if (e.ts < until) continue;
      cpu += (e.tdur ?? e.dur ?? 0) / 1000;
      until = e.ts + (e.dur ?? 0);
      if (e.name === 'Layerize') break;
    }
    out.push(cpu);
    if (whole) pageLaidOut++;
  }
  if (out.length === 0) throw new Error('no depth event was drawn while tracing');
  return { cpu: out, pageLaidOut };
}

/** The nodes a layout started from (Chromium's trace names them when the layout ends). */
function rootsOf(layout: TraceEvent): string[] {
  const end = (layout.args as { endData?: { layoutRoots?: { nodeName?: string }[] } } | undefined)
    ?.endData;
  return (end?.layoutRoots ?? []).map((root) => root.nodeName ?? '');
}
