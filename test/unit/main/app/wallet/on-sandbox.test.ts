import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../../src-sandbox/index';
import { ErrorCode } from '../../../../../src-shared/errors';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';
import { MemorySecretStore } from '../../../../../src-main/wallet';

const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';
const TESTNET_VECTOR =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let sandboxDir: string;
let world: WalletWorld | null = null;

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'cs-join-'));
  sandbox = await startSandbox({ dataDir: sandboxDir, marketMaker: false, takers: false });
});
afterAll(async () => {
  await sandbox.close();
  await rm(sandboxDir, { recursive: true, force: true });
});
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

const sandboxWorld = async () =>
  walletWorld('sandbox', new MemorySecretStore(), undefined, sandbox.url, sandbox.adminToken);

const restoreMain = (w: WalletWorld) =>
  w.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code?: string }) => error.code ?? 'no code',
  );

describe('joining the embedded sandbox', () => {
  it('registers the wallet address and its operation key hash, and keeps the API key sealed', async () => {
    world = await sandboxWorld();
    const wallet = await restoreMain(world);
    expect(wallet.apiKey).toBeNull();
    expect(wallet.exchangeAccountId).toBeNull();

    const joined = await world.wallet.joinExchange({
      walletId: wallet.id,
      password: STRONG_PASSWORD,
    });
    expect(joined.apiKey).toMatch(/^•+[0-9a-f]{4}$/);
    expect(joined.exchangeAccountId).toMatch(/^[0-9a-f-]{36}$/);

    // The exchange knows this wallet by its address and will accept only its operation key.
    const account = (await (
      await fetch(`${sandbox.url}/sandbox/accounts/${joined.exchangeAccountId}`, {
        headers: { 'x-sandbox-token': sandbox.adminToken },
      })
    ).json()) as { address: string; operation_key_hash: string };
    expect(account.address).toBe(TESTNET_VECTOR);
    expect(account.operation_key_hash).toBe(wallet.operationKeyHash);

    // Unlocking gives the session the API key, which opens the account's balance.
    await world.session.unlock(STRONG_PASSWORD);
    const apiKey = world.session.apiKey();
    expect(apiKey).toMatch(/^[0-9a-f]{32}$/);
    const balance = await fetch(`${sandbox.url}/accounts/balance`, {
      headers: { 'x-api-key': apiKey ?? '' },
    });
    expect(balance.status).toBe(200);
    // The full key never shows in what the renderer receives.
    expect(JSON.stringify(joined)).not.toContain(apiKey);
  });

  it('refuses a wrong password before anything leaves the computer, and counts it', async () => {
    world = await sandboxWorld();
    const wallet = await restoreMain(world);
    for (let i = 0; i < 5; i++) {
      expect(
        await codeOf(world.wallet.joinExchange({ walletId: wallet.id, password: 'nope' })),
      ).toBe(ErrorCode.WrongPassword);
    }
    // The sixth try is held back by the same throttle as unlocking, even with the right password.
    expect(
      await codeOf(world.wallet.joinExchange({ walletId: wallet.id, password: STRONG_PASSWORD })),
    ).toBe(ErrorCode.TooManyAttempts);
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
    expect((await world.wallet.list()).wallets[0]?.exchangeAccountId).toBeNull();
  });

  it('the API key path shares the wrong-password throttle', async () => {
    world = await sandboxWorld();
    const wallet = await restoreMain(world);
    const apiKey = '0123456789abcdef0123456789abcdef';
    for (let i = 0; i < 5; i++) {
      expect(
        await codeOf(world.wallet.setApiKey({ walletId: wallet.id, apiKey, password: 'wrong' })),
      ).toBe(ErrorCode.WrongPassword);
    }
    expect(
      await codeOf(
        world.wallet.setApiKey({ walletId: wallet.id, apiKey, password: STRONG_PASSWORD }),
      ),
    ).toBe(ErrorCode.TooManyAttempts);
  });

  it('says what to do on a network that has no embedded sandbox', async () => {
    world = await walletWorld('staging');
    const wallet = await restoreMain(world);
    await expect(
      world.wallet.joinExchange({ walletId: wallet.id, password: STRONG_PASSWORD }),
    ).rejects.toThrow(/create an API key on the exchange/);
  });

  it('reports an unreachable sandbox in words and saves nothing', async () => {
    world = await walletWorld('sandbox', new MemorySecretStore(), undefined, 'http://127.0.0.1:1');
    const wallet = await restoreMain(world);
    await expect(
      world.wallet.joinExchange({ walletId: wallet.id, password: STRONG_PASSWORD }),
    ).rejects.toMatchObject({
      code: ErrorCode.Network,
      message: expect.stringMatching(/could not reach the built-in practice exchange/),
    });
    expect((await world.wallet.list()).wallets[0]?.apiKey).toBeNull();
  });
});

