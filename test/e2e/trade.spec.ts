import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';

/**
 * The trader's day on the Trade and Orders screens, done from the UI alone against the embedded
 * sandbox exchange (its market maker quotes both markets) with a real keychain: a new wallet, a
 * deposit, orders that fill, rest and are cancelled, the history with each order's executions,
 * the CSV export, the order form's refusals, and an accessibility scan.
 */
const PASSWORD = 'correct horse battery';
const SHOTS = 'test-results/screens';

test.describe.configure({ timeout: 180_000 });

/** A new user: creates a wallet in onboarding and deposits part of the faucet's funds. */
const newTrader = async (page: Page, url: string) => {
  await page.goto(url);
  await page.getByRole('button', { name: /Create a new wallet/ }).click();
  await page.getByLabel('Spending password').fill(PASSWORD);
  await page.getByLabel('Type it again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create wallet' }).click();
  const phrase = page.locator('ol[aria-label="Recovery phrase"] .word');
  await phrase.first().waitFor();
  const words = await phrase.allTextContents();
  await page.getByLabel(/I have written down/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const asked = page.getByLabel(/^Word \d+$/);
  await asked.first().waitFor();
  for (const input of await asked.all()) {
    const position = Number((await input.getAttribute('id'))?.split('-').pop());
    await input.fill(words[position - 1] ?? '');
  }
  await page.getByRole('button', { name: 'Confirm and save' }).click();
  await page.getByRole('button', { name: 'See your funds' }).click({ timeout: 60_000 });

  const deposit = page.getByRole('form', { name: 'Deposit' });
  await deposit.getByLabel('ADA', { exact: true }).fill('2000');
  await deposit.getByLabel('USDM', { exact: true }).fill('2000');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: /^Sign/ }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await nav(page, 'Trade');
  await expect(page.getByRole('region', { name: 'Order book' })).toBeVisible();
  // The deposit has landed when the order form's balances show it.
  await expect(entry(page).getByRole('row', { name: /^USDM\s+2,000/ })).toBeVisible({
    timeout: 60_000,
  });
};

const nav = (page: Page, section: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: section }).click();

const textbox = (page: Page, name: RegExp) => page.getByRole('textbox', { name });

/**
 * Signs in the confirmation dialog, which must show what was asked. On the practice exchange
 * orders skip it by default (the trader's setting); a test that wants it turns that off first.
 */
