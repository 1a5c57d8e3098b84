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
