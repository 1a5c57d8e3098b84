import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { createWalletFromUi, shoot } from './wallet-steps';

test('onboarding, Funds, Settings, the signing dialog and the status bar have no serious or critical axe violation', async ({
  page,
  harness,
}) => {
  test.setTimeout(120_000);
  const found: string[] = [];
  await page.goto(harness.url);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome to Countersign' }),
  ).toBeVisible();
  found.push(...(await seriousViolations(page, 'welcome')));
  await page.getByRole('button', { name: /Restore a wallet/ }).click();
  found.push(...(await seriousViolations(page, 'restore')));
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: /Add a watch-only wallet/ }).click();
  found.push(...(await seriousViolations(page, 'watch-only')));
  await page.getByRole('button', { name: 'Back' }).click();

  await createWalletFromUi(page);
  found.push(...(await seriousViolations(page, 'ready')));
  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('table', { name: 'Wallet balance' })).toContainText('ADA');
  found.push(...(await seriousViolations(page, 'funds')));

  const deposit = page.getByRole('form', { name: 'Deposit' });
  await deposit.getByLabel('ADA', { exact: true }).fill('5');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog).toContainText(/matches what you asked/i, { timeout: 20_000 });
  found.push(...(await seriousViolations(page, 'confirm dialog')));
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  found.push(...(await seriousViolations(page, 'settings')));

  await page.getByRole('button', { name: 'Activity' }).click();
  found.push(...(await seriousViolations(page, 'activity')));
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  found.push(...(await seriousViolations(page, 'shortcut help')));
  await page.keyboard.press('Escape');
  await page
    .getByRole('contentinfo', { name: 'Status' })
    .getByRole('button', { name: 'Lock' })
    .click();
  await page.getByRole('button', { name: 'Unlock' }).click();
  found.push(...(await seriousViolations(page, 'unlock dialog')));

  expect(found).toEqual([]);
});

test('the smallest window (1024×680) and 200% zoom keep every screen usable, without sideways scrolling', async ({
  page,
  harness,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 680 });
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'See your funds' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const noSideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  /**
   * Boxes of a fixed size whose insides nothing around them depends on (`contain: strict`: the
   * book's levels and middle line, the header's best prices, the Orders rows) clip what does not
   * fit: the texts that change in them must fit. Lists those whose content is cut.
   */
  const clippedBoxes = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((box) => getComputedStyle(box).contain === 'strict' && box.offsetWidth > 0)
        .filter(
          (box) => box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1,
        )
        .map((box) => `${box.className}: ${box.textContent?.trim().slice(0, 40)}`),
    );
  for (const section of ['Funds', 'Settings', 'Trade', 'Orders'] as const) {
    await nav.getByRole('button', { name: section }).click();
    await expect(page.locator(`main[data-section="${section.toLowerCase()}"]`)).toBeVisible();
    expect(await noSideways(), `${section} at 1024×680`).toBe(true);
    if (section === 'Trade') {
      // With the market maker's quotes in the book and its best prices in the header.
      await page.getByRole('button', { name: /^Ask / }).first().waitFor({ timeout: 60_000 });
    }
    expect(await clippedBoxes(), `${section} at 1024×680`).toEqual([]);
    await shoot(page, `small-${section.toLowerCase()}`);
  }
  // At 200% zoom the smallest window is 512×340 CSS pixels: the layout must reflow to it
  // (the rail keeps only its icons) and keep every control reachable.
  await page.setViewportSize({ width: 512, height: 340 });
  for (const section of ['Funds', 'Settings'] as const) {
    await page.keyboard.press(section === 'Funds' ? 'Alt+3' : 'Alt+4');
    await expect(page.getByRole('heading', { level: 1, name: section })).toBeVisible();
    expect(await noSideways(), `${section} at 200%`).toBe(true);
    await shoot(page, `zoom200-${section.toLowerCase()}`);
  }
  await page.setViewportSize({ width: 3840, height: 2160 });
  for (const section of ['Funds', 'Settings', 'Trade', 'Orders'] as const) {
    await nav.getByRole('button', { name: section }).click();
    await expect(page.locator(`main[data-section="${section.toLowerCase()}"]`)).toBeVisible();
    expect(await noSideways(), `${section} at 4K`).toBe(true);
    expect(await clippedBoxes(), `${section} at 4K`).toEqual([]);
    await shoot(page, `4k-${section.toLowerCase()}`);
  }
});
