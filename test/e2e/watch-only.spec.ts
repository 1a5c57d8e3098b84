import type { Page } from '@playwright/test';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  rootKeyFromEntropy,
} from '../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../src-main/wallet/mnemonic';
import { ErrorCode } from '../../src-shared/errors';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import {
  PASSWORD,
  restoreWalletFromUi,
  shoot,
  VECTOR_ADDRESS,
  VECTOR_PHRASE,
} from './wallet-steps';

/** What a hardware or air-gapped wallet exports for the test-vector phrase. */
const vectorAccountKey = async (): Promise<string> => {
  await cryptoIsReady();
  return accountPublicKeyToBech32(
    accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR_PHRASE.split(' ')))).toPublic(),
  );
};

const addWatchOnlyFromUi = async (page: Page, name: string, accountKey: string) => {
  await page.getByRole('button', { name: /Add a watch-only wallet/ }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Add a watch-only wallet' }),
  ).toBeVisible();
  await shoot(page, 'watch-only-onboarding');
  await page.getByLabel('Wallet name').fill(name);
  await page.getByLabel('Account public key').fill(accountKey);
  await page.getByLabel('Spending password').fill(PASSWORD);
  await page.getByLabel('Type it again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add wallet' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${name} is ready` })).toBeVisible({
    timeout: 45_000,
  });
};

test('a watch-only wallet is told on the Funds screen why it cannot move funds and what to do; restored from its phrase, it can', async ({
  page,
  harness,
}) => {
  test.setTimeout(150_000);
  await page.goto(harness.url);
  await addWatchOnlyFromUi(page, 'Cold', await vectorAccountKey());
  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Funds' })).toBeVisible();

  const why = page.getByRole('note', { name: 'Why this wallet cannot move funds here' });
  await expect(why).toContainText('Cold is watch-only: its wallet key is not on this computer.');
  await expect(why).toContainText('not available in this version');
  await expect(why).toContainText('restore the wallet from its recovery phrase');
  // Its coins still show, at the wallet's own address; nothing offers to move them.
  await expect(page.getByRole('table', { name: 'Wallet balance' })).toContainText('ADA');
  await expect(page.getByText(VECTOR_ADDRESS)).toBeVisible();
  await expect(page.getByRole('form', { name: 'Deposit' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Withdraw' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /deposit|withdraw/i })).toHaveCount(0);
  await shoot(page, 'funds-watch-only');
  expect(await seriousViolations(page, 'watch-only funds')).toEqual([]);

  // Main says the same to anything that asks anyway, before the exchange builds anything.
  const refused = await harness.services.dispatch('funds:prepareDeposit', {
    amounts: [{ unit: 'lovelace', amount: '10' }],
  });
  expect(refused.ok ? null : refused.error.code).toBe(ErrorCode.WatchOnly);

  // What the note says to do: remove the watch-only copy, then restore it from its phrase.
  await why.getByRole('button', { name: 'Open wallet settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeAttached();
  // Straight to the wallets, below the network and exchange panels.
  await expect(page.getByRole('region', { name: 'Wallets' })).toBeInViewport();
  const cold = page
    .getByRole('list', { name: 'Your wallets' })
    .getByRole('listitem', { name: 'Cold' });
  await cold.getByRole('button', { name: 'Remove Cold' }).click();
  await cold.getByLabel('Type “Cold” to confirm').fill('Cold');
  await cold.getByLabel('Spending password').fill(PASSWORD);
  await shoot(page, 'settings-remove-watch-only');
  await cold.getByRole('button', { name: 'Remove Cold from this computer' }).click();
  // It was the only wallet: the app opens on the welcome screen again.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Countersign' })).toBeVisible(
    { timeout: 15_000 },
  );

  await restoreWalletFromUi(page, { name: 'Hot', words: VECTOR_PHRASE });
  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Funds' })).toBeVisible();
  await expect(page.getByText(VECTOR_ADDRESS)).toBeVisible();
  await expect(
    page.getByRole('note', { name: 'Why this wallet cannot move funds here' }),
  ).toHaveCount(0);
  await expect(
    page.getByRole('form', { name: 'Deposit' }).getByRole('button', { name: 'Review deposit' }),
  ).toBeVisible();
  await shoot(page, 'funds-restored-from-watch-only');
});
