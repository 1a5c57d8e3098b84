import { chromium, type Browser, type Page } from '@playwright/test';
import { generateMnemonic } from 'bip39';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../harness/server';

/**
 * The renderer in Debian's Chromium through the browser harness, with the app's services and
 * the embedded sandbox in this process, and a wallet restored through main (so the app opens on
 * its screens, not on onboarding). For the benches that measure what a trader sees.
 */
export interface BrowserBench {
  harness: Harness;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export const openBrowserBench = async (
  viewport = { width: 1360, height: 860 },
): Promise<BrowserBench> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-bench-'));
  const harness = await startHarness({ dataDir });
  await harness.services.sandbox;
  await harness.services.handlers.wallet.restore({
    name: 'Bench',
    words: generateMnemonic(256),
    password: 'correct horse battery',
  });
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport });
  return {
    harness,
    browser,
    page,
    close: async () => {
      await browser.close();
      await harness.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

/** One event of Chromium's trace, with the fields the benches read. */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Time on the CPU (the thread may wait for a core while other programs run). */
  tdur?: number;
  pid: number;
  tid: number;
  id2?: { local?: string };
  args?: {
    name?: string;
    animation_frame_timing_info?: { duration_ms?: number };
    /** A task's: the source file that posted it. */
    src_file?: string;
    /** The start of a full collection's marking (`V8.GCIncrementalMarkingStart`): why. */
    value?: { reason?: string; gc_reason?: string };
  };
}

/** The events of the page's renderer main thread (where its script, style, layout and paint run). */
export const rendererMain = (events: readonly TraceEvent[]): TraceEvent[] => {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  if (!main) throw new Error('the trace has no renderer main thread');
  return events.filter((e) => e.pid === main.pid && e.tid === main.tid);
};
