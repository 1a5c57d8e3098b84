import { expect, test } from './fixtures';
import { createWalletFromUi, shoot } from './wallet-steps';

test('a new install opens on onboarding; a wallet created from the UI is joined and funded with no further step', async ({
  page,
  harness,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(harness.url);
  await createWalletFromUi(page, { name: 'Main', screenshots: true });

  // On the sandbox the faucet's coins are visible at once.
  const holds = page.getByRole('region', { name: 'Your wallet holds' });
  await expect(holds).toContainText('ADA');
  await expect(holds.locator('td').first()).not.toHaveText('0');
  await shoot(page, 'onboarding-ready');

  // One truth for wallet, lock state and network, in the status bar.
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Main');
  await expect(status).toContainText('Sandbox');
  await expect(status).toContainText(/Unlocked/);

  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Funds' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Wallet balance' })).toContainText('ADA');
  await shoot(page, 'funds-after-onboarding');
  expect(errors).toEqual([]);
});
