import { expect, test } from './fixtures';
import { createWalletFromUi } from './wallet-steps';

// Most of these create a wallet through the UI first (its spending password's key derivation,
// then joining and funding the practice account): 15–25 s here, and twice that on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('the shell shows every section and the app:info travelling from main', async ({
  page,
  harness,
}) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));

  await page.goto(harness.url);
  // The token is removed from the address bar as soon as the page has it.
  expect(page.url()).not.toContain(harness.token);

  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Sandbox');
  await expect(status).toContainText('No wallet');
  await expect(status).toContainText('v0.1.0');
  // A new install opens on onboarding; the sections come once there is a wallet.
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'Go to Trade' }).click();

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('button', { name: 'Trade' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('region', { name: 'Order book' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/trade.png' });

  for (const [section, heading] of [
    ['Orders', 'Orders'],
    ['Funds', 'Funds'],
  ] as const) {
    await nav.getByRole('button', { name: section }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole('button', { name: section })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.screenshot({ path: `test-results/screens/${section.toLowerCase()}.png` });
  }

  await nav.getByRole('button', { name: 'Settings' }).click();
  const about = page.getByTestId('app-info');
  await expect(about).toContainText('Countersign');
  await expect(about).toContainText('0.1.0');
  await expect(about).toContainText(harness.services.handlers ? 'Browser test harness' : '');
  const info = await harness.services.handlers.app.info(undefined);
  await expect(about).toContainText(info.dataDir);
  await page.screenshot({ path: 'test-results/screens/settings.png' });

  // The section survives a reload: it lives in the fragment, not in memory.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  expect(consoleErrors).toEqual([]);
});

test('in the system’s forced colours the status bar still shows the network’s dot and the connection’s bars', async ({
  page,
  harness,
}) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto(harness.url);
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Exchange: Live');
  // (Forced colours give every background the system's canvas colour: a mark drawn as a
  // background vanishes into the bar unless it keeps a colour of its own.)
  const backgrounds = (selector: string) =>
    status
      .locator(selector)
      .evaluateAll((marks) => marks.map((mark) => getComputedStyle(mark).backgroundColor));
  const [canvas, text] = await status.evaluate((footer) => {
    const style = getComputedStyle(footer);
    return [style.backgroundColor, style.color];
  });
  expect(canvas).not.toBe(text);
  // Drawn in the system's text colour, as the words beside them are.
  expect(await backgrounds('.dot')).toEqual([text]);
  expect(await backgrounds('.bars i')).toEqual([text, text, text]);
  await status.screenshot({ path: 'test-results/screens/status-forced-colors.png' });
});

test('the theme switches between light and dark and is remembered', async ({ page, harness }) => {
  await page.goto(`${harness.url}#/settings`);
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Settings' })
    .click();
  const html = page.locator('html');
  await page.getByText('Light', { exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(244, 246, 249)');
  await page.screenshot({ path: 'test-results/screens/settings-light.png' });

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByText('Dark', { exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(13, 17, 23)',
  );
});

test('the renderer has no network: the CSP blocks any fetch it tries', async ({
  page,
  harness,
}) => {
  await page.goto(harness.url);
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Sandbox');
  const outcome = await page.evaluate(async () => {
    try {
      await fetch('http://127.0.0.1:9/anything');
      return 'fetched';
    } catch {
      return 'blocked';
    }
  });
  expect(outcome).toBe('blocked');
});

test('a page without the token gets no api and says what to do', async ({ page, harness }) => {
  await page.goto(harness.origin);
  const lost = page.getByRole('alert').filter({
    has: page.getByRole('heading', { name: 'Countersign cannot reach its main process' }),
  });
  await expect(lost).toContainText('Open the address the harness printed');
  await expect(lost.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('using the app tells main the trader is active (for the idle auto-lock)', async ({
  page,
  harness,
}) => {
  const seen: string[] = [];
  const dispatch = harness.services.dispatch;
  harness.services.dispatch = (channel, payload) => {
    seen.push(channel);
    return dispatch(channel, payload);
  };
  await page.goto(harness.url);
  await createWalletFromUi(page);
  // A fresh page: its first use is the one that counts.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  seen.length = 0;
  await page.getByRole('button', { name: 'Orders' }).click();
  await expect.poll(() => seen.filter((c) => c === 'session:touch').length).toBe(1);
  // A burst of use is one ping, not one per click.
  await page.getByRole('button', { name: 'Funds' }).click();
  await page.keyboard.press('Tab');
  await page.waitForTimeout(300);
  expect(seen.filter((c) => c === 'session:touch')).toHaveLength(1);
});
