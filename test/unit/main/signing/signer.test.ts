import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../../../src-shared/errors';
import {
  splitTransaction,
  TransactionSigner,
  type SignedTransaction,
} from '../../../../src-main/signing';
import { SigningKey, UnlockAttempts, WalletBook } from '../../../../src-main/wallet';
import { encodePlutusData, withdrawalIntent } from '../../../../src-sandbox/intent-layout';
import {
  ADA,
  buyOrder,
  cancelOrder,
  chainOf,
  deposit,
  INTENT_TOKEN,
  makeParties,
  mutate,
  nonCanonical,
  onRealNetwork,
  out,
  realProfile,
  sellOrder,
  txHash,
  txIn,
  USDM,
  withdrawal,
  type Honest,
  type Parties,
  walletVote,
} from '../../../fixtures/cardano/exchange-transactions';
import { verifyEd25519 } from '../../../fixtures/cardano/verify-ed25519';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../fixtures/cardano/wallet-services';

let world: WalletWorld;
let p: Parties;
beforeEach(async () => {
  world = await walletWorld();
  const wallet = await world.wallet.restore({
    name: 'Main',
    words: VECTOR_PHRASE,
    password: STRONG_PASSWORD,
  });
  p = makeParties(wallet.operationKeyHash);
  await world.session.unlock(STRONG_PASSWORD);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await world.cleanup();
});

const expectSignedBy = (signed: SignedTransaction, original: string, keyHash: string): void => {
  const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(signed.signedTxHex));
  const before = Serialization.Transaction.fromCbor(Serialization.TxCBOR(original));
  expect(tx.getId()).toBe(before.getId());
  expect(signed.txId).toBe(before.getId());
  const [w] = tx.witnessSet().vkeys()?.values() ?? [];
  const vkey = Buffer.from(w?.vkey() ?? '', 'hex');
  expect(Crypto.blake2b.hash(w?.vkey() ?? ('' as never), 28)).toBe(keyHash);
  expect(
    verifyEd25519(vkey, Buffer.from(signed.txId, 'hex'), Buffer.from(w?.signature() ?? '', 'hex')),
  ).toBe(true);
};

/** The inline datum of one output replaced by other Plutus data (CBOR). */
const withDatum = (txHex: string, index: number, datum: Uint8Array): string =>
  mutate(txHex, (body) => {
    const o = body.outputs[index] as Cardano.TxOut;
    o.datum = Serialization.PlutusData.fromCbor(
      HexBlob(Buffer.from(datum).toString('hex')),
    ).toCore();
  });

