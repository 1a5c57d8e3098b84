import { writeFile } from 'node:fs/promises';
import { ordersHandlers } from '../../src-main/app/orders/handlers';
import { OrdersService } from '../../src-main/app/orders/service';
import { recordOf, recordsExchange } from '../fixtures/orders/records';
import { openBrowserBench, percentile, rendererMain, round, type TraceEvent } from './browser';
import { report } from './measure';

/**
 * The Orders screen with 100,000 records, in Chromium through the harness. Main's orders service
 * (the app's own, with its dispatcher, serializer and socket) reads them from an exchange that
 * answers from memory, 250 a page as the real one pages them, so what is timed is the app and not
 * a network.
 * - First render: from the click on "Order history" to its first rows laid out in the page.
 *   `warm`: main holds the list (the trader comes back to it); `cold`: main reads all 100,000
 *   from the exchange first (pages served from memory: a real exchange adds its own time).
 * - Scrolling: every frame's main-thread work (tasks, style, layout, paint, garbage collection,
 *   from Chromium's own trace) while the list is scrolled top to bottom and back as a trader
 *   does: wheel flicks, a scrollbar dragged through the whole list, Page Down, and jumps.
 * BENCH_ORDERS sets the count, BENCH_ROUNDS how many times each figure is taken; BENCH_TRACE, a
 * path to keep the scroll traces at.
 */
