import { generateMnemonic } from 'bip39';
import type { Harness } from '../harness/server';
import { expect, test } from './fixtures';

/** A wallet restored through main, so the app opens on its screens rather than onboarding. */
const withWallet = (harness: Harness) =>
  harness.services.handlers.wallet.restore({
    name: 'Main',
    words: generateMnemonic(256),
    password: 'correct horse battery',
  });

/**
 * The order book fills the height it is given: each side shows as many levels as it holds, best
 * next to the spread, none cut in half and nothing to scroll, so a taller window shows a deeper
 * book rather than an empty panel (the practice exchange's market maker quotes thirty a side).
 */
test('the book shows as many levels as its panel holds, more on a taller window', async ({
  page,
  harness,
}) => {
  await withWallet(harness);
  const book = page.getByRole('region', { name: 'Order book' });
  const asks = book.getByRole('button', { name: /^Ask / });
  const bids = book.getByRole('button', { name: /^Bid / });

  /** Levels shown a side, and whether each side's levels fit it without scrolling. */
  const shown = async () => {
    const fits = await book.evaluate((element) =>
      [...element.querySelectorAll<HTMLElement>('.side')].map(
        (side) => side.scrollHeight <= side.clientHeight,
      ),
    );
    return { asks: await asks.count(), bids: await bids.count(), fits };
  };

  const counts: number[] = [];
  for (const size of [
    { width: 1024, height: 680 },
    { width: 1920, height: 1080 },
    { width: 3840, height: 2160 },
  ]) {
    await page.setViewportSize(size);
    if (counts.length === 0) await page.goto(`${harness.url}#/trade`);
    await expect(asks.first()).toBeVisible({ timeout: 30_000 });
    await expect(async () => {
      const now = await shown();
      expect(now.fits).toEqual([true, true]);
      expect(now.asks).toBeGreaterThan(3);
      expect(now.bids).toBe(now.asks);
    }).toPass();
    const now = await shown();
    counts.push(now.asks);
    // The best of each side is the one next to the spread, and in view.
    await expect(asks.last()).toBeInViewport();
    await expect(bids.first()).toBeInViewport();
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      await page.screenshot({ path: `test-results/screens/book-${size.width}-${theme}.png` });
    }
  }
  const [small = 0, large = 0, huge = 0] = counts;
  expect(small).toBeLessThan(large);
  expect(large).toBeLessThan(huge);
  // At 4K the whole of the market maker's ladder fits.
  expect(huge).toBe(30);
});

/**
 * On a small window, grouping the book by a coarser price step shows more of its depth: each
 * group adds up the levels within a step, at the price that reaches all of them.
 */
test('grouping the book by a price step shows a deeper book in a small panel', async ({
  page,
  harness,
}) => {
  await withWallet(harness);
  await page.setViewportSize({ width: 1024, height: 680 });
  await page.goto(`${harness.url}#/trade`);
  const book = page.getByRole('region', { name: 'Order book' });
  const asks = book.getByRole('button', { name: /^Asks? / });
  await expect(asks.first()).toBeVisible({ timeout: 30_000 });
  const priceOf = (label: string | null) =>
    Number(/^Asks? (?:up to )?([\d.]+)/.exec(label ?? '')?.[1]);
  /** The price range the asks shown span, from the best to the deepest. */
  const span = async () => {
    const labels = await asks.evaluateAll((buttons) =>
      buttons.map((b) => b.getAttribute('aria-label')),
    );
    const prices = labels.map(priceOf);
    return { count: prices.length, range: Math.max(...prices) - Math.min(...prices), prices };
  };
  const quoted = await span();

  await book.getByRole('combobox', { name: 'Group' }).selectOption('0.001');
  // Each group is named for the prices it holds.
  await expect(book.getByRole('button', { name: /^Asks up to / }).first()).toBeVisible();
  await expect(book.getByRole('button', { name: /^Bids down to / }).first()).toBeVisible();
  await expect(async () => {
    const grouped = await span();
    // Whole steps of 0.001, as many rows as before, spanning a wider range of prices.
    for (const price of grouped.prices)
      expect(Math.round(price * 1000)).toBeCloseTo(price * 1000, 6);
    expect(grouped.count).toBe(quoted.count);
    expect(grouped.range).toBeGreaterThan(quoted.range);
  }).toPass();
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.screenshot({ path: `test-results/screens/book-grouped-1024-${theme}.png` });
  }
  // Kept for this market when the screen is opened again.
  await page.reload();
  await expect(book.getByRole('combobox', { name: 'Group' })).toHaveValue('0.001');
});
