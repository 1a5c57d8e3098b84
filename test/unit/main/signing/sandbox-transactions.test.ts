import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import { Money } from '../../../../src-shared/money';
import { startSandbox, type RunningSandbox } from '../../../../src-sandbox/index';
import {
  encryptedFixtureOperationKey,
  makeParties,
  termsOf,
} from '../../../fixtures/cardano/exchange-transactions';
import { SandboxTrader, USDM_UNIT } from '../../../fixtures/cardano/sandbox-session';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../fixtures/cardano/wallet-services';
import { tempDir } from '../../sandbox/helpers';

/**
 * The app's signer and a running sandbox meet only at the wire: every transaction is built by the
 * sandbox over HTTP in the published layout, checked and signed by the app's `TransactionSigner`
 * with the intent the app's services would pass, and accepted by the sandbox's submit checks.
 */
let sandbox: RunningSandbox;
let world: WalletWorld;
let trader: SandboxTrader;
const ADA = 1_000_000n;

beforeAll(async () => {
  sandbox = await startSandbox({
    dataDir: tempDir(),
    port: 0,
    marketMaker: false,
    confirmationDelayMs: 0,
    withdrawalDelayMs: 0,
    rateLimit: false,
  });
  world = await walletWorld();
  const wallet = await world.wallet.restore({
    name: 'Main',
    words: VECTOR_PHRASE,
    password: STRONG_PASSWORD,
  });
  // The exchange's copy of the operation key, imported as a trader of the real service would.
  const p = makeParties();
  await world.wallet.importExchangeOperationKey({
    walletId: wallet.id,
    encryptedOperationKey: encryptedFixtureOperationKey('trading password'),
    operationKeyHash: p.operationKey.keyHash,
    tradingPassword: 'trading password',
    spendingPassword: STRONG_PASSWORD,
  });
  await world.session.unlock(STRONG_PASSWORD);
  trader = await new SandboxTrader(
    sandbox.url,
    p.user.baseAddress,
    p.operationKey.keyHash,
    sandbox.adminToken,
  ).join();
  const coins = await trader.faucet(2000n * ADA, 1000n * ADA);
  const d = await trader.buildDeposit(
    new Map([
      ['lovelace', 1500n * ADA],
      [USDM_UNIT, 800n * ADA],
    ]),
    [coins],
  );
  const signed = await world.signer.signFunds(d.txHex, d.intent, trader.profile, STRONG_PASSWORD);
  expect((await trader.submitFunds('deposit', signed.signedTxHex)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await trader?.close();
  await sandbox?.close();
  await world?.cleanup();
});

describe('sandbox-built transactions, signed by the app', () => {
  it('a sell and a buy: their terms read from the datum, signed, accepted', async () => {
    for (const order of [
      { side: 'sell' as const, quantity: '100', price: '0.9' },
      { side: 'buy' as const, quantity: '200', price: '0.45' },
    ]) {
      const built = await trader.buildLimitOrder(order);
      const review = await world.signer.review(built.txHex, built.intent, trader.profile);
      expect(review.report).toEqual({ differences: [], warnings: [] });
      const signed = await world.signer.signTrade(built.txHex, built.intent, trader.profile);
      const submitted = await trader.submitOrder(built.orderId, signed.signedTxHex);
      expect(submitted.status).toBe(200);
      expect(submitted.body.order.status).toBe('open');
    }
  });

  it('refuses an order build whose terms differ from what the trader typed', async () => {
    const built = await trader.buildLimitOrder({ side: 'sell', quantity: '100', price: '0.9' });
    const typed = {
      ...built.intent,
      terms: { ...termsOf(built.intent), price: new Money('0.91') },
    };
    await expect(world.signer.signTrade(built.txHex, typed, trader.profile)).rejects.toMatchObject({
      code: ErrorCode.IntentMismatch,
      message: expect.stringMatching(/The order’s price is 0\.9 USDM instead of 0\.91 USDM/),
    });
    const otherId = {
      ...built.intent,
      terms: { ...termsOf(built.intent), orderId: '00000000-0000-4000-8000-000000000000' },
    };
    await expect(world.signer.signTrade(built.txHex, otherId, trader.profile)).rejects.toThrow(
      /names order .*, not 00000000-0000-4000-8000-000000000000, the one the exchange answered/,
    );
  });

  it('a cancel of the order it names: signed, accepted', async () => {
    const built = await trader.buildLimitOrder({ side: 'sell', quantity: '50', price: '0.95' });
    const signed = await world.signer.signTrade(built.txHex, built.intent, trader.profile);
    const placed = await trader.submitOrder(built.orderId, signed.signedTxHex);
    const cancel = await trader.buildCancel(placed.body.order);
    const review = await world.signer.review(cancel.txHex, cancel.intent, trader.profile);
    expect(review.report).toEqual({ differences: [], warnings: [] });
    const signedCancel = await world.signer.signTrade(cancel.txHex, cancel.intent, trader.profile);
    expect((await trader.submitCancel(signedCancel.signedTxHex)).status).toBe(200);
  });

  it('the sandbox’s L1 says whose a coin is: the wallet’s coins by address and content, others unknown', async () => {
    const [coin] = await trader.utxos();
    if (!coin) throw new Error('the wallet has no coin left after its deposit');
    const ref = `${coin.input.tx_hash}#${coin.input.output_index}`;
    const unknown = `${'e'.repeat(64)}#0`;
    const answer = await trader.chain().resolve([ref, unknown]);
    expect(answer).toEqual(
      new Map([
        [
          ref,
          {
            address: trader.baseAddress,
            amounts: new Map(coin.output.amount.map((a) => [a.unit, BigInt(a.quantity)])),
          },
        ],
        [unknown, null],
      ]),
    );
  });

  it('a withdrawal: signed with the wallet key, accepted', async () => {
    const utxos = new Set(
      (await trader.utxos()).map((u) => `${u.input.tx_hash}#${u.input.output_index}`),
    );
    const w = await trader.buildWithdrawal(new Map([['lovelace', 20n * ADA]]), utxos);
    const signed = await world.signer.signFunds(
      w.txHex,
      w.intent,
      trader.profile,
      STRONG_PASSWORD,
      {
        coins: trader.chain(),
      },
    );
    expect((await trader.submitFunds('withdrawal', signed.signedTxHex)).status).toBe(200);
    // What the confirmation showed for the request: the exchange's token marking it, by name.
    const request = signed.decoded.outputs.find((o) => o.party === 'exchange-intent');
    expect(request?.display.filter((d) => d.unit !== 'lovelace')).toEqual([
      expect.objectContaining({ name: 'request token', amount: '1' }),
    ]);
  });
});
