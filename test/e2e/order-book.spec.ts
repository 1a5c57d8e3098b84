import { generateMnemonic } from 'bip39';
import { expect, test } from './fixtures';

/**
 * The order book fills the height it is given: each side shows as many levels as it holds, best
 * next to the spread, none cut in half and nothing to scroll, so a taller window shows a deeper
 * book rather than an empty panel (the practice exchange's market maker quotes thirty a side).
 */
test('the book shows as many levels as its panel holds, more on a taller window', async ({
  page,
  harness,
}) => {
  await harness.services.handlers.wallet.restore({
    name: 'Main',
    words: generateMnemonic(256),
    password: 'correct horse battery',
  });
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
