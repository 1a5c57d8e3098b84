import { expect, test } from './fixtures';
import { PASSWORD, createWalletFromUi, goTo, shoot } from './wallet-steps';

test('lock from the status bar or with Ctrl+Shift+L, unlock with the spending password', async ({
  page,
  harness,
}) => {
  test.setTimeout(90_000);
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Unlocked');

  await status.getByRole('button', { name: 'Lock' }).click();
  await expect(status).toContainText('Locked');
  await shoot(page, 'locked');

  await status.getByRole('button', { name: 'Unlock' }).click();
  const dialog = page.getByRole('dialog', { name: /Unlock/ });
  await dialog.getByLabel('Spending password').fill('wrong password entirely');
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/password/i);
  await shoot(page, 'unlock-wrong-password');
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(status).toContainText('Unlocked');

  // The shortcut locks even from a text field.
  await page.keyboard.press('Control+Shift+L');
  await expect(status).toContainText('Locked');
  expect(await harness.services.handlers.session.status(undefined)).toMatchObject({
    state: 'locked',
  });

  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: /Keyboard shortcuts/ })).toBeVisible();
  await shoot(page, 'shortcut-help');
});

test('switching network from Settings changes it everywhere; an unreachable exchange fills the width with what to do', async ({
  page,
  harness,
}) => {
  test.setTimeout(90_000);
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Exchange: Live', { timeout: 20_000 });

  // The embedded exchange stops answering.
  const sandbox = await harness.services.sandbox;
  await sandbox?.stop();
  const offline = page.getByRole('alert').filter({ hasText: 'No connection to the exchange' });
  await expect(offline).toBeVisible({ timeout: 30_000 });
  await expect(offline.getByRole('button', { name: 'Try again now' })).toBeVisible();
  // Nothing can be sent meanwhile: the order form says why instead.
  await expect(page.getByRole('button', { name: 'Buy ADA' })).toBeDisabled();
  await shoot(page, 'exchange-unreachable');
  // Funds opened meanwhile cannot read the balances: each panel says so in a line (the banner
  // says why and offers to try again), and the forms point to the panel that could not be read.
  await goTo(page, 'Funds');
  const balances = page.getByRole('region', { name: 'On the exchange' });
  await expect(balances).toContainText(
    'Your balances on the exchange could not be read: no connection to the exchange.',
    { timeout: 20_000 },
  );
  const deposit = page.getByRole('region', { name: 'Deposit to the exchange' });
  await expect(deposit).toContainText("This form shows once your wallet's coins can be read");
  for (const panel of ['On the exchange', 'In your wallet (Cardano)', 'Withdraw to your wallet'])
    await expect(page.getByRole('region', { name: panel })).not.toContainText('could not reach');
  await expect(page.getByRole('form', { name: 'Deposit' })).toHaveCount(0);
  await shoot(page, 'funds-unreachable');
  await offline.getByRole('button', { name: 'Network settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  await page.getByRole('radio', { name: /Staging/ }).check();
  await page.getByRole('button', { name: 'Switch to Staging' }).click();
  await expect(status).toContainText('Staging', { timeout: 15_000 });
  await shoot(page, 'network-staging');

  await page.getByRole('radio', { name: /Sandbox/ }).check();
  await page.getByRole('button', { name: 'Switch to Sandbox' }).click();
  await expect(status).toContainText('Sandbox', { timeout: 15_000 });
  // A switch locks the trading session (API keys are per network); unlocked again, the
  // sandbox is started afresh and live.
  await expect(status).toContainText('Locked');
  await status.getByRole('button', { name: 'Unlock' }).click();
  const unlock = page.getByRole('dialog', { name: /Unlock/ });
  await unlock.getByLabel('Spending password').fill(PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(status).toContainText('Exchange: Live', { timeout: 30_000 });
  await expect(offline).toBeHidden();
});
