import type { Locator, Page } from '@playwright/test';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  rootKeyFromEntropy,
} from '../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../src-main/wallet/mnemonic';
import { expect } from './fixtures';

/** The spending password every e2e wallet uses: strong enough for the meter to accept it. */
export const PASSWORD = 'correct horse battery staple';

export type Theme = 'light' | 'dark';

/** Saves the page in both themes under test-results/screens (kept out of git). */
export const shoot = async (page: Page, name: string): Promise<void> => {
  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.screenshot({ path: `test-results/screens/${name}-${theme}.png` });
  }
  await page.evaluate(
    (t) =>
      t === null
        ? document.documentElement.removeAttribute('data-theme')
        : document.documentElement.setAttribute('data-theme', t),
    before,
  );
};

/**
 * Creates a wallet from the UI alone, the way a new user does on the sandbox: a name, a password,
 * the phrase written down, three of its words typed back. Returns the phrase once "ready" shows.
 */
export const createWalletFromUi = async (
  page: Page,
  options: { name?: string; screenshots?: boolean } = {},
): Promise<string[]> => {
  const snap = async (name: string) => {
    if (options.screenshots) await shoot(page, name);
  };
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome to Countersign' }),
  ).toBeVisible();
  await snap('onboarding-welcome');
  await page.getByRole('button', { name: /Create a new wallet/ }).click();
  await page.getByLabel('Wallet name').fill(options.name ?? 'Main');
  await page.getByLabel('Spending password').fill(PASSWORD);
  await page.getByLabel('Type it again').fill(PASSWORD);
  await snap('onboarding-create');
  await page.getByRole('button', { name: 'Create wallet' }).click();

  // Making the keys takes a few seconds of scrypt, more on a busy machine.
  const words = page.getByRole('list', { name: 'Recovery phrase' }).locator('.word');
  await expect(words).toHaveCount(24, { timeout: 30_000 });
  const phrase = await words.allTextContents();
  await snap('onboarding-phrase');
  await page.getByLabel(/I have written down all 24 words/).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Check your copy' })).toBeVisible({
    timeout: 15_000,
  });
  const fields = page.getByLabel(/^Word \d+$/);
  const count = await fields.count();
  for (let i = 0; i < count; i += 1) {
    const field = fields.nth(i);
    const label = await page
      .locator(`label[for="${await field.getAttribute('id')}"]`)
      .textContent();
    const position = Number(/\d+/.exec(label ?? '')?.[0]);
    await field.fill(phrase[position - 1] ?? '');
  }
  await snap('onboarding-check');
  await page.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /is ready/ })).toBeVisible({
    timeout: 45_000,
  });
  return phrase;
};

/** The published CIP-1852 test vector: its phrase and its base address on the test networks. */
import { VECTOR_PHRASE } from '../fixtures/cardano/wallet-services';

export { VECTOR_PHRASE };
export const VECTOR_ADDRESS =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';

/**
 * Restores a wallet from its recovery phrase from the UI, from the welcome (or "Add a wallet")
 * screen. Returns once "ready" shows: on the sandbox it is joined and unlocked by then.
 */
export const restoreWalletFromUi = async (
  page: Page,
  options: { name: string; words: string | readonly string[] },
): Promise<void> => {
  await page.getByRole('button', { name: /Restore a wallet/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Restore a wallet' })).toBeVisible();
  await page.getByLabel('Wallet name').fill(options.name);
  const words = typeof options.words === 'string' ? options.words : options.words.join(' ');
  await page.getByLabel('Recovery phrase').fill(words);
  await page.getByLabel('Spending password').fill(PASSWORD);
  await page.getByLabel('Type it again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Restore wallet' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `${options.name} is ready` }),
  ).toBeVisible({
    timeout: 45_000,
  });
};

/**
 * The offline computer: restores the test-vector wallet (the key a watch-only wallet watches) as
 * "Cold" and shows Settings › Sign a transaction file, whose region it returns.
 */
export const openOfflineSigning = async (page: Page): Promise<Locator> => {
  await restoreWalletFromUi(page, { name: 'Cold', words: VECTOR_PHRASE });
  await page.getByRole('button', { name: 'See your funds' }).click();
  await goTo(page, 'Settings');
  const signing = page.getByRole('region', { name: 'Sign a transaction file' });
  await signing.scrollIntoViewIfNeeded();
  return signing;
};

export type Section = 'Trade' | 'Orders' | 'Funds' | 'Settings';

/** Goes to a section from the navigation rail. */
export const goTo = (page: Page, section: Section): Promise<void> =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: section }).click();

/** Types the spending password into the open unlock dialog and waits for it to close. */
export const unlockInDialog = async (page: Page): Promise<void> => {
  const dialog = page.getByRole('dialog', { name: /Unlock/ });
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
};

/** Unlocks the trading session from the status bar. */
export const unlockFromStatusBar = async (page: Page): Promise<void> => {
  await page
    .getByRole('contentinfo', { name: 'Status' })
    .getByRole('button', { name: 'Unlock' })
    .click();
  await unlockInDialog(page);
};

/** The free ADA on the exchange, as the Funds screen's balances table shows it. */
export const exchangeAda = (page: Page): Locator =>
  page
    .getByRole('table', { name: 'Exchange balances' })
    .getByRole('row', { name: /^ADA/ })
    .getByRole('cell')
    .first();

/** Adds a watch-only wallet from onboarding's "Add a watch-only wallet", until it is ready. */
export const addWatchOnlyFromUi = async (
  page: Page,
  name: string,
  accountKey: string,
  options: { screenshots?: boolean } = {},
): Promise<void> => {
  await page.getByRole('button', { name: /Add a watch-only wallet/ }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Add a watch-only wallet' }),
  ).toBeVisible();
  if (options.screenshots) await shoot(page, 'watch-only-onboarding');
  await page.getByLabel('Wallet name').fill(name);
  await page.getByLabel('Account public key').fill(accountKey);
  await page.getByLabel('Spending password').fill(PASSWORD);
  await page.getByLabel('Type it again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add wallet' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${name} is ready` })).toBeVisible({
    timeout: 45_000,
  });
};

/**
 * The test-vector wallet's account public key (bech32), as a hardware or air-gapped device that
 * holds its phrase exports it for a watch-only copy.
 */
export const vectorAccountKey = async (): Promise<string> => {
  await cryptoIsReady();
  const account = accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR_PHRASE.split(' '))));
  return accountPublicKeyToBech32(account.toPublic());
};