const COUNT = Number(process.env['BENCH_ORDERS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

const history = Array.from({ length: COUNT }, (_, i) => recordOf(i));
const open = Array.from({ length: 20 }, (_, i) =>
  recordOf(COUNT + i, { status: 'open', executions: 0 }),
);
const exchange = recordsExchange({ orderHistory: history, tradingHistory: history, open });

const bench = await openBrowserBench();
try {
  const { harness, page, browser } = bench;
  /** A new orders service: it holds no list yet. */
  const freshService = () =>
    Object.assign(
      harness.services.handlers.orders,
      ordersHandlers(
        new OrdersService({
          network: exchange.network,
          apiKey: () => 'bench',
          emit: () => undefined,
          saveFile: async () => null,
        }),
      ),
    );
  freshService();

  // The largest message main sends the page (an answer of rows), in characters. And the helper
  // the TypeScript loader puts around named functions, for the functions evaluated in the page.
  await page.addInitScript({
    content: `(() => {
      window.__name = (fn) => fn;
      window.benchLargest = 0;
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (m) => {
            if (typeof m.data === 'string') window.benchLargest = Math.max(window.benchLargest, m.data.length);
          });
        }
      };
    })();`,
  });
  await page.goto(`${harness.url}#/orders`);
  await page.getByRole('tab', { name: 'Open orders' }).click();
  await page.getByRole('grid', { name: 'Open orders' }).waitFor({ timeout: 120_000 });
  await page.waitForTimeout(1000);

  /**
   * Clicks a view's tab and times until its first rows are in the page and laid out (a row with
   * its cells, not one waiting for main), and until the frame that shows them is painted.
   */
  const timeView = (tab: string, name: string) =>
    page.evaluate(
      async ({ tab, name, count }) => {
        const selector = `[role=grid][aria-label="${name}"][aria-rowcount="${count + 1}"]`;
        const ready = () => {
          const row = document.querySelector(`${selector} [role=row][aria-rowindex="2"]`);
          return row !== null && !row.hasAttribute('aria-busy');
        };
        const t0 = performance.now();
        const laidOut = new Promise<number>((done) => {
          const observer = new MutationObserver(() => {
            if (!ready()) return;
            observer.disconnect();
            void document.querySelector<HTMLElement>(selector)?.offsetHeight;
            done(performance.now() - t0);
          });
          observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        });
        document.getElementById(tab)?.click();
        const render = await laidOut;
        const painted = await new Promise<number>((done) =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => done(performance.now() - t0);
            channel.port2.postMessage(null);
          }),
        );
        return { render, painted };
      },
      { tab, name, count: COUNT },
    );

  const backToOpen = async () => {
    await page.getByRole('tab', { name: 'Open orders' }).click();
    await page.getByRole('grid', { name: 'Open orders' }).waitFor();
    await page.waitForTimeout(300);
  };

  const cold: number[] = [];
  const coldPainted: number[] = [];
  const warm: number[] = [];
  const warmPainted: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    freshService();
    await backToOpen();
    const first = await timeView('orders-tab-history', 'Order history');
    cold.push(first.render);
    coldPainted.push(first.painted);
    await backToOpen();
    const again = await timeView('orders-tab-history', 'Order history');
    warm.push(again.render);
    warmPainted.push(again.painted);
  }
  const inPage = await page.evaluate(() => document.querySelectorAll('[role=row]').length);
  const largest = await page.evaluate(
    () => (window as unknown as { benchLargest: number }).benchLargest,
  );
  report('orders-table-first-render', {
    unit: 'ms',
    rows: COUNT,
    rounds: ROUNDS,
    warm_median: round(percentile(warm, 0.5)),
    warm_worst: round(Math.max(...warm)),
    warm_painted_median: round(percentile(warmPainted, 0.5)),
    cold_median: round(percentile(cold, 0.5)),
    cold_worst: round(Math.max(...cold)),
    cold_painted_median: round(percentile(coldPainted, 0.5)),
    rows_in_page: inPage,
    largest_message_kb: round(largest / 1024, 1),
    target: 100,
  });

  /**
   * Scrolls the list once through the pattern below, one step a frame, and says how many frames
   * there were, in how many a row in view was still waiting for main, and how long after each
   * move the rows in view were all there.
   */
  const scrollThrough = () =>
    page.evaluate(async () => {
      const grid = document.querySelector<HTMLElement>('[role=grid]');
      if (!grid) throw new Error('no grid');
      const ROW = 28;
      const HEADER = 30;
      const view = grid.clientHeight;
      const end = grid.scrollHeight - view;
      /** Scroll positions, one a frame, and where each pattern of them begins. */
      const steps: number[] = [];
      const patterns = new Map<number, string>();
      const pattern = (name: string) => patterns.set(steps.length, name);
      let at = 0;
      const go = (to: number) => steps.push((at = Math.max(0, Math.min(end, Math.round(to)))));
      const hold = (frames: number) => {
        for (let f = 0; f < frames; f++) go(at);
      };
      // Wheel flicks: notches of 100 px, each eased over four frames as smooth scrolling does.
      const flick = (notches: number, direction: 1 | -1) => {
        for (let n = 0; n < notches; n++)
          for (const part of [40, 30, 20, 10]) go(at + direction * part);
      };
      pattern('wheel');
      flick(15, 1);
      hold(10);
      // The scrollbar's thumb dragged to the bottom over 4 s: a few screens a frame.
      const from = at;
      pattern('drag');
      for (let f = 1; f <= 240; f++) go(from + ((end - from) * f) / 240);
      hold(10);
      // Page Up, a screen at a time, then flicks up.
      pattern('page');
      for (let p = 0; p < 20; p++) {
        go(at - (view - HEADER - ROW));
        hold(5);
      }
      pattern('wheel');
      flick(15, -1);
      // Jumps (a click on the scrollbar's track, Home, End), with a pause after each.
      pattern('jump');
      for (const fraction of [0.25, 0.75, 0.5, 0, 1, 0.1]) {
        go(end * fraction);
        hold(20);
      }
      /**
       * Rows in view at `top` that are not in the page with their cells. Read from the body's
       * live list of children (looking each row up by its id would make strings every frame: the
       * bench's own garbage, collected in the frames it measures).
       */
      const children = grid.querySelector('.body')?.children;
      if (!children) throw new Error('no rows');
      const missing = (top: number) => {
        const first = Math.floor(top / ROW);
        const last = Math.floor((top + view - HEADER - 1) / ROW);
        let shown = 0;
        for (let k = 0; k < children.length; k++) {
          const row = children[k];
          if (!row || row.getAttribute('role') !== 'row' || row.hasAttribute('aria-busy')) continue;
          const index = Number(row.getAttribute('aria-rowindex')) - 2;
          if (index >= first && index <= last) shown++;
        }
        return last - first + 1 - shown;
      };
      // Each frame: the position is set and its scroll event handled before the frame is drawn,
      // as for a scroll by wheel or scrollbar; after the frame is painted, any row in view still
      // waiting for main is counted, and after each move, how long until none is.
      let framesWaiting = 0;
      const settled: number[] = [];
      let movedAt = 0;
      let previous = 0;
      // One channel, one scroll event and two callbacks for the whole run: a channel, a promise
      // or a closure a frame would be the bench's own garbage (a channel's two ports are each
      // finalized by the collector), collected in the frames it measures.
      const channel = new MessageChannel();
      const scroll = new Event('scroll');
      let step = 0;
      performance.mark('bench-scroll-start');
      await new Promise<void>((finish) => {
        const onFrame = () => {
          const name = patterns.get(step);
          if (name) performance.mark(`bench-pattern-${name}`);
          const position = steps[step] ?? 0;
          if (position !== previous) movedAt = performance.now();
          previous = position;
          grid.scrollTop = position;
          grid.dispatchEvent(scroll);
          channel.port2.postMessage(null);
        };
        // After the frame is painted.
        channel.port1.onmessage = () => {
          if (missing(previous) > 0) framesWaiting++;
          else if (movedAt) {
            settled.push(performance.now() - movedAt);
            movedAt = 0;
          }
          step += 1;
          if (step < steps.length) requestAnimationFrame(onFrame);
          else finish();
        };
        requestAnimationFrame(onFrame);
      });
      performance.mark('bench-scroll-end');
      channel.port1.close();
      return { frames: steps.length, framesWaiting, settled };
    });

  // V8's memory reducer: after the first full collection of a page whose heap has reached 10 MB,
  // it makes two compacting collections of its own once the page has allocated little for eight
  // seconds, and makes more only after the heaps (V8's, Blink's and what they hold outside them,
  // such as canvases) have grown by a tenth and by 10 MB since. Those two happen once in a page's
  // life, wherever its first such collection falls: in a trader's window, somewhere in the first
  // minutes of use; here, without a warm-up, in the first rounds of scrolling. To measure
  // scrolling as it is afterwards, the list is scrolled through unmeasured until the reducer has
  // made its two (at most three times); what they cost is reported beside the rounds.
  const warmUp = await warmUpPastMemoryReducer();

  // Scrolling, under Chromium's trace: one step of the pattern a frame.
  const worst: number[] = [];
  const p99: number[] = [];
  const medians: number[] = [];
  const chromeWorst: number[] = [];
  /** Per scroll pattern (wheel, drag, page, jump): each round's worst frame. */
  const patternWorst: Record<string, number[]> = {};
  const cpuWorst: number[] = [];
  /** Garbage collection within each round's worst frame, and the worst frame with none. */
  const gcInWorst: number[] = [];
  const worstWithoutGc: number[] = [];
  /** Full collections (V8's heap and Blink's together) within each round. */
  const fullCollections: number[] = [];
  /** What set off the full collections of all rounds (V8's reasons), and how many each. */
  const reasons: Record<string, number> = {};
  /** Scavenges (V8's young generation) within each round: the page's rate of garbage. */
  const minorCollections: number[] = [];
  /** The main thread's time in garbage collection within each round, wall and on a CPU. */
  const gcTime: number[] = [];
  const gcCpu: number[] = [];
  const cpuP99: number[] = [];
  const waiting: number[] = [];
  const settle: number[] = [];
  let frameCount = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await page.evaluate(() => {
      const grid = document.querySelector<HTMLElement>('[role=grid]');
      if (grid) grid.scrollTop = 0;
    });
    await page.waitForTimeout(500);
    await browser.startTracing(page, {
      // `v8`: the start of each full collection, with what set it off.
      categories: ['devtools.timeline', 'toplevel', 'blink.user_timing', 'v8'],
    });
    const run = await scrollThrough();
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    const keep = process.env['BENCH_TRACE'];
    if (keep) await writeFile(`${keep}-${round}.json`, JSON.stringify(trace));
    const frames = frameWork(trace.traceEvents);
    frameCount = frames.work.length;
    worst.push(Math.max(...frames.work));
    p99.push(percentile(frames.work, 0.99));
    medians.push(percentile(frames.work, 0.5));
    chromeWorst.push(Math.max(...frames.chrome));
    for (const [k, name] of frames.pattern.entries()) {
      const ms = frames.work[k] ?? 0;
      const worstOf = (patternWorst[name] ??= Array.from({ length: ROUNDS }, () => 0));
      worstOf[round] = Math.max(worstOf[round] ?? 0, ms);
    }
    const worstAt = frames.work.indexOf(Math.max(...frames.work));
    gcInWorst.push(frames.gc[worstAt] ?? 0);
    worstWithoutGc.push(Math.max(...frames.work.filter((_, k) => frames.gc[k] === 0)));
    fullCollections.push(frames.fullCollections);
    for (const reason of frames.fullReasons) reasons[reason] = (reasons[reason] ?? 0) + 1;
    minorCollections.push(frames.minorCollections);
    gcTime.push(frames.gcTime);
    gcCpu.push(frames.gcCpu);
    cpuWorst.push(Math.max(...frames.cpu));
    cpuP99.push(percentile(frames.cpu, 0.99));
    waiting.push(run.framesWaiting / run.frames);
    settle.push(...run.settled);
  }
  report('orders-table-scroll', {
    unit: 'ms',
    rows: COUNT,
    rounds: ROUNDS,
    frames: frameCount,
    worst_frame_median: round(percentile(worst, 0.5)),
    worst_frame_worst: round(Math.max(...worst)),
    p99_frame_median: round(percentile(p99, 0.5)),
    median_frame: round(percentile(medians, 0.5)),
    cpu_worst_frame_median: round(percentile(cpuWorst, 0.5)),
    cpu_worst_frame_worst: round(Math.max(...cpuWorst)),
    cpu_p99_frame_median: round(percentile(cpuP99, 0.5)),
    chrome_frame_duration_worst: round(Math.max(...chromeWorst)),
    gc_in_worst_frame_median: round(percentile(gcInWorst, 0.5)),
    worst_frame_without_gc_median: round(percentile(worstWithoutGc, 0.5)),
    // A round with none has a worst frame of its own work; one with some, usually a collection's.
    full_collections_per_round_median: percentile(fullCollections, 0.5),
    rounds_without_full_collection: fullCollections.filter((n) => n === 0).length,
    full_collections_set_off_by:
      Object.entries(reasons)
        .map(([reason, count]) => `${reason} ×${count}`)
        .join(', ') || 'none',
    minor_collections_per_round_median: percentile(minorCollections, 0.5),
    gc_ms_per_round_median: round(percentile(gcTime, 0.5)),
    gc_cpu_ms_per_round_median: round(percentile(gcCpu, 0.5)),
    // worst_frame_median_wheel, _drag, _page, _jump
    ...Object.fromEntries(
      Object.entries(patternWorst).map(([name, values]) => [
        `worst_frame_median_${name}`,
        round(percentile(values, 0.5)),
      ]),
    ),
    warm_up_rounds: warmUp.warmUps,
    warm_up_memory_reducer_collections: warmUp.reducerCollections,
    warm_up_memory_reducer_pause_worst_ms: warmUp.reducerPauseWorst,
    frames_with_rows_waiting_pct: round(percentile(waiting, 0.5) * 100, 1),
    rows_filled_after_move_median: round(percentile(settle, 0.5)),
    rows_filled_after_move_worst: round(Math.max(...settle)),
    target: 16,
  });

  /**
   * Warms up: scrolls the list through and then waits (up to ten seconds after the last full
   * collection), tracing the page's collections, until V8's memory reducer has made its two, at
   * most three times; says how many times, how many of its collections were seen and the longest
   * of their pauses.
   */
  async function warmUpPastMemoryReducer(): Promise<{
    warmUps: number;
    reducerCollections: number;
    reducerPauseWorst: number;
  }> {
    let warmUps = 0;
    let reducerCollections = 0;
    let reducerPauseWorst = 0;
    let tracedAfterReducer = false;
    /** Traces `during`; says whether the page made a full collection in it. */
    const watch = async (during: () => Promise<unknown>): Promise<boolean> => {
      tracedAfterReducer ||= reducerCollections > 0;
      await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'v8'] });
      await during();
      const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
        traceEvents: TraceEvent[];
      };
      // (A page that did nothing in a while may leave no event of its thread in the trace.)
      const named = traceEvents.some((e) => e.args?.name === 'CrRendererMain');
      const onMain = named ? rendererMain(traceEvents).sort((a, b) => a.ts - b.ts) : [];
      const pauses = onMain.filter((e) => e.name === 'MajorGC' && e.ph === 'X');
      for (const start of onMain.filter((e) => e.name === 'V8.GCIncrementalMarkingStart')) {
        if (collectionReason(start) !== 'memory reducer') continue;
        reducerCollections++;
        // Its pause: that of the first full collection after its marking started.
        const pause = pauses.find((e) => e.ts >= start.ts);
        if (pause) reducerPauseWorst = Math.max(reducerPauseWorst, (pause.dur ?? 0) / 1000);
      }
      return pauses.length > 0;
    };
    // Its second collection follows its first by about half a second, and may fall between two
    // traces: a whole trace after the first will do.
    const done = () => reducerCollections >= 2 || tracedAfterReducer;
    while (!done() && warmUps < 3) {
      warmUps++;
      await page.evaluate(() => {
        const grid = document.querySelector<HTMLElement>('[role=grid]');
        if (grid) grid.scrollTop = 0;
      });
      let quietSince = Date.now();
      if (await watch(scrollThrough)) quietSince = Date.now();
      while (!done() && Date.now() - quietSince < 10_000) {
        if (await watch(() => page.waitForTimeout(2000))) quietSince = Date.now();
      }
    }
    return { warmUps, reducerCollections, reducerPauseWorst: round(reducerPauseWorst) };
  }
} finally {
  await bench.close();
}

