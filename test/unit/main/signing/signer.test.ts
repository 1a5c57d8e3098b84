import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import type { ExchangeProfile, SignedTransaction } from '../../../../src-main/signing';
import { SigningKey } from '../../../../src-main/wallet';
import {
  ADA,
  cancelBody,
  cancelIntent,
  depositBody,
  depositIntent,
  makeParties,
  nonCanonical,
  orderBody,
  orderIntent,
  out,
  serialize,
  txHash,
  txIn,
  withdrawalBody,
  withdrawalIntent,
  type Parties,
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

describe('signing what the trader asked for', () => {
  it('signs an order and a cancel with the session’s operation key', async () => {
    for (const [body, intent] of [
      [orderBody(p), orderIntent],
      [cancelBody(p), cancelIntent],
    ] as const) {
      const hex = serialize(body);
      const signed = await world.signer.signTrade(hex, intent, p.profile);
      expectSignedBy(signed, hex, p.profile.operationKeyHash);
    }
  });

  it('signs a non-canonical order without changing its id', async () => {
    const hex = nonCanonical(serialize(orderBody(p)));
    const signed = await world.signer.signTrade(hex, orderIntent, p.profile);
    expectSignedBy(signed, hex, p.profile.operationKeyHash);
    expect(signed.signedTxHex.startsWith(hex.slice(0, hex.length - 6))).toBe(true);
  });

  it('signs a deposit and a withdrawal with the wallet key, opened for that signature only', async () => {
    const openPaymentKey = vi.spyOn(world.secrets, 'openPaymentKey');
    const wipe = vi.spyOn(SigningKey.prototype, 'wipe');
    const deposit = serialize(depositBody(p));
    const signed = await world.signer.signFunds(
      deposit,
      depositIntent(p),
      p.profile,
      STRONG_PASSWORD,
    );
    expectSignedBy(signed, deposit, p.user.paymentKeyHash);
    const withdrawal = serialize(withdrawalBody(p));
    const signedW = await world.signer.signFunds(
      withdrawal,
      withdrawalIntent(),
      p.profile,
      STRONG_PASSWORD,
    );
    expectSignedBy(signedW, withdrawal, p.user.paymentKeyHash);
    expect(openPaymentKey).toHaveBeenCalledTimes(2);
    expect(wipe).toHaveBeenCalledTimes(2);
    expect(world.session.isUnlocked).toBe(true);
  });

  it('refuses a trade while locked, and funds with a wrong password (counted)', async () => {
    await world.session.lock('user');
    await expect(
      world.signer.signTrade(serialize(orderBody(p)), orderIntent, p.profile),
    ).rejects.toMatchObject({
      code: ErrorCode.Locked,
    });
    await expect(
      world.signer.signFunds(serialize(depositBody(p)), depositIntent(p), p.profile, 'wrong one!'),
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
    await expect(
      watch.signer.signFunds(
        serialize(depositBody(q)),
        depositIntent(q),
        q.profile,
        STRONG_PASSWORD,
      ),
    ).rejects.toMatchObject({ code: ErrorCode.WatchOnly });
    await watch.session.unlock(STRONG_PASSWORD);
    const order = serialize(orderBody(q));
    expectSignedBy(
      await watch.signer.signTrade(order, orderIntent, q.profile),
      order,
      summary.operationKeyHash,
    );
    await watch.cleanup();
  });

  it('on a real network, asks the trader to confirm unexplained structure, then signs', async () => {
    const profile: ExchangeProfile = { ...p.profile, strict: false, network: 'staging' };
    const body = orderBody(p);
    body.requiredExtraSignatures = [
      ...(body.requiredExtraSignatures ?? []),
      Crypto.Ed25519KeyHashHex(p.strangerKeyHash),
    ];
    const hex = serialize(body);
    const review = await world.signer.review(hex, orderIntent, profile);
    expect(review.report.differences).toEqual([]);
    expect(review.report.warnings).toEqual([
      expect.stringContaining('signature from an unknown key'),
    ]);
    await expect(world.signer.signTrade(hex, orderIntent, profile)).rejects.toThrow(
      /Confirm before signing/,
    );
    const signed = await world.signer.signTrade(hex, orderIntent, profile, {
      acceptedWarnings: review.report.warnings,
    });
    expect(signed.warnings).toEqual(review.report.warnings);
  });
});

type Case = [
  name: string,
  kind: 'order' | 'cancel' | 'deposit' | 'withdrawal',
  change: (b: Cardano.TxBody, p: Parties) => void,
  expected: RegExp,
];

const stakeCert = (p: Parties): Cardano.Certificate => ({
  __typename: Cardano.CertificateType.StakeDelegation,
  stakeCredential: { type: Cardano.CredentialType.KeyHash, hash: p.user.stakeKeyHash as never },
  poolId: Cardano.PoolId('pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy'),
});

const TAMPERED: Case[] = [
  [
    'a changed order amount',
    'order',
    (b) => void ((b.outputs[0] as Cardano.TxOut).value = { coins: 99n * ADA }),
    /locks 99 ADA instead of 100 ADA/,
  ],
  [
    'an extra output to a stranger',
    'order',
    (b, p) => void b.outputs.push(out(p.stranger, 5n * ADA)),
    /Output 2 sends 5 ADA to an address that is not your exchange account/,
  ],
  [
    'change sent to a stranger',
    'order',
    (b, p) => void (b.outputs[1] = out(p.stranger, 400n * ADA)),
    /Output 1 sends 400 ADA/,
  ],
  [
    'change sent to the wallet instead of the account',
    'order',
    (b, p) => void (b.outputs[1] = out(p.user.baseAddress, 400n * ADA)),
    /to your wallet/,
  ],
  [
    'an extra input of the user’s',
    'order',
    (b) => void b.inputs.push(txIn(`${txHash(3)}#0`)),
    /spends coins from your wallet/,
  ],
  [
    'a wrong network id',
    'order',
    (b) => void (b.networkId = Cardano.NetworkId.Mainnet),
    /network mainnet, not sandbox/,
  ],
  [
    'an output on mainnet',
    'order',
    (b, p) => void (b.outputs[1] = out(p.mainnetUser, 400n * ADA)),
    /another network/,
  ],
  [
    'an extra required signer',
    'order',
    (b, p) => void b.requiredExtraSignatures?.push(Crypto.Ed25519KeyHashHex(p.strangerKeyHash)),
    /unknown key/,
  ],
  [
    'no operation-key signer',
    'order',
    (b, p) => void (b.requiredExtraSignatures = [Crypto.Ed25519KeyHashHex(p.user.paymentKeyHash)]),
    /does not ask for your trading key/,
  ],
  [
    'a mint',
    'order',
    (b) => void (b.mint = new Map([[Cardano.AssetId(`${'ab'.repeat(28)}4142`), 1000n]])),
    /mints or burns/,
  ],
  ['a certificate', 'order', (b, p) => void (b.certificates = [stakeCert(p)]), /certificates/],
  [
    'a reward withdrawal',
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
    /withdraws staking rewards/,
  ],
  ['a fee on a fee-free order', 'order', (b) => void (b.fee = 50n * ADA), /fee is 50 ADA/],
  [
    'two order outputs',
    'order',
    (b, p) => void b.outputs.push({ ...out(p.profile.addresses.order ?? '', 1n * ADA), datum: 1n }),
    /2 order outputs/,
  ],
  [
    'an order output without datum',
    'order',
    (b, p) => void (b.outputs[0] = out(p.profile.addresses.order ?? '', 100n * ADA)),
    /no order datum/,
  ],
  ['collateral', 'order', (b) => void (b.collaterals = [txIn(`${txHash(3)}#1`)]), /collateral/],
  [
    'a governance vote',
    'order',
    (b, p) =>
      void (b.votingProcedures = [
        {
          voter: {
            __typename: Cardano.VoterType.dRepKeyHash,
            credential: {
              type: Cardano.CredentialType.KeyHash,
              hash: p.user.stakeKeyHash as never,
            },
          },
          votes: [
            {
              actionId: { id: Cardano.TransactionId(txHash(7)), actionIndex: 0 },
              votingProcedure: { vote: Cardano.Vote.yes, anchor: null },
            },
          ],
        },
      ]),
    /casts governance votes/,
  ],
  ['a treasury donation', 'order', (b) => void (b.donation = 10n * ADA), /donates/],
  [
    'a cancel that does not spend the order',
    'cancel',
    (b) => void (b.inputs = [txIn(`${txHash(9)}#0`)]),
    /does not spend the order being cancelled/,
  ],
  [
    'a cancel refund sent to a stranger',
    'cancel',
    (b, p) => void (b.outputs = [out(p.stranger, 100n * ADA)]),
    /not your exchange account/,
  ],
  [
    'a deposit of a changed amount',
    'deposit',
    (b, p) => void (b.outputs[0] = out(p.profile.addresses.deposit ?? '', 200n * ADA, 20n * ADA)),
    /pays 200 ADA \+ 20 USDM to the exchange instead of 150 ADA \+ 20 USDM/,
  ],
  [
    'a deposit spending an unchosen UTxO',
    'deposit',
    (b) => void b.inputs.push(txIn(`${txHash(3)}#2`)),
    /which you did not choose/,
  ],
  ['a deposit leaving out a chosen UTxO', 'deposit', (b) => void b.inputs.pop(), /which you chose/],
  [
    'deposit change sent to a stranger',
    'deposit',
    (b, p) => void (b.outputs[1] = out(p.stranger, (b.outputs[1] as Cardano.TxOut).value.coins)),
    /neither yours nor the exchange’s deposit address/,
  ],
  [
    'a deposit with a huge fee',
    'deposit',
    (b, p) => {
      b.fee = 20n * ADA;
      b.outputs[1] = out(p.user.baseAddress, 230n * ADA);
    },
    /fee is 20 ADA/,
  ],
  [
    'a deposit keeping part of the change',
    'deposit',
    (b, p) => void (b.outputs[1] = out(p.user.baseAddress, 240n * ADA)),
    /returns 240 ADA to you instead of/,
  ],
  [
    'a deposit that also delegates the stake key',
    'deposit',
    (b, p) => void (b.certificates = [stakeCert(p)]),
    /certificates/,
  ],
  [
    'a withdrawal paying less',
    'withdrawal',
    (b, p) => void (b.outputs[0] = out(p.user.baseAddress, 48n * ADA)),
    /pays 48 ADA to you instead of 49 ADA/,
  ],
  [
    'a withdrawal paying a stranger',
    'withdrawal',
    (b, p) => void (b.outputs[0] = out(p.stranger, 49n * ADA)),
    /neither yours nor the exchange’s treasury/,
  ],
  [
    'a withdrawal spending the user’s UTxO',
    'withdrawal',
    (b) => void b.inputs.push(txIn(`${txHash(3)}#0`)),
    /a withdrawal never does/,
  ],
  [
    'a withdrawal with an extra signer',
    'withdrawal',
    (b, p) => void b.requiredExtraSignatures?.push(Crypto.Ed25519KeyHashHex(p.strangerKeyHash)),
    /unknown key/,
  ],
  [
    'a withdrawal on mainnet',
    'withdrawal',
    (b, p) => {
      b.networkId = Cardano.NetworkId.Mainnet;
      b.outputs[0] = out(p.mainnetUser, 49n * ADA);
    },
    /network mainnet/,
  ],
];

describe('the tamper suite: server-built transactions that differ from the intent', () => {
  it('has at least 20 cases', () => {
    expect(TAMPERED.length).toBeGreaterThanOrEqual(20);
  });

  it.each(TAMPERED)('refuses %s and signs nothing', async (_name, kind, change, expected) => {
    const sign = vi.spyOn(SigningKey.prototype, 'sign');
    const open = vi.spyOn(world.secrets, 'openPaymentKey');
    const body =
      kind === 'order'
        ? orderBody(p)
        : kind === 'cancel'
          ? cancelBody(p)
          : kind === 'deposit'
            ? depositBody(p)
            : withdrawalBody(p);
    change(body, p);
    const hex = serialize(body);
    const attempt =
      kind === 'order'
        ? // The trading service passes the wallet's UTxOs it knows from the chain.
          world.signer.signTrade(hex, orderIntent, p.profile, {
            knownOutputs: depositIntent(p).inputs,
          })
        : kind === 'cancel'
          ? world.signer.signTrade(hex, cancelIntent, p.profile)
          : kind === 'deposit'
            ? world.signer.signFunds(hex, depositIntent(p), p.profile, STRONG_PASSWORD)
            : world.signer.signFunds(hex, withdrawalIntent(), p.profile, STRONG_PASSWORD);
    const error = await attempt.then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe(ErrorCode.IntentMismatch);
    expect(error?.message).toMatch(expected);
    expect(error?.message).toContain('Nothing was signed.');
    expect(sign).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('the untampered versions of each are signed (the suite tests the check, not a broken fixture)', async () => {
    await expect(
      world.signer.review(serialize(orderBody(p)), orderIntent, p.profile),
    ).resolves.toMatchObject({ report: { differences: [], warnings: [] } });
    await expect(
      world.signer.review(serialize(cancelBody(p)), cancelIntent, p.profile),
    ).resolves.toMatchObject({ report: { differences: [], warnings: [] } });
    await expect(
      world.signer.review(serialize(depositBody(p)), depositIntent(p), p.profile),
    ).resolves.toMatchObject({ report: { differences: [], warnings: [] } });
    await expect(
      world.signer.review(serialize(withdrawalBody(p)), withdrawalIntent(), p.profile),
    ).resolves.toMatchObject({ report: { differences: [], warnings: [] } });
  });
});
