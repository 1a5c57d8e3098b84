import { chromium } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemorySecretStore } from '../../src-main/wallet/secret-store';
import { STRONG_PASSWORD, VECTOR_PHRASE } from '../fixtures/cardano/wallet-services';
import { startHarness } from '../harness/server';
import { report } from './measure';

/**
 * In the browser harness, in Debian's Chromium, with a wallet and the embedded sandbox:
 * - opening the app until the Trade screen is interactive (its section drawn, the trading
 *   session and the exchange's connection known, the rail answering), target ≤ 1 s;
 * - moving between sections from the rail until the new one is drawn.
 */
const dataDir = await mkdtemp(join(tmpdir(), 'countersign-bench-nav-'));
const harness = await startHarness({ dataDir, secretStore: new MemorySecretStore() });
await harness.services.sandbox;
await harness.services.handlers.wallet.restore({
  name: 'Bench',
  words: VECTOR_PHRASE,
  password: STRONG_PASSWORD,
});
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

const tradeInteractive = async () => {
  await page.locator('main[data-section="trade"]').waitFor();
  await page
    .getByRole('contentinfo', { name: 'Status' })
    .getByText(/Locked|Unlocked/)
    .waitFor();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Orders' })
    .waitFor();
};

const open: number[] = [];
await page.goto(`${harness.url}#/trade`);
await tradeInteractive(); // warm-up: the first load also compiles the page
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  await page.reload();
  await tradeInteractive();
  open.push(performance.now() - t0);
}
report('ui.open_to_interactive_trade_ms', {
  unit: 'ms',
  median: Math.round(percentile(open, 0.5)),
  p99: Math.round(percentile(open, 0.99)),
  iterations: open.length,
  target_median: 1000,
});

const rail = page.getByRole('navigation', { name: 'Main' });
const switches: number[] = [];
for (let i = 0; i < 5; i++) {
  for (const section of ['Funds', 'Settings', 'Orders', 'Trade'] as const) {
    const t0 = performance.now();
    await rail.getByRole('button', { name: section }).click();
    await page.locator(`main[data-section="${section.toLowerCase()}"]`).waitFor();
    switches.push(performance.now() - t0);
  }
}
report('ui.switch_section_ms', {
  unit: 'ms',
  median: Math.round(percentile(switches, 0.5)),
  p99: Math.round(percentile(switches, 0.99)),
  iterations: switches.length,
});

await browser.close();
await harness.close();
await rm(dataDir, { recursive: true, force: true });