const signInDialog = async (page: Page) => {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Matches what you asked', { timeout: 20_000 });
  await dialog.getByRole('button', { name: /^Sign/ }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
};

/**
 * Signs operations shown in the dialog one after another (a cancel all), each known by a text
 * of its own: the next one takes the dialog as soon as the one before is sent.
 */
const signEachInDialog = async (page: Page, texts: string[]) => {
  const dialog = page.getByRole('dialog');
  const left = new Set(texts);
  while (left.size > 0) {
    await expect(dialog).toContainText('Matches what you asked', { timeout: 20_000 });
    const shown = (await dialog.textContent()) ?? '';
    const text = [...left].find((t) => shown.includes(t));
    expect(text, `the dialog shows one of ${[...left].join(', ')}`).toBeDefined();
    await dialog.getByRole('button', { name: /^Sign/ }).click();
    await expect(dialog.filter({ hasText: text })).toHaveCount(0, { timeout: 60_000 });
    left.delete(text ?? '');
  }
  await expect(dialog).toBeHidden({ timeout: 60_000 });
};

/** How an order goes out: without the dialog (the sandbox's default) or through it. */
type Confirm = 'skipped' | 'in dialog';

const confirm = async (page: Page, how: Confirm) => {
  if (how === 'in dialog') await signInDialog(page);
};

/** Settings → "Place and cancel orders without the confirmation dialog", off; back to Trade. */
const askBeforeOrders = async (page: Page) => {
  await nav(page, 'Settings');
  await page
    .getByRole('checkbox', { name: /Place and cancel orders without the confirmation dialog/ })
    .uncheck();
  const saved = page.getByRole('status').filter({ hasText: 'Orders ask for confirmation' });
  await expect(saved).toBeVisible();
  await saved.getByRole('button', { name: /^Dismiss/ }).click();
  await nav(page, 'Trade');
};

const entry = (page: Page) => page.getByRole('form', { name: 'Order form' });

const side = (page: Page, which: 'Buy' | 'Sell') =>
  entry(page).getByRole('radio', { name: which, exact: true }).check();

const kind = (page: Page, which: 'Limit' | 'Market') =>
  entry(page).getByRole('radio', { name: which, exact: true }).check();

/** A limit order far from the market, so it rests in the book. */
const restingSell = async (
  page: Page,
  price: string,
  quantity: string,
  how: Confirm = 'skipped',
) => {
  await side(page, 'Sell');
  await kind(page, 'Limit');
  await textbox(page, /^Price/).fill(price);
  await textbox(page, /^Quantity/).fill(quantity);
  await entry(page).getByRole('button', { name: 'Sell ADA' }).click();
  await confirm(page, how);
};

/** A limit buy at the best ask, taken from the book: the market maker fills it. */
const buyAtBestAsk = async (page: Page, quantity: string) => {
  await side(page, 'Buy');
  await kind(page, 'Limit');
  const book = page.getByRole('region', { name: 'Order book' });
  await book.getByRole('button', { name: /^Ask / }).last().click();
  await expect(textbox(page, /^Price/)).not.toHaveValue('');
  await textbox(page, /^Quantity/).fill(quantity);
  await entry(page).getByRole('button', { name: 'Buy ADA' }).click();
};

const tab = (page: Page, name: RegExp) => page.getByRole('tab', { name }).click();

/**
 * ADA bought in the fills shown, in ten-thousandths: a market order fills at as many levels of
 * the book as it needs, each its own fill.
 */
const bought = async (fills: Locator): Promise<number> => {
  let total = 0;
  for (const row of await fills.getByRole('row', { name: /Buy/ }).all()) {
    const amount = (await row.getByRole('cell').nth(3).textContent()) ?? '0';
    total += Math.round(Number(amount.replace(/,/g, '')) * 10_000);
  }
  return total;
};

test('a limit order at the best ask fills against the market maker; a market order fills (no dialog on the sandbox)', async ({
  page,
  harness,
}) => {
  await newTrader(page, harness.url);
  await page.screenshot({ path: `${SHOTS}/trade-ready.png` });

  await buyAtBestAsk(page, '10');
  await tab(page, /Your fills/);
  const fills = page.getByRole('tabpanel');
  await expect(fills.getByRole('row', { name: /Buy.*10\.0000/ })).toBeVisible({
    timeout: 30_000,
  });
  // The balance moved: 2000 ADA became 2010 less the 0.1 % fee taken in ADA.
  await expect(entry(page).getByRole('row', { name: /^ADA\s+2,009\.9900/ })).toBeVisible({
    timeout: 30_000,
  });
  await page.screenshot({ path: `${SHOTS}/trade-limit-filled.png` });

  await side(page, 'Buy');
  await kind(page, 'Market');
  const before = await bought(fills);
  // With the slippage limit (on by default): main checks the order's worst price against it.
  await textbox(page, /^Quantity/).fill('7');
  await entry(page).getByRole('button', { name: 'Buy ADA' }).click();
  await expect.poll(() => bought(fills), { timeout: 30_000 }).toBe(before + 70_000);

  await textbox(page, /^Quantity/).fill('5');
  // A market order with no slippage limit locks the whole quote balance until it is done.
  await entry(page)
    .getByRole('checkbox', { name: /Limit slippage/ })
    .uncheck();
  await expect(entry(page)).toContainText('Without a limit the order fills at any price');
  await entry(page).getByRole('button', { name: 'Buy ADA' }).click();
  await expect.poll(() => bought(fills), { timeout: 30_000 }).toBe(before + 120_000);
  await page.screenshot({ path: `${SHOTS}/trade-market-filled.png` });
});

test('with the dialog asked for, an order rests, is cancelled, and cancel all empties the market', async ({
  page,
  harness,
}) => {
  await newTrader(page, harness.url);
  await askBeforeOrders(page);

  await restingSell(page, '0.9', '20', 'in dialog');
  await tab(page, /Open orders/);
  const open = page.getByRole('tabpanel');
  const row = open.getByRole('row', { name: /Sell.*0\.9000.*20\.0000/ });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('tab', { name: 'Open orders (1)' })).toBeVisible();
  await row.getByRole('button', { name: /Cancel/ }).click();
  await signInDialog(page);
  await expect(page.getByRole('tab', { name: 'Open orders (0)' })).toBeVisible({
    timeout: 30_000,
  });

  await restingSell(page, '0.9', '20', 'in dialog');
  await restingSell(page, '0.95', '30', 'in dialog');
  await expect(page.getByRole('tab', { name: 'Open orders (2)' })).toBeVisible({
    timeout: 30_000,
  });
  // The toasts of those orders leave every cancel control uncovered, clickable at once; in the
  // smallest window, the order form's button too.
  const uncovered = (button: Locator) =>
    button.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && element.contains(hit);
    });
  const cancels = page.getByRole('button', { name: /^Cancel / });
  await expect(cancels).toHaveCount(3);
  const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
  await expect(toasts).toHaveCount(3);
  for (const button of await cancels.all()) {
    expect(await uncovered(button), (await button.getAttribute('aria-label')) ?? '').toBe(true);
  }
  await page.screenshot({ path: `${SHOTS}/trade-two-open.png` });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1024, height: 680 });
  await expect(toasts.filter({ visible: true })).toHaveCount(1);
  expect(await uncovered(page.getByRole('button', { name: 'Sell ADA' }))).toBe(true);
  await page.screenshot({ path: `${SHOTS}/trade-two-open-small.png` });
  if (size) await page.setViewportSize(size);
  await page.getByRole('button', { name: 'Cancel all on ADA/USDM' }).click();
  await page.getByRole('button', { name: 'Yes, cancel all' }).click();
  // With the dialog asked for, each cancel is shown in it in turn before it is signed.
  await signEachInDialog(page, ['at 0.9000 USDM', 'at 0.9500 USDM']);
  await expect(page.getByText('Cancelled 2 open orders on ADA/USDM.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('tab', { name: 'Open orders (0)' })).toBeVisible({
    timeout: 30_000,
  });
});

