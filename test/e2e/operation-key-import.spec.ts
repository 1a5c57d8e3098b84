import * as Crypto from '@cardano-sdk/crypto';
import type { Locator } from '@playwright/test';
import { bech32 } from '@scure/base';
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { json, startFakeServer, type FakeServer } from '../fixtures/exchange/fake-server';
import { expect, test } from './fixtures';
import { PASSWORD, createWalletFromUi, goTo, shoot, unlockFromStatusBar } from './wallet-steps';

const TRADING_PASSWORD = 'the exchange gave me this one';
/** An API key as the exchange's website shows it. */
const API_KEY = '0123456789abcdef0123456789abcdef';

/** A new operation key as the exchange makes it: a root key, and the hash of its m/1852'/1815'/0'/0/0. */
const newExchangeKey = async (): Promise<{ xprv: string; keyHash: string }> => {
  await Crypto.ready();
  const root = Crypto.Bip32PrivateKey.fromBip39Entropy(randomBytes(32), '');
  const child = root.derive([1852 + 0x80000000, 1815 + 0x80000000, 0x80000000, 0, 0]);
  return {
    xprv: bech32.encode('xprv', bech32.toWords(root.bytes()), 1023),
    keyHash: child.toRawKey().toPublic().hash().hex(),
  };
};

/** Encrypted as the real service stores it: PBKDF2-SHA256 (100000), AES-256-GCM, tag at the end. */
const encryptLikeTheExchange = (xprv: string, password: string): string => {
  const iv = randomBytes(12);
  const salt = randomBytes(16);
  const key = pbkdf2Sync(password, salt, 100_000, 32, 'sha256');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(xprv, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({
    iv: iv.toString('base64'),
    salt: salt.toString('base64'),
    ciphertext: data.toString('base64'),
  });
};

/**
 * A small stand-in for the real exchange: its public market data (so the app sees it answer), the
 * account's balances and orders (what the screens poll), and its operation key, or the 4406 of
 * an account that has none.
 */
const fakeExchange = async (
  operationKey: () => { encrypted: string; keyHash: string } | null,
): Promise<FakeServer> =>
  startFakeServer((request, response) => {
    // The market the Trade screen watches: a price, an empty book, no trades yet.
    if (request.path === '/market/market-price') return json(response, 200, { price: 0.65 });
    if (request.path === '/market/depth') {
      return json(response, 200, { timestamp: Date.now(), bids: [], asks: [] });
    }
    if (request.path === '/market/recent-trades' || request.path.startsWith('/market/graph/')) {
      return json(response, 200, []);
    }
    if (request.path.startsWith('/accounts/') && request.headers['x-api-key'] !== API_KEY) {
      return json(response, 401, { error: 'invalid api key', code: 4010 });
    }
    if (request.path === '/accounts/balance') {
      return json(response, 200, [{ asset: 'ada', asset_unit: '', free: 0, locked: 0 }]);
    }
    if (request.path === '/accounts/order-records') {
      return json(response, 200, {
        data: [{ orders: [], order_filling_records: [] }],
        total_count: 0,
        total_page: 0,
      });
    }
    if (request.path === '/accounts/operation-key') {
      const key = operationKey();
      return key
        ? json(response, 200, {
            encrypted_operation_key: key.encrypted,
            operation_key_hash: key.keyHash,
          })
        : json(response, 400, { error: 'account has no operation key', code: 4406 });
    }
    return json(response, 404, { error: 'not found', code: 4040 });
  });

const importKey = async (section: Locator, tradingPassword: string): Promise<void> => {
  await section.getByLabel('Trading password (from the exchange)').fill(tradingPassword);
  await section.getByLabel('Spending password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Import trading key' }).click();
};

test('the operation key is imported from the exchange with the trading password; a wrong password and an account without a key say what to do', async ({
  page,
  harness,
}) => {
  test.setTimeout(150_000);
  const exchangeKey = await newExchangeKey();
  let stored: { encrypted: string; keyHash: string } | null = null;
  const exchange = await fakeExchange(() => stored);
  try {
    await page.goto(harness.url);
    await createWalletFromUi(page);
    await page.getByRole('button', { name: 'Go to Trade' }).click();
    const before = (await harness.services.handlers.wallet.list(undefined)).wallets[0];
    if (!before) throw new Error('no wallet');

    // The exchange's own deployment, at its address (a loopback one here).
    await goTo(page, 'Settings');
    const network = page.getByRole('region', { name: 'Network' });
    await network.getByRole('radio', { name: /^Custom/ }).check();
    await network.getByLabel('Exchange address').fill(exchange.url);
    await network.getByRole('button', { name: 'Switch to Custom' }).click();
    const status = page.getByRole('contentinfo', { name: 'Status' });
    await expect(status).toContainText('Custom', { timeout: 15_000 });
    await unlockFromStatusBar(page);

    const apiKey = page.getByRole('region', { name: 'API key' });
    await apiKey.getByLabel('API key').fill(API_KEY);
    await apiKey.getByLabel('Spending password').fill(PASSWORD);
    await apiKey.getByRole('button', { name: 'Save API key' }).click();
    await expect(apiKey).toContainText('Saved: ••••cdef', { timeout: 15_000 });
    // It answers (no stream address was given, so updates come by polling).
    await expect(status).toContainText('Exchange: Delayed (polling)', { timeout: 30_000 });

    const section = page.getByRole('region', { name: 'Trading key' });
    // The account has no operation key at the exchange yet (4406).
    await importKey(section, TRADING_PASSWORD);
    await expect(section.getByRole('alert')).toContainText('This account has no operation key', {
      timeout: 15_000,
    });
    await expect(section.getByRole('alert')).toContainText(
      "Create the account's operation (trading) key on the exchange's website, then import it",
    );
    await shoot(page, 'operation-key-none');

    // The trader made it on the website; a mistyped trading password opens nothing.
    stored = {
      encrypted: encryptLikeTheExchange(exchangeKey.xprv, TRADING_PASSWORD),
      keyHash: exchangeKey.keyHash,
    };
    await importKey(section, 'not the trading password');
    await expect(section.getByRole('alert')).toContainText(
      'That trading password does not open the operation key stored at the exchange. Check it and try again.',
      { timeout: 15_000 },
    );
    await shoot(page, 'operation-key-wrong-password');
    expect((await harness.services.handlers.wallet.list(undefined)).wallets[0]).toMatchObject({
      operationKeyHash: before.operationKeyHash,
    });

    await importKey(section, TRADING_PASSWORD);
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      'Trading key imported',
      { timeout: 15_000 },
    );
    // The session that held the old key is closed, and the toast says to unlock again.
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      'Unlock again to trade with it.',
    );
    await expect(status).toContainText('Locked');
    // Sealed with the spending password: unlocking opens the imported key.
    await unlockFromStatusBar(page);
    await expect(status).toContainText('Unlocked');
    await expect(section.getByRole('alert')).toHaveCount(0);
    await shoot(page, 'operation-key-imported');
    // The wallet now trades with the exchange's key: the one whose hash the exchange states.
    expect((await harness.services.handlers.wallet.list(undefined)).wallets[0]).toMatchObject({
      operationKeyHash: exchangeKey.keyHash,
    });
    // Each import asked the exchange with the account's API key, and nothing else was sent.
    const asked = exchange.hits('/accounts/operation-key');
    expect(asked).toHaveLength(3);
    expect(asked.every((r) => r.method === 'GET' && r.headers['x-api-key'] === API_KEY)).toBe(true);
    expect(exchange.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  } finally {
    await exchange.close();
  }
});