/**
 * Each animation frame of the page's renderer while the list scrolled (Chromium's own
 * `AnimationFrame`: from the first task that led to the frame until it was drawn): the
 * main-thread work in it (top-level tasks: input, messages from main, script, style, layout,
 * paint, garbage collection) in wall time and in the thread's time on a CPU (on a machine
 * others share, a task also waits for a core), Chromium's duration of the frame, the scroll
 * pattern it belongs to and the garbage collection within it.
 */
function frameWork(events: TraceEvent[]): {
  work: number[];
  cpu: number[];
  chrome: number[];
  pattern: string[];
  gc: number[];
  fullCollections: number;
  /** What set off each full collection whose marking started while scrolling. */
  fullReasons: string[];
  minorCollections: number;
  gcTime: number;
  gcCpu: number;
} {
  const onMain = rendererMain(events);
  const mark = (name: string) => onMain.find((e) => e.name === name)?.ts ?? Number.NaN;
  const [from, to] = [mark('bench-scroll-start'), mark('bench-scroll-end')];
  const patterns = onMain
    .filter((e) => e.name.startsWith('bench-pattern-'))
    .map((e) => ({ ts: e.ts, name: e.name.slice('bench-pattern-'.length) }))
    .sort((a, b) => a.ts - b.ts);
  const tasks = onMain
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts);
  // Garbage collection on the thread (V8's heap and, with it, Blink's): scavenges, full
  // collections and incremental marking's steps, and the tasks the heap posts for itself (Blink's
  // heap is swept in tasks of a few milliseconds after a full collection), as merged intervals.
  const GC_EVENT = /^(MinorGC|MajorGC|V8\.GC_MC_INCREMENTAL\w*)$/;
  const isCollecting = (e: TraceEvent) =>
    GC_EVENT.test(e.name) ||
    (e.name === 'ThreadControllerImpl::RunTask' && !!e.args?.src_file?.startsWith('v8/src/heap/'));
  const collections: Array<[number, number]> = [];
  for (const e of onMain
    .filter((e) => e.ph === 'X' && isCollecting(e))
    .sort((a, b) => a.ts - b.ts)) {
    const last = collections.at(-1);
    const stop = e.ts + (e.dur ?? 0);
    if (last && e.ts <= last[1]) last[1] = Math.max(last[1], stop);
    else collections.push([e.ts, stop]);
  }
  const begins = onMain.filter((e) => e.name === 'AnimationFrame' && e.ph === 'b');
  const ends = onMain.filter((e) => e.name === 'AnimationFrame' && e.ph === 'e');
  const work: number[] = [];
  const cpu: number[] = [];
  const chrome: number[] = [];
  const pattern: string[] = [];
  const gc: number[] = [];
  for (const begin of begins) {
    const end = ends.find((e) => e.id2?.local === begin.id2?.local && e.ts >= begin.ts);
    if (!end || begin.ts < from || end.ts > to) continue;
    let busy = 0;
    let onCpu = 0;
    for (const task of tasks) {
      if (task.ts >= end.ts) break;
      const stop = task.ts + (task.dur ?? 0);
      if (stop <= begin.ts) continue;
      const overlap = Math.min(stop, end.ts) - Math.max(task.ts, begin.ts);
      busy += overlap;
      onCpu += task.dur ? ((task.tdur ?? task.dur) * overlap) / task.dur : 0;
    }
    work.push(busy / 1000);
    cpu.push(onCpu / 1000);
    chrome.push(begin.args?.animation_frame_timing_info?.duration_ms ?? (end.ts - begin.ts) / 1000);
    // The pattern whose step this frame drew (its mark is made in the frame's callback).
    pattern.push(patterns.findLast((p) => p.ts <= end.ts)?.name ?? '');
    let collecting = 0;
    for (const [start, stop] of collections) {
      if (start >= end.ts) break;
      if (stop > begin.ts) collecting += Math.min(stop, end.ts) - Math.max(start, begin.ts);
    }
    gc.push(collecting / 1000);
  }
  if (work.length === 0) throw new Error('the trace has no animation frame while scrolling');
  const whileScrolling = (name: string) =>
    onMain.filter((e) => e.name === name && e.ph === 'X' && e.ts >= from && e.ts <= to);
  // Time in collections: each top-level one (the events of a collection nest), wall and CPU.
  let gcTime = 0;
  let gcCpu = 0;
  let until = 0;
  for (const e of onMain
    .filter((e) => e.ph === 'X' && e.ts >= from && e.ts <= to && isCollecting(e))
    .sort((a, b) => a.ts - b.ts)) {
    if (e.ts < until) continue;
    until = e.ts + (e.dur ?? 0);
    gcTime += e.dur ?? 0;
    gcCpu += e.tdur ?? e.dur ?? 0;
  }
  return {
    work,
    cpu,
    chrome,
    pattern,
    gc,
    fullCollections: whileScrolling('MajorGC').length,
    fullReasons: onMain
      .filter((e) => e.name === 'V8.GCIncrementalMarkingStart' && e.ts >= from && e.ts <= to)
      .map(collectionReason),
    minorCollections: whileScrolling('MinorGC').length,
    gcTime: gcTime / 1000,
    gcCpu: gcCpu / 1000,
  };
}

/** What set off a full collection, from the start of its marking (`V8.GCIncrementalMarkingStart`). */
function collectionReason(start: TraceEvent): string {
  const { reason, gc_reason: trigger } = start.args?.value ?? {};
  return reason && reason !== 'missing reason' ? reason : (trigger ?? 'unknown');
}
