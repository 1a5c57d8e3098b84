import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, createWalletFromUi, goTo, restoreWalletFromUi, shoot } from './wallet-steps';

/** The wallet's address as the Funds screen shows it. */
const fundsAddress = async (page: Page): Promise<string> => {
  await goTo(page, 'Funds');
  const address = page
    .getByRole('region', { name: 'In your wallet (Cardano)' })
    .getByText(/^addr_test1/);
  await expect(address).toBeVisible({ timeout: 20_000 });
  return (await address.textContent())?.trim() ?? '';
};

/** The practice account Settings shows for the wallet in use. */
const practiceAccount = async (page: Page): Promise<string> => {
  await goTo(page, 'Settings');
  const account = page.getByRole('region', { name: 'Practice account' });
  await expect(account).toContainText('Joined');
  return (await account.textContent())?.replace(/\s+/g, ' ').trim() ?? '';
};

test('a wallet removed from this computer comes back from its recovery phrase: same address, same practice account', async ({
  page,
  harness,
}) => {
  test.setTimeout(150_000);
  await page.goto(harness.url);
  const phrase = await createWalletFromUi(page, { name: 'Main' });
  expect(phrase).toHaveLength(24);
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  const address = await fundsAddress(page);
  expect(address).toMatch(/^addr_test1[0-9a-z]{50,}$/);
  const account = await practiceAccount(page);

  // Removed: its keys leave this computer (the password is asked for); it was the only wallet.
  const wallets = page.getByRole('list', { name: 'Your wallets' });
  const main = wallets.getByRole('listitem', { name: 'Main' });
  await main.getByRole('button', { name: 'Remove Main' }).click();
  await main.getByLabel('Type “Main” to confirm').fill('Main');
  await main.getByLabel('Spending password').fill('not the password at all');
  await main.getByRole('button', { name: 'Remove Main from this computer' }).click();
  await expect(main.getByRole('alert')).toContainText(/password/i);
  await main.getByLabel('Spending password').fill(PASSWORD);
  await main.getByRole('button', { name: 'Remove Main from this computer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Countersign' })).toBeVisible(
    { timeout: 15_000 },
  );
  expect(await harness.services.handlers.wallet.list(undefined)).toMatchObject({ wallets: [] });

  // A phrase with a mistyped word or missing words is refused in words, nothing is added.
  await page.getByRole('button', { name: /Restore a wallet/ }).click();
  const form = page.locator('form').filter({ has: page.getByLabel('Recovery phrase') });
  await form.getByLabel('Wallet name').fill('Main');
  await form.getByLabel('Recovery phrase').fill(phrase.slice(0, 23).join(' '));
  await expect(form).toContainText('A recovery phrase has 12, 15 or 24 words; you have typed 23.');
  const typo = [...phrase];
  typo[4] = `${typo[4] ?? ''}x`;
  await form.getByLabel('Recovery phrase').fill(typo.join(' '));
  await form.getByLabel('Spending password').fill(PASSWORD);
  await form.getByLabel('Type it again').fill(PASSWORD);
  await form.getByRole('button', { name: 'Restore wallet' }).click();
  await expect(form.getByRole('alert')).toContainText('Word 5 is not a recovery-phrase word');
  await shoot(page, 'restore-wrong-word');
  expect(await harness.services.handlers.wallet.list(undefined)).toMatchObject({ wallets: [] });
  await form.getByRole('button', { name: 'Back' }).click();

  // The written-down phrase, typed with the spacing and capitals a person may use.
  await restoreWalletFromUi(page, {
    name: 'Main again',
    words: `  ${phrase.slice(0, 12).join(' ')}\n${phrase.slice(12).join('   ').toUpperCase()} `,
  });
  await shoot(page, 'restore-ready');
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  expect(await fundsAddress(page)).toBe(address);
  await shoot(page, 'restore-funds');
  // The practice exchange knows the address: the same account, not a new one.
  expect(await practiceAccount(page)).toBe(account);
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('Main again');
  await expect(status).toContainText('Unlocked');
});