test('the order form says why it will not send: too little balance, below the minimum', async ({
  page,
  harness,
}) => {
  await newTrader(page, harness.url);
  await side(page, 'Buy');
  await kind(page, 'Limit');
  await textbox(page, /^Price/).fill('0.6');
  await textbox(page, /^Quantity/).fill('10000');
  await entry(page).getByRole('button', { name: 'Buy ADA' }).click();
  await expect(entry(page)).toContainText('Not enough USDM: this order locks 6,000.0000 USDM');
  await expect(entry(page).getByRole('button', { name: 'Buy ADA' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/trade-not-enough.png` });

  await textbox(page, /^Quantity/).fill('1');
  await expect(entry(page)).toContainText(/The smallest order is [\d.]+ ADA or its worth/);
  await expect(entry(page).getByRole('button', { name: 'Buy ADA' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/trade-below-minimum.png` });
  // Nothing reached the exchange.
  await tab(page, /Open orders/);
  await expect(page.getByRole('tab', { name: 'Open orders (0)' })).toBeVisible();
});

test('orders history shows an order with its executions and exports CSV', async ({
  page,
  harness,
}) => {
  await newTrader(page, harness.url);
  await buyAtBestAsk(page, '10');
  await tab(page, /Your fills/);
  await expect(page.getByRole('tabpanel').getByRole('row', { name: /Buy.*10\.0000/ })).toBeVisible({
    timeout: 30_000,
  });

  await nav(page, 'Orders');
  await page.getByRole('tab', { name: 'Order history' }).click();
  const grid = page.getByRole('grid', { name: 'Order history' });
  const row = grid.getByRole('row', { name: /Buy.*10\.0000.*Filled/ });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.click();
  const detail = page.getByRole('region', { name: /Buy 10\.0000 ADA/ });
  await expect(detail).toBeVisible();
  const executions = detail.getByRole('region', { name: /Executions/ });
  // Beside the list the panel is too narrow for eight columns: each execution is a card whose
  // values are read with their labels, all of it within the panel, nothing scrolled sideways.
  const fill = executions.getByRole('row', { name: /Role\s*(Taker|Maker)/ });
  await expect(fill).toHaveCount(1);
  await expect(fill.getByRole('cell', { name: /^Quantity\s*10\.0000 ADA$/ })).toBeVisible();
  await expect(fill.getByRole('cell', { name: /^Execution ID\s*\S{8,}$/ })).toBeVisible();
  const sideways = await executions.evaluate((section) =>
    [section, ...section.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1),
  );
  expect(sideways).toBe(false);
  expect(await seriousViolations(page, 'An order’s detail')).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/orders-detail.png` });
  // The card alone, clear of the notifications.
  const dismiss = page.getByRole('button', { name: /^Dismiss:/ });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await executions.evaluate((section) => section.scrollIntoView({ block: 'start' }));
  await executions.screenshot({ path: `${SHOTS}/orders-detail-executions.png` });

  await page.getByRole('tab', { name: 'Trading history' }).click();
  await expect(
    page.getByRole('grid', { name: 'Trading history' }).getByRole('row', { name: /10\.0000/ }),
  ).not.toHaveCount(0);
  await page.getByRole('button', { name: 'Export fills (CSV)' }).click();
  await expect(page.getByText(/Saved \d+ fills? to countersign-fills-trades-/)).toBeVisible();
  const info = await harness.services.handlers.app.info(undefined);
  const folder = join(info.dataDir, 'exports');
  const files = (await readdir(folder)).filter((f) => f.startsWith('countersign-fills-'));
  expect(files).toHaveLength(1);
  const csv = await readFile(join(folder, files[0] ?? ''), 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).some((line) => line.includes('ADAUSDM'))).toBe(true);
  await page.screenshot({ path: `${SHOTS}/orders-trades.png` });
});

test('Trade and Orders have no serious or critical accessibility violation in either theme', async ({
  page,
  harness,
}) => {
  await newTrader(page, harness.url);
  await restingSell(page, '0.9', '20');
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    for (const section of ['Trade', 'Orders'] as const) {
      await nav(page, section);
      if (section === 'Trade') {
        await expect(page.getByRole('region', { name: 'Order book' })).toBeVisible();
        await expect(page.getByRole('button', { name: /^Ask / }).first()).toBeVisible();
      } else {
        await page.getByRole('tab', { name: 'Open orders' }).click();
        await expect(page.getByRole('grid', { name: 'Open orders' })).toBeVisible();
      }
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      expect(bad, `${section} in the ${theme} theme`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/axe-${section.toLowerCase()}-${theme}.png` });
    }
  }
});
