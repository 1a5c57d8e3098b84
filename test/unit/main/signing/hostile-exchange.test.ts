import { Cardano, Serialization } from '@cardano-sdk/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ExchangeProfile,
  type IntentReport,
  type KnownOutput,
  type SigningIntent,
  splitTransaction,
} from '../../../../src-main/signing';
import { ErrorCode } from '../../../../src-shared/errors';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  cancelOrder,
  deposit,
  makeParties,
  mutate,
  out,
  sellOrder,
  txHash,
  txIn,
  withdrawal,
  type Parties,
  reviewOf,
} from '../../../fixtures/cardano/exchange-transactions';

/**
 * A hostile exchange's transactions that keep every amount the trader asked for and change
 * something else the trader's key would sign for: statements published under the key, the
 * trader's coins left at the exchange's intent address, the trader's exchange balance moved to
 * the exchange's treasury; then structures and formats that must be refused whatever else the
 * transaction does.
 */

let p: Parties;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

const review = (
  txHex: string,
  intent: SigningIntent,
  known: ReadonlyMap<string, KnownOutput> = new Map(),
  profile: ExchangeProfile = p.profile,
): IntentReport => reviewOf(p, txHex, intent, profile, known);

const clean = (report: IntentReport): void => {
  expect(report).toEqual({ differences: [], warnings: [] });
};

/** The transaction with metadata attached and its hash stated in the body, as the ledger wants. */
const withMetadata = (txHex: string): string => {
  const blob: Cardano.TxMetadata = new Map([[674n, new Map([['msg', ['I agree to the terms']]])]]);
  return mutate(txHex, (b, t) => {
    t.auxiliaryData = { blob };
    b.auxiliaryDataHash = Cardano.computeAuxiliaryDataHash({ blob });
  });
};

describe('metadata the operation does not need', () => {
  it('is refused on every operation, even with its hash stated in the body', () => {
    for (const honest of [sellOrder(p), cancelOrder(p), deposit(p), withdrawal(p)]) {
      clean(review(honest.txHex, honest.intent));
      const signed = withMetadata(honest.txHex);
      // The metadata is really there and the body's hash matches it: no mismatch to catch.
      expect(
        Serialization.Transaction.fromCbor(Serialization.TxCBOR(signed)).auxiliaryData(),
      ).toBeDefined();
      const report = review(signed, honest.intent);
      expect(report.differences.join(' ')).toMatch(/It carries metadata/);
      expect(report.differences.join(' ')).toMatch(/nothing unexplained may ride along/);
    }
  });
});

describe('a cancel’s intent output', () => {
  const extraAda = (txHex: string, lovelace: bigint): string =>
    mutate(txHex, (b) => {
      const o = b.outputs[0] as Cardano.TxOut;
      b.outputs[0] = { ...o, value: { ...o.value, coins: o.value.coins + lovelace } };
    });

  it('carries the order’s token and at most its minimum ADA, never the order’s funds', () => {
    const c = cancelOrder(p);
    clean(review(c.txHex, c.intent));
    // Within the order's minimum ADA: what an honest cancel may leave with the token.
    clean(review(extraAda(c.txHex, 2n * ADA), c.intent));
    const kept = extraAda(c.txHex, 50n * ADA);
    for (const intent of [
      c.intent,
      { ...c.intent, refundAtLeast: true },
      { kind: 'cancel-order' as const, orderId: c.intent.orderId, orderUtxo: c.intent.orderUtxo },
    ]) {
      const text = review(kept, intent).differences.join(' ');
      expect(text).toMatch(/Output 0 \(the cancel\) keeps 50 ADA at the exchange’s intent address/);
      expect(text).toMatch(/only what you asked for may leave your keys/);
    }
  });
});