describe('signing what the trader asked for', () => {
  it('signs a sell, a buy and a cancel with the session’s operation key', async () => {
    for (const { txHex, intent } of [sellOrder(p), buyOrder(p), cancelOrder(p)]) {
      const signed = await world.signer.signTrade(txHex, intent, p.profile);
      expectSignedBy(signed, txHex, p.profile.operationKeyHash);
      expect(signed.warnings).toEqual([]);
    }
  });

  it('signs a non-canonical order without changing its id', async () => {
    const { txHex: canonical, intent } = sellOrder(p);
    const hex = nonCanonical(canonical);
    const signed = await world.signer.signTrade(hex, intent, p.profile);
    expectSignedBy(signed, hex, p.profile.operationKeyHash);
    const { head, body } = splitTransaction(hex);
    expect(signed.signedTxHex.startsWith(Buffer.concat([head, body]).toString('hex'))).toBe(true);
  });

  it('signs a deposit and a withdrawal with the wallet key, opened for that signature only', async () => {
    const openPaymentKey = vi.spyOn(world.secrets, 'openPaymentKey');
    const wipe = vi.spyOn(SigningKey.prototype, 'wipe');
    const d = deposit(p);
    expectSignedBy(
      await world.signer.signFunds(d.txHex, d.intent, p.profile, STRONG_PASSWORD),
      d.txHex,
      p.user.paymentKeyHash,
    );
    const w = withdrawal(p);
    expectSignedBy(
      await world.signer.signFunds(w.txHex, w.intent, p.profile, STRONG_PASSWORD, {
        coins: chainOf(p),
      }),
      w.txHex,
      p.user.paymentKeyHash,
    );
    expect(openPaymentKey).toHaveBeenCalledTimes(2);
    expect(wipe).toHaveBeenCalledTimes(2);
    expect(world.session.isUnlocked).toBe(true);
  });

  it('refuses a trade while locked, and funds with a wrong password (counted)', async () => {
    await world.session.lock('user');
    const order = sellOrder(p);
    await expect(
      world.signer.signTrade(order.txHex, order.intent, p.profile),
    ).rejects.toMatchObject({
      code: ErrorCode.Locked,
    });
    const d = deposit(p);
    await expect(
      world.signer.signFunds(d.txHex, d.intent, p.profile, 'wrong one!'),
    ).rejects.toMatchObject({ code: ErrorCode.WrongPassword });
    expect((await world.session.status()).nextUnlockAttemptAt).toBeNull();
  });

  it('refuses funds for a watch-only wallet: offline signing instead', async () => {
    const { accountPublicKey } = await world.wallet.addresses({});
    const watch = await walletWorld();
    const summary = await watch.wallet.importWatchOnly({
      name: 'Cold',
      accountPublicKey,
      password: STRONG_PASSWORD,
    });
    const q = makeParties(summary.operationKeyHash);
    const d = deposit(q);
    await expect(
      watch.signer.signFunds(d.txHex, d.intent, q.profile, STRONG_PASSWORD),
    ).rejects.toMatchObject({ code: ErrorCode.WatchOnly });
    await watch.session.unlock(STRONG_PASSWORD);
    const order = sellOrder(q);
    expectSignedBy(
      await watch.signer.signTrade(order.txHex, order.intent, q.profile),
      order.txHex,
      summary.operationKeyHash,
    );
    await watch.cleanup();
  });

  it('replaces a bad existing signature of the trading key instead of passing it off as signed', async () => {
    const { txHex, intent } = sellOrder(p);
    const forged = mutate(txHex, (_body, tx) => {
      tx.witness.signatures = new Map([
        [
          Crypto.Ed25519PublicKeyHex(
            world.session.withOperationKey((k) => k.publicKey.toString('hex')),
          ),
          Crypto.Ed25519SignatureHex('00'.repeat(64)),
        ],
      ]);
    });
    const signed = await world.signer.signTrade(forged, intent, p.profile);
    expectSignedBy(signed, forged, p.profile.operationKeyHash);
    const vkeys = Serialization.Transaction.fromCbor(Serialization.TxCBOR(signed.signedTxHex))
      .witnessSet()
      .vkeys()
      ?.values();
    expect(vkeys).toHaveLength(1);
  });
});

describe('signing what the trader reviewed', () => {
  it('checks an order again when it is signed: one that expired since the dialog showed it is refused', async () => {
    let now = Date.now();
    const signer = new TransactionSigner({
      book: new WalletBook(world.dataDir),
      secrets: world.secrets,
      session: world.session,
      attempts: new UnlockAttempts(world.dataDir),
      now: () => now,
    });
    const { txHex, intent } = sellOrder(p);
    const review = await signer.review(txHex, intent, p.profile);
    expect(review.report.differences).toEqual([]);
    now += 60 * 60_000;
    await expect(signer.signTrade(txHex, intent, p.profile)).rejects.toMatchObject({
      code: ErrorCode.IntentMismatch,
      message: expect.stringContaining('It expired at'),
    });
  });

  it('reads an order again when a coin it spends became ours after the review', async () => {
    const d = deposit(p);
    const change = `${(await world.signer.review(d.txHex, d.intent, p.profile)).decoded.id}#1`;
    const { txHex, intent } = sellOrder(p);
    const { accountUtxo: _named, ...unnamed } = intent;
    const hex = mutate(txHex, (b) => {
      b.inputs = [txIn(change)];
    });
    // Before the deposit is signed, its change is nobody's the signer knows of.
    const review = await world.signer.review(hex, unnamed, p.profile);
    expect(review.report.differences).toEqual([]);
    await world.signer.signFunds(d.txHex, d.intent, p.profile, STRONG_PASSWORD);
    await expect(world.signer.signTrade(hex, unnamed, p.profile)).rejects.toMatchObject({
      code: ErrorCode.IntentMismatch,
      message: expect.stringContaining(`It spends coins of your keys (${change})`),
    });
  });
});

