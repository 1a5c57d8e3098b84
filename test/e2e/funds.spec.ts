import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, createWalletFromUi, exchangeAda, shoot } from './wallet-steps';

const onFunds = async (page: Page) => {
  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Funds' })).toBeVisible();
};

test('deposit then withdraw from the Funds screen: the coins and fee shown before signing, pending until landed', async ({
  page,
  harness,
}) => {
  test.setTimeout(120_000);
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await onFunds(page);

  const deposit = page.getByRole('form', { name: 'Deposit' });
  await deposit.getByLabel('ADA', { exact: true }).fill('100');
  await deposit.getByLabel('USDM', { exact: true }).fill('50');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByRole('region', { name: 'What is spent' })).toBeVisible();
  await expect(dialog).toContainText(/fee/i);
  await expect(dialog).toContainText(/matches what you asked/i);
  await shoot(page, 'deposit-confirm');
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign and deposit' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });

  const pending = page.getByRole('list', { name: 'Deposits and withdrawals on their way' });
  await expect(pending).toContainText(/100 ADA/);
  await shoot(page, 'deposit-pending');
  // It lands: the exchange shows it free, and nothing is on its way any more.
  await expect(exchangeAda(page)).toHaveText('100', { timeout: 60_000 });
  await expect(pending).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    'Deposit credited',
  );
  await shoot(page, 'deposit-credited');

  const withdraw = page.getByRole('form', { name: 'Withdraw' });
  await withdraw.getByLabel('ADA', { exact: true }).fill('20');
  await withdraw.getByRole('button', { name: /Review withdrawal/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm your withdrawal' });
  await expect(confirm).toBeVisible({ timeout: 20_000 });
  await expect(confirm).toContainText(/matches what you asked/i);
  await shoot(page, 'withdraw-confirm');
  await confirm.getByLabel('Spending password').fill(PASSWORD);
  await confirm.getByRole('button', { name: 'Sign and withdraw' }).click();
  await expect(confirm).toBeHidden({ timeout: 20_000 });
  // 20 ADA leave the free balance, plus the exchange's 1 ADA fee.
  await expect(exchangeAda(page)).toHaveText('79', { timeout: 60_000 });
  await shoot(page, 'withdraw-done');
  await page.getByRole('button', { name: 'Activity' }).click();
  await expect(page.getByRole('dialog', { name: 'Activity' })).toContainText(/Withdr/);
  await shoot(page, 'activity');
});

test('below the minimum, more than the wallet holds, and a wrong password each say what to do', async ({
  page,
  harness,
}) => {
  test.setTimeout(90_000);
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await onFunds(page);
  const deposit = page.getByRole('form', { name: 'Deposit' });
  const ada = deposit.getByLabel('ADA', { exact: true });

  await ada.fill('1');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  await expect(deposit).toContainText('At least 2 ADA.');
  await expect(page.getByRole('dialog')).toBeHidden();
  await shoot(page, 'deposit-below-minimum');

  await ada.fill('20000');
  await expect(deposit).toContainText('Your wallet holds 10,000 ADA.');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await shoot(page, 'deposit-insufficient');
  // Max leaves the network fee and the change (which holds the USDM staying behind).
  await deposit.getByRole('button', { name: 'Use the most ADA possible' }).click();
  await expect(ada).toHaveValue('9998.3');
  await expect(deposit).toContainText('Max keeps 1.7 ADA there.');

  await ada.fill('10');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await dialog.getByLabel('Spending password').fill('not the password at all');
  await dialog.getByRole('button', { name: 'Sign and deposit' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/password/i);
  await shoot(page, 'deposit-wrong-password');
  // Nothing was sent: the dialog stays, ready for the right password.
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(exchangeAda(page)).toHaveText('0');
});

test('Max from a wallet of more coins than one deposit spends: the hundred holding the most ADA, built, checked and landed', async ({
  page,
  harness,
}) => {
  test.setTimeout(150_000);
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await onFunds(page);
  // Another party pays the wallet 140 small coins (3 to 9 ADA, 840 ADA in all) beside the
  // faucet's 10,000 ADA and 10,000 USDM.
  const sandbox = await harness.services.sandbox;
  if (!sandbox?.adminToken) throw new Error('the embedded sandbox announced no admin token');
  const { baseAddress } = await harness.services.handlers.wallet.addresses({});
  for (let i = 0; i < 140; i++) {
    const paid = await fetch(`${sandbox.url}/sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': sandbox.adminToken },
      body: JSON.stringify({
        address: baseAddress,
        amount: [{ unit: 'lovelace', quantity: String((3 + (i % 7)) * 1_000_000) }],
      }),
    });
    expect(paid.ok).toBe(true);
  }
  await page.reload();
  await expect(page.getByText('141 coins (UTxOs) at this address.')).toBeVisible({
    timeout: 20_000,
  });

  const deposit = page.getByRole('form', { name: 'Deposit' });
  await deposit.getByRole('button', { name: 'Use the most ADA possible' }).click();
  // The faucet's coin and the 99 largest small ones hold 10,695 ADA; 1.9 stays for the fee and
  // the change that carries the USDM.
  await expect(deposit.getByLabel('ADA', { exact: true })).toHaveValue('10693.1');
  await expect(deposit).toContainText(
    'Max keeps 1.9 ADA there, and the ADA of your 41 smallest coins: one deposit spends at most 100 coins.',
  );
  await shoot(page, 'deposit-many-coins-max');
  await deposit.getByRole('button', { name: 'Review deposit' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(/matches what you asked/i);
  const spent = dialog.getByRole('region', { name: 'What is spent' });
  // A hundred coins, the faucet's and the 99 largest: five listed, the rest folded, and their
  // total.
  await expect(spent.getByRole('row')).toHaveCount(8);
  await expect(spent).toContainText('95 more coins of your wallet');
  const inAll = spent.getByRole('row', { name: /100 coins in all/ });
  await expect(inAll).toContainText('10,695 ADA');
  await expect(inAll).toContainText('10,000 USDM');
  await shoot(page, 'deposit-many-coins-confirm');
  await spent.getByRole('button', { name: 'Show all 100 coins' }).click();
  // All hundred, and the line that folds them again.
  await expect(spent.getByRole('row')).toHaveCount(103);
  await expect(spent.getByRole('button', { name: 'Show fewer coins' })).toBeVisible();
  await inAll.scrollIntoViewIfNeeded();
  await shoot(page, 'deposit-many-coins-total');
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign and deposit' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(exchangeAda(page)).toHaveText('10,693.1', { timeout: 60_000 });
  // The 41 coins left behind and the change.
  await expect(page.getByText('42 coins (UTxOs) at this address.')).toBeVisible();
});