describe("a wallet's coins on L1", () => {
  // A ledger of its own for each test, so what the faucet paid is all there is.
  let ledger: Awaited<ReturnType<typeof startSandbox>>;
  let ledgerDir: string;
  beforeEach(async () => {
    ledgerDir = await mkdtemp(join(tmpdir(), 'cs-coins-'));
    ledger = await startSandbox({ dataDir: ledgerDir, marketMaker: false, takers: false });
    world = await walletWorld(
      'sandbox',
      new MemorySecretStore(),
      undefined,
      ledger.url,
      ledger.adminToken,
    );
  });
  afterEach(async () => {
    await ledger.close();
    await rm(ledgerDir, { recursive: true, force: true });
  });

  const faucet = async (address: string) => {
    const response = await fetch(`${ledger.url}/sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': ledger.adminToken },
      body: JSON.stringify({
        address,
        amount: [
          { unit: 'lovelace', quantity: '1250500000' },
          { unit: USDM, quantity: '70000001' },
        ],
      }),
    });
    expect(response.status).toBe(200);
  };

  it('shows what the wallet holds, exactly, in both units, ADA first', async () => {
    if (!world) throw new Error('no world');
    await restoreMain(world);
    expect((await world.wallet.balance({})).assets).toEqual([
      { unit: 'lovelace', name: 'ADA', quantity: '0', amount: '0' },
    ]);
    await faucet(TESTNET_VECTOR);
    await faucet(TESTNET_VECTOR);
    const balance = await world.wallet.balance({});
    expect(balance).toMatchObject({
      address: TESTNET_VECTOR,
      network: 'sandbox',
      utxoCount: 2,
      // Both coins fit one transaction, with or without their USDM.
      oneTransaction: {
        coins: 2,
        lovelace: '2501000000',
        withToken: { [USDM]: { coins: 2, lovelace: '2501000000' } },
      },
    });
    expect(balance.assets).toEqual([
      { unit: 'lovelace', name: 'ADA', quantity: '2501000000', amount: '2501' },
      { unit: USDM, name: 'USDM', quantity: '140000002', amount: '140.000002' },
    ]);
  });

  it('a watch-only wallet sees the same coins without any key', async () => {
    if (!world) throw new Error('no world');
    const full = await restoreMain(world);
    const { accountPublicKey } = await world.wallet.addresses({ walletId: full.id });
    await world.wallet.remove({
      walletId: full.id,
      confirmName: 'Main',
      password: STRONG_PASSWORD,
    });
    const cold = await world.wallet.importWatchOnly({
      name: 'Cold',
      accountPublicKey,
      password: STRONG_PASSWORD,
    });
    await faucet(TESTNET_VECTOR);
    const balance = await world.wallet.balance({ walletId: cold.id });
    expect(balance.address).toBe(TESTNET_VECTOR);
    expect(balance.assets.map((a) => [a.name, a.amount])).toEqual([
      ['ADA', '1250.5'],
      ['USDM', '70.000001'],
    ]);
  });
});

describe('a network without a chain provider', () => {
  it('says so plainly instead of showing zero', async () => {
    world = await walletWorld('production');
    await restoreMain(world);
    await expect(world.wallet.balance({})).rejects.toMatchObject({
      code: ErrorCode.Network,
      message: expect.stringMatching(/no chain provider/),
    });
  });
});