describe('every coin a fund movement spends is accounted for by the chain', () => {
  const parked = `${txHash(9)}#0`;
  const atAddress = (address: string) =>
    new Map([[parked, { address, amounts: new Map([['lovelace', 400n * ADA]]) }]]);
  const spending = (txHex: string, inputs: (ids: string[]) => string[]) =>
    mutate(txHex, (b) => {
      b.inputs = inputs(b.inputs.map((i) => `${i.txId}#${i.index}`)).map(txIn);
    });

  it('refuses a withdrawal spending a coin of the wallet key that no list of the app shows', async () => {
    const w = withdrawal(p);
    for (const where of [p.otherOwn.enterprise, p.otherOwn.foreignStake, p.otherOwn.pointer]) {
      // Beside the exchange's payout coin, or as its only input: the chain says whose it is.
      for (const inputs of [(ids: string[]) => [...ids, parked], () => [parked]]) {
        const chain = chainOf(p, atAddress(where));
        const hex = spending(w.txHex, inputs);
        const error = await world.signer
          .signFunds(hex, w.intent, p.profile, STRONG_PASSWORD, { coins: chain })
          .then(
            () => null,
            (e: unknown) => e as { code: string; message: string },
          );
        expect(error?.code).toBe(ErrorCode.IntentMismatch);
        expect(error?.message).toContain(`It spends a coin of your keys (${parked}, 400 ADA)`);
        expect(error?.message).toMatch(/every coin it spends must be accounted for/);
        expect(chain.asked.flat()).toContain(parked);
      }
    }
  });

  it('refuses a withdrawal spending a stranger’s coin, and signs one whose coin the chain does not know', async () => {
    const w = withdrawal(p);
    const stranger = spending(w.txHex, (ids) => [...ids, parked]);
    await expect(
      world.signer.signFunds(stranger, w.intent, p.profile, STRONG_PASSWORD, {
        coins: chainOf(p, atAddress(p.stranger)),
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(
        /a coin at addr_test1\S+ that is neither the exchange’s nor yours/,
      ),
    });
    // The exchange's payout coin is not on L1: no coin of ours, whatever it is.
    const chain = chainOf(p);
    const signed = await world.signer.signFunds(w.txHex, w.intent, p.profile, STRONG_PASSWORD, {
      coins: chain,
    });
    expect(signed.txId).toMatch(/^[0-9a-f]{64}$/);
    expect(chain.asked).toEqual([[`${txHash(4)}#0`]]);
  });

  it('counts the change of a deposit it signed as ours before the chain shows it', async () => {
    const d = deposit(p);
    const signedDeposit = await world.signer.signFunds(
      d.txHex,
      d.intent,
      p.profile,
      STRONG_PASSWORD,
    );
    const change = `${signedDeposit.txId}#1`;
    const w = withdrawal(p);
    const hex = spending(w.txHex, (ids) => [...ids, change]);
    await expect(
      world.signer.signFunds(hex, w.intent, p.profile, STRONG_PASSWORD, { coins: chainOf(p) }),
    ).rejects.toMatchObject({
      code: ErrorCode.IntentMismatch,
      message: expect.stringContaining(`It spends a coin of your keys (${change}`),
    });
  });

  it('signs no fund movement whose coins it could not look up, and says so', async () => {
    const w = withdrawal(p);
    const open = vi.spyOn(world.secrets, 'openPaymentKey');
    const down = {
      resolve: () =>
        Promise.reject(new AppError(ErrorCode.Network, 'Koios did not answer within 15 seconds.')),
    };
    await expect(
      world.signer.signFunds(w.txHex, w.intent, p.profile, STRONG_PASSWORD, { coins: down }),
    ).rejects.toMatchObject({
      code: ErrorCode.Network,
      message: expect.stringMatching(
        /^Countersign could not look up the coins this withdrawal spends, so it cannot prove that none of them is yours\. Koios did not answer within 15 seconds\. Nothing was signed/,
      ),
    });
    await expect(
      world.signer.signFunds(w.txHex, w.intent, p.profile, STRONG_PASSWORD),
    ).rejects.toMatchObject({
      code: ErrorCode.IntentMismatch,
      message: expect.stringMatching(/could not check whose coins .* are \(no chain service/),
    });
    expect(open).not.toHaveBeenCalled();
  });
});

describe('unverified orders follow the network’s setting', () => {
  /** A sell whose intent datum is not the published layout (an unknown constructor). */
  const unreadable = (p: Parties, network: 'staging' | 'production') =>
    onRealNetwork(withDatum(sellOrder(p).txHex, 0, Buffer.from('d87f80', 'hex')), network);

  it('on staging (warn): lists what could not be verified, and signs only once accepted', async () => {
    const profile = realProfile(p, 'staging');
    const hex = unreadable(p, 'staging');
    const { intent } = sellOrder(p);
    const review = await world.signer.review(hex, intent, profile);
    expect(review.report.differences).toEqual([]);
    expect(review.report.warnings).toEqual([
      expect.stringMatching(
        /could not verify the order, because the intent datum is not a known intent \(constructor 6\)/,
      ),
    ]);
    await expect(world.signer.signTrade(hex, intent, profile)).rejects.toThrow(
      /Confirm before signing/,
    );
    const signed = await world.signer.signTrade(hex, intent, profile, {
      acceptedWarnings: review.report.warnings,
    });
    expect(signed.warnings).toEqual(review.report.warnings);
  });

  it('on production (refuse) and when the trader chose refuse on staging: refused, naming what', async () => {
    const { intent } = sellOrder(p);
    for (const [hex, profile] of [
      [unreadable(p, 'production'), realProfile(p, 'production')],
      [unreadable(p, 'staging'), { ...realProfile(p, 'staging'), unverifiedOrders: 'refuse' }],
    ] as const) {
      await expect(world.signer.signTrade(hex, intent, profile)).rejects.toMatchObject({
        code: ErrorCode.IntentMismatch,
        message: expect.stringMatching(
          /could not verify the order, because the intent datum is not a known intent \(constructor 6\), and your setting for this network refuses orders/,
        ),
      });
    }
  });

  it('never turns a readable wrong term into a warning, on any network', async () => {
    const { intent } = sellOrder(p);
    for (const network of ['staging', 'production'] as const) {
      const hex = onRealNetwork(sellOrder(p, { priceTimes1e9: 1n }).txHex, network);
      const review = await world.signer.review(hex, intent, realProfile(p, network));
      expect(review.report.warnings).toEqual([]);
      expect(review.report.differences).toEqual([
        expect.stringMatching(/^The order’s price is 0\.000000001 USDM instead of 0\.5 USDM/),
      ]);
    }
  });

  it('checks an order, a cancel and a withdrawal from their datums on staging and production', async () => {
    for (const network of ['staging', 'production'] as const) {
      const profile = realProfile(p, network);
      for (const honest of [sellOrder(p), buyOrder(p), cancelOrder(p)]) {
        const hex = onRealNetwork(honest.txHex, network);
        const signed = await world.signer.signTrade(hex, honest.intent, profile);
        expect(signed.warnings).toEqual([]);
      }
      const w = withdrawal(p);
      const hex = onRealNetwork(w.txHex, network, 3600);
      const signed = await world.signer.signFunds(hex, w.intent, profile, STRONG_PASSWORD, {
        coins: chainOf(p),
      });
      expect(signed.warnings).toEqual([]);
      const other = onRealNetwork(
        cancelOrder(p, { orderId: '00000000-0000-4000-8000-000000000009' }).txHex,
        network,
      );
      await expect(world.signer.signTrade(other, cancelOrder(p).intent, profile)).rejects.toThrow(
        /The cancel names order 00000000-0000-4000-8000-000000000009/,
      );
    }
  });
});

type Kind = 'order' | 'buy' | 'cancel' | 'deposit' | 'withdrawal';
type Case = [name: string, kind: Kind, build: (p: Parties) => string, expected: RegExp];

const honest = (kind: Kind, p: Parties): Honest<never> =>
  ({
    order: sellOrder,
    buy: buyOrder,
    cancel: cancelOrder,
    deposit,
    withdrawal,
  })[kind](p) as Honest<never>;

/** A change of the honest transaction of that kind, through the SDK's serializer. */
const tamper =
  (kind: Kind, change: (b: Cardano.TxBody, p: Parties) => void) =>
  (p: Parties): string =>
    mutate(honest(kind, p).txHex, (b) => change(b, p));

const stakeCert = (p: Parties): Cardano.Certificate => ({
  __typename: Cardano.CertificateType.StakeDelegation,
  stakeCredential: { type: Cardano.CredentialType.KeyHash, hash: p.user.stakeKeyHash as never },
  poolId: Cardano.PoolId('pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy'),
});

const OTHER_ID = '00000000-0000-4000-8000-000000000001';

/** The published layout's own tampers (issue list): same amounts, other terms in the datum. */
const LAYOUT: Case[] = [
  [
    'the other side',
    'order',
    (p) => sellOrder(p, { isLong: true }).txHex,
    /The order would buy instead of sell/,
  ],
  [
    'a price one tick (0.0001) lower',
    'order',
    (p) => sellOrder(p, { priceTimes1e9: 499_900_000n }).txHex,
    /The order’s price is 0\.4999 USDM instead of 0\.5 USDM/,
  ],
  [
    'another size',
    'order',
    (p) => sellOrder(p, { size: 101n * ADA }).txHex,
    /The order’s size is 101 ADA instead of 100 ADA/,
  ],
  [
    'another fee rate',
    'order',
    (p) => sellOrder(p, { feeBp: 50 }).txHex,
    /fee rate is 50 bp instead of the 10 bp the exchange publishes/,
  ],
  [
    'a foreign account id',
    'order',
    (p) => sellOrder(p, { account: { ...p.keys, accountId: OTHER_ID } }).txHex,
    /The order’s account is another account than yours/,
  ],
  [
    'a foreign master key',
    'order',
    (p) => sellOrder(p, { account: { ...p.keys, masterKeyHash: p.strangerKeyHash } }).txHex,
    /names another master key than your wallet’s/,
  ],
  [
    'a foreign operation key',
    'order',
    (p) => sellOrder(p, { account: { ...p.keys, operationKeyHash: p.strangerKeyHash } }).txHex,
    /names another trading key than yours/,
  ],
  [
    'another order id',
    'order',
    (p) => sellOrder(p, { orderId: OTHER_ID }).txHex,
    /names order 00000000-0000-4000-8000-000000000001, not 3f1c1e6e/,
  ],
  [
    'a buy locking more than its price needs',
    'buy',
    (p) => buyOrder(p, {}, new Map([[USDM, 60n * ADA]])).txHex,
    /locks 60 USDM instead of 50 USDM/,
  ],
  [
    'two intent outputs',
    'order',
    tamper('order', (b) => void b.outputs.push({ ...(b.outputs[0] as Cardano.TxOut) })),
    /leaves 2 intents at the exchange’s intent address instead of one order/,
  ],
  [
    'the intent token minted twice',
    'order',
    tamper('order', (b) => void (b.mint = new Map([[Cardano.AssetId(INTENT_TOKEN), 2n]]))),
    /mints or burns 2 of the intent token instead of one intent token/,
  ],
  [
    'the intent token minted with a name',
    'order',
    tamper('order', (b) => void (b.mint = new Map([[Cardano.AssetId(`${INTENT_TOKEN}41`), 1n]]))),
    /mints or burns 1 of [0-9a-f]{56}41 instead of one intent token/,
  ],
  [
    'a datum hash instead of an inline datum',
    'order',
    tamper('order', (b) => {
      const o = b.outputs[0] as Cardano.TxOut;
      delete o.datum;
      o.datumHash = Crypto.Hash32ByteBase16('ab'.repeat(32));
    }),
    /carries a datum hash instead of its datum/,
  ],
  [
    'a cancel naming another order',
    'cancel',
    (p) => cancelOrder(p, { orderId: OTHER_ID }).txHex,
    /The cancel names order 00000000-0000-4000-8000-000000000001, not 3f1c1e6e/,
  ],
  [
    'a withdrawal intent asking for more than typed',
    'withdrawal',
    (p) =>
      withDatum(
        withdrawal(p).txHex,
        1,
        encodePlutusData(withdrawalIntent(p.keys, new Map([['lovelace', 500n * ADA]]))),
      ),
    /The withdrawal request asks for 500 ADA instead of the 50 ADA you typed/,
  ],
];

const TAMPERED: Case[] = [
  [
    'a changed order amount',
    'order',
    tamper(
      'order',
      (b) =>
        void ((b.outputs[0] as Cardano.TxOut).value = {
          coins: 99n * ADA,
          assets: new Map([[Cardano.AssetId(INTENT_TOKEN), 1n]]),
        }),
    ),
    /locks 99 ADA instead of 100 ADA/,
  ],
  [
    'an extra output to a stranger',
    'order',
    tamper('order', (b, p) => void b.outputs.push(out(p.stranger, 5n * ADA))),
    /Output 2 sends 5 ADA to an address that is neither yours nor the exchange’s/,
  ],
  [
    'change sent to a stranger',
    'order',
    tamper('order', (b, p) => void (b.outputs[1] = out(p.stranger, 400n * ADA))),
    /Output 1 sends 400 ADA/,
  ],
  [
    'change sent to the wallet instead of the account',
    'order',
    tamper('order', (b, p) => void (b.outputs[1] = out(p.user.baseAddress, 400n * ADA))),
    /to your wallet/,
  ],
  [
    'an extra input of the user’s',
    'order',
    tamper('order', (b) => void b.inputs.push(txIn(`${txHash(3)}#0`))),
    /spends coins of your keys/,
  ],
  [
    'a wrong network id',
    'order',
    tamper('order', (b) => void (b.networkId = Cardano.NetworkId.Mainnet)),
    /network mainnet, not sandbox/,
  ],
  [
    'an output on mainnet',
    'order',
    tamper('order', (b, p) => void (b.outputs[1] = out(p.mainnetUser, 400n * ADA))),
    /another network/,
  ],
  [
    'an extra required signer',
    'order',
    tamper(
      'order',
      (b, p) => void b.requiredExtraSignatures?.push(Crypto.Ed25519KeyHashHex(p.strangerKeyHash)),
    ),
    /unknown key/,
  ],
  [
    'no operation-key signer',
    'order',
    tamper(
      'order',
      (b, p) =>
        void (b.requiredExtraSignatures = [Crypto.Ed25519KeyHashHex(p.user.paymentKeyHash)]),
    ),
    /does not ask for your trading key/,
  ],
  [
    'another mint',
    'order',
    tamper('order', (b) => void b.mint?.set(Cardano.AssetId(`${'ab'.repeat(28)}4142`), 1000n)),
    /mints or burns/,
  ],
  [
    'a certificate',
    'order',
    tamper('order', (b, p) => void (b.certificates = [stakeCert(p)])),
    /certificate/,
  ],
  [
    'a reward withdrawal',
    'order',
    tamper(
      'order',
      (b) =>
        void (b.withdrawals = [
          {
            stakeAddress: Cardano.RewardAccount(
              'stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn',
            ),
            quantity: 5n,
          },
        ]),
    ),
    /staking reward withdrawal/,
  ],
  [
    'a fee on a fee-free order',
    'order',
    tamper('order', (b) => void (b.fee = 50n * ADA)),
    /fee is 50 ADA/,
  ],
  [
    'an order output without datum',
    'order',
    tamper('order', (b) => void delete (b.outputs[0] as Cardano.TxOut).datum),
    /carries no datum/,
  ],
  [
    'collateral',
    'order',
    tamper('order', (b) => void (b.collaterals = [txIn(`${txHash(3)}#1`)])),
    /collateral/,
  ],
  [
    'a governance vote',
    'order',
    tamper('order', (b, p) => void (b.votingProcedures = walletVote(p))),
    /governance vote/,
  ],
  [
    'a treasury donation',
    'order',
    tamper('order', (b) => void (b.donation = 10n * ADA)),
    /treasury field/,
  ],
  [
    'a cancel that does not spend the order',
    'cancel',
    tamper('cancel', (b) => void (b.inputs = [txIn(`${txHash(9)}#0`)])),
    /does not spend the order being cancelled/,
  ],
  [
    'a cancel that also spends another order',
    'cancel',
    tamper('cancel', (b) => void b.inputs.push(txIn(`${txHash(9)}#0`))),
    /also spends [0-9a-f]{64}#0 besides the order being cancelled/,
  ],
  [
    'a cancel refund sent to a stranger',
    'cancel',
    tamper('cancel', (b, p) => void (b.outputs[1] = out(p.stranger, 100n * ADA))),
    /Output 1 sends 100 ADA to an address that is neither yours nor the exchange’s/,
  ],
  [
    'a deposit of a changed amount',
    'deposit',
    tamper(
      'deposit',
      (b) =>
        void ((b.outputs[0] as Cardano.TxOut).value = {
          coins: 200n * ADA,
          assets: new Map([[Cardano.AssetId(USDM), 20n * ADA]]),
        }),
    ),
    /pays 200 ADA \+ 20 USDM to the exchange instead of 150 ADA \+ 20 USDM/,
  ],
  [
    'a deposit spending an unchosen UTxO',
    'deposit',
    tamper('deposit', (b) => void b.inputs.push(txIn(`${txHash(3)}#2`))),
    /which you did not choose/,
  ],
  [
    'a deposit leaving out a chosen UTxO',
    'deposit',
    tamper('deposit', (b) => void b.inputs.pop()),
    /which you chose/,
  ],
  [
    'deposit change sent to a stranger',
    'deposit',
    tamper(
      'deposit',
      (b, p) => void (b.outputs[1] = out(p.stranger, (b.outputs[1] as Cardano.TxOut).value.coins)),
    ),
    /neither yours nor the exchange’s/,
  ],
  [
    'deposit change parked at another address of the wallet key',
    'deposit',
    tamper(
      'deposit',
      (b, p) =>
        void (b.outputs[1] = out(
          p.otherOwn.enterprise,
          (b.outputs[1] as Cardano.TxOut).value.coins,
        )),
    ),
    /another address of your keys \(addr_test1v.*\), which your balance does not show.*your money may only come back to your wallet’s own address/,
  ],
  [
    'a deposit with a huge fee',
    'deposit',
    tamper('deposit', (b, p) => {
      b.fee = 20n * ADA;
      b.outputs[1] = out(p.user.baseAddress, 230n * ADA);
    }),
    /fee is 20 ADA/,
  ],
  [
    'a deposit keeping part of the change',
    'deposit',
    tamper('deposit', (b, p) => void (b.outputs[1] = out(p.user.baseAddress, 240n * ADA))),
    /returns 240 ADA to your wallet instead of/,
  ],
  [
    'a deposit that also delegates the stake key',
    'deposit',
    tamper('deposit', (b, p) => void (b.certificates = [stakeCert(p)])),
    /certificate/,
  ],
  [
    'a withdrawal paying less',
    'withdrawal',
    tamper('withdrawal', (b, p) => void (b.outputs[0] = out(p.user.baseAddress, 48n * ADA))),
    /pays 48 ADA to your wallet instead of 50 ADA/,
  ],
  [
    'a withdrawal paying a stranger',
    'withdrawal',
    tamper('withdrawal', (b, p) => void (b.outputs[0] = out(p.stranger, 50n * ADA))),
    /neither yours nor the exchange’s/,
  ],
  [
    'a withdrawal spending the user’s UTxO',
    'withdrawal',
    tamper('withdrawal', (b) => void b.inputs.push(txIn(`${txHash(3)}#0`))),
    /a withdrawal never does/,
  ],
  [
    'a withdrawal with an extra signer',
    'withdrawal',
    tamper(
      'withdrawal',
      (b, p) => void b.requiredExtraSignatures?.push(Crypto.Ed25519KeyHashHex(p.strangerKeyHash)),
    ),
    /unknown key/,
  ],
  [
    'a withdrawal on mainnet',
    'withdrawal',
    tamper('withdrawal', (b, p) => {
      b.networkId = Cardano.NetworkId.Mainnet;
      b.outputs[0] = out(p.mainnetUser, 50n * ADA);
    }),
    /network mainnet/,
  ],
];

const attempt = (kind: Kind, hex: string, p: Parties) => {
  const { intent } = honest(kind, p);
  const options = { knownOutputs: deposit(p).intent.inputs, coins: chainOf(p) };
  return kind === 'deposit' || kind === 'withdrawal'
    ? world.signer.signFunds(hex, intent, p.profile, STRONG_PASSWORD, options)
    : world.signer.signTrade(hex, intent, p.profile, options);
};

describe('the tamper suite: server-built transactions that differ from the intent', () => {
  it('has at least 40 cases', () => {
    expect(TAMPERED.length + LAYOUT.length).toBeGreaterThanOrEqual(40);
  });

  it.each([...LAYOUT, ...TAMPERED])(
    'refuses %s and signs nothing',
    async (_name, kind, build, expected) => {
      const sign = vi.spyOn(SigningKey.prototype, 'sign');
      const open = vi.spyOn(world.secrets, 'openPaymentKey');
      const error = await attempt(kind, build(p), p).then(
        () => null,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error?.code).toBe(ErrorCode.IntentMismatch);
      expect(error?.message).toMatch(expected);
      expect(error?.message).toContain('Nothing was signed.');
      expect(sign).not.toHaveBeenCalled();
      expect(open).not.toHaveBeenCalled();
    },
  );

  it('the untampered versions of each are signed (the suite tests the check, not a broken fixture)', async () => {
    for (const kind of ['order', 'buy', 'cancel', 'deposit', 'withdrawal'] as const) {
      const { txHex, intent } = honest(kind, p);
      const options = { knownOutputs: deposit(p).intent.inputs, coins: chainOf(p) };
      const review = await world.signer.review(txHex, intent, p.profile, options);
      expect(review.report).toEqual({ differences: [], warnings: [] });
      // The SDK's re-serialization alone changes nothing of the meaning.
      const again = mutate(txHex, () => undefined);
      const same = await world.signer.review(again, intent, p.profile, options);
      expect(same.report).toEqual({ differences: [], warnings: [] });
    }
  });
});