describe('a withdrawal that spends the trader’s exchange account', () => {
  const accountCoin = `${txHash(8)}#0`;
  const known = (lovelace: bigint) =>
    new Map([
      [
        accountCoin,
        {
          address: p.profile.addresses.account ?? '',
          amounts: new Map([['lovelace', lovelace]]),
        },
      ],
    ]);

  it('may pay it out to the wallet, never move the rest of the balance to the treasury', () => {
    const w = withdrawal(p);
    // The account's coin pays exactly the payout and the fee: nothing else leaves the account.
    const exact = mutate(w.txHex, (b) => {
      b.inputs = [txIn(accountCoin)];
    });
    clean(review(exact, w.intent, known(50n * ADA + 200_000n)));
    const drained = mutate(w.txHex, (b) => {
      b.inputs = [txIn(accountCoin)];
      b.outputs = [...b.outputs, out(p.profile.addresses.treasury ?? '', 450n * ADA)];
    });
    const text = review(drained, w.intent, known(500n * ADA + 200_000n)).differences.join(' ');
    expect(text).toMatch(/takes 500\.2 ADA from your exchange account/);
    expect(text).toMatch(/450 ADA of it go elsewhere/);
    expect(text).toMatch(/only what you asked for may leave your keys/);
  });
});

/**
 * The transaction's parts under another array head: all four as sent, or (`shelley`) its body,
 * witness set and no metadata, as a pre-Alonzo transaction of three parts was written.
 */
const reframed = (txHex: string, head: string, { shelley = false, end = '' } = {}): string => {
  const split = splitTransaction(txHex);
  const parts = shelley
    ? [split.body, split.witnessSet, Buffer.from([0xf6])]
    : [split.body, split.witnessSet, split.tail];
  return `${head}${Buffer.concat(parts).toString('hex')}${end}`;
};

describe('structures that move value outside the operation, and other formats', () => {
  it('refuses each, whatever the operation, in words', () => {
    const d = deposit(p);
    const w = withdrawal(p);
    const refused = (hex: string, intent: SigningIntent, why: RegExp) =>
      expect(review(hex, intent).differences.join(' ')).toMatch(why);
    // A reference script riding on the wallet's own change.
    refused(
      mutate(d.txHex, (b) => {
        const o = b.outputs[1] as Cardano.TxOut;
        b.outputs[1] = {
          ...o,
          scriptReference: {
            __type: Cardano.ScriptType.Native,
            kind: Cardano.NativeScriptKind.RequireAllOf,
            scripts: [],
          },
        };
      }),
      d.intent,
      /Output 1 carries a reference script/,
    );
    // Collateral returned to a stranger, and the total collateral stated.
    refused(
      mutate(w.txHex, (b) => {
        b.collateralReturn = out(p.stranger, 5n * ADA);
        b.totalCollateral = 5n * ADA;
      }),
      w.intent,
      /It carries 2 collateral fields/,
    );
    // A governance proposal paid from the transaction.
    refused(
      mutate(d.txHex, (b) => {
        b.proposalProcedures = [
          {
            deposit: 100_000n * ADA,
            rewardAccount: Cardano.RewardAccount.fromCredential(
              { type: Cardano.CredentialType.KeyHash, hash: p.user.stakeKeyHash as never },
              0,
            ),
            governanceAction: { __typename: Cardano.GovernanceActionType.info_action },
            anchor: { url: 'https://example.com', dataHash: '00'.repeat(32) as never },
          },
        ];
      }),
      d.intent,
      /governance proposal/,
    );
    // A payout to a Byron-era address: it names no network, and it is not the wallet's.
    const byron = 'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi';
    refused(
      mutate(w.txHex, (b) => {
        const o = b.outputs[0] as Cardano.TxOut;
        b.outputs[0] = { ...o, address: Cardano.PaymentAddress(byron) };
      }),
      w.intent,
      /a Byron-era address that names no network/,
    );
  });

  it('reads only a Conway transaction of four parts, nothing before or after it', () => {
    const d = deposit(p);
    const unreadable = (hex: string) =>
      expect(() => review(hex, d.intent)).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidTransaction }),
      );
    // The same parts in an indefinite-length array, and a three-part (pre-Alonzo) transaction.
    unreadable(reframed(d.txHex, '9f', { end: 'ff' }));
    unreadable(reframed(d.txHex, '83', { shelley: true }));
    // Wrapped as CBOR in CBOR, and followed by a second transaction.
    const bytes = Buffer.from(d.txHex, 'hex');
    unreadable(
      `d818${bytes.length < 256 ? '58' : '59'}${bytes.length.toString(16).padStart(bytes.length < 256 ? 2 : 4, '0')}${d.txHex}`,
    );
    unreadable(`${d.txHex}${d.txHex}`);
  });
});
