import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addVkeyWitnesses,
  splitTransaction,
  type ExchangeProfile,
  type IntentReport,
  type KnownOutput,
  type SigningIntent,
} from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  ADA,
  cancelOrder,
  deposit,
  makeParties,
  mutate,
  onRealNetwork,
  realProfile,
  sellOrder,
  slotIn,
  txHash,
  USDM,
  withdrawal,
  type Parties,
  reviewOf,
} from '../../../fixtures/cardano/exchange-transactions';

/**
 * The signer's principles, one test each, each starting from an honest transaction the sandbox's
 * own builders produce (which must pass) and breaking the principle in more than one way. The
 * messages must name the principle broken.
 */

let p: Parties;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

const review = (
  txHex: string,
  intent: SigningIntent,
  profile: ExchangeProfile = p.profile,
  known: ReadonlyMap<string, KnownOutput> = new Map(),
): IntentReport => reviewOf(p, txHex, intent, profile, known);

const refusedFor = (report: IntentReport, principle: RegExp): void => {
  expect(report.differences.join(' ')).toMatch(principle);
};
const clean = (report: IntentReport): void => {
  expect(report).toEqual({ differences: [], warnings: [] });
};

const id = (s: string) => {
  const [hash = '', index = '0'] = s.split('#');
  return { txId: Cardano.TransactionId(hash), index: Number(index) };
};
const addr = (a: string) => Cardano.PaymentAddress(a);

describe('1. every input signed for is accounted for', () => {
  it('an order, a cancel and a withdrawal spend none of our coins, whatever address holds them', () => {
    const parked = `${txHash(9)}#0`;
    for (const where of [
      p.user.baseAddress,
      p.otherOwn.enterprise,
      p.otherOwn.pointer,
      p.otherOwn.foreignStake,
      p.otherOwn.operationKey,
    ]) {
      const known = new Map([[parked, { address: where, amounts: new Map([['lovelace', ADA]]) }]]);
      for (const honest of [sellOrder(p), cancelOrder(p), withdrawal(p)]) {
        clean(review(honest.txHex, honest.intent));
        const spent = mutate(honest.txHex, (b) => {
          b.inputs = [...b.inputs, id(parked)];
        });
        refusedFor(
          review(spent, honest.intent, p.profile, known),
          /every coin it spends|a cancel spends exactly the order it names/,
        );
      }
    }
  });

  it('a deposit spends exactly the coins chosen for it', () => {
    const d = deposit(p);
    clean(review(d.txHex, d.intent));
    const other = mutate(d.txHex, (b) => {
      b.inputs = [...b.inputs, id(`${txHash(9)}#0`)];
    });
    refusedFor(review(other, d.intent), /every coin it spends/);
  });
});

describe('2. value is conserved as the trader asked', () => {
  it('a withdrawal pays exactly the typed amount; a deposit returns all of its change', () => {
    const w = withdrawal(p);
    const less = mutate(w.txHex, (b) => {
      const o = b.outputs[0];
      if (o) b.outputs[0] = { ...o, value: { coins: 49n * ADA } };
    });
    const r = review(less, w.intent);
    refusedFor(r, /49 ADA to your wallet instead of 50 ADA/);
    refusedFor(r, /only what you asked for may leave your keys/);
    const d = deposit(p);
    const kept = mutate(d.txHex, (b) => {
      const o = b.outputs[1];
      if (o) b.outputs[1] = { ...o, value: { coins: o.value.coins - ADA } };
    });
    refusedFor(review(kept, d.intent), /more than its outputs and fee account for/);
  });

  it('a cancel returns at least what the order locks to the trader’s exchange account', () => {
    const c = cancelOrder(p);
    clean(review(c.txHex, c.intent));
    const short = mutate(c.txHex, (b) => {
      const o = b.outputs[1];
      if (o) b.outputs[1] = { ...o, value: { coins: 99n * ADA } };
    });
    refusedFor(review(short, c.intent), /returns 99 ADA to your exchange account instead of/);
  });
});

describe('2b. a cancel on a real network returns at least what the order record says it locks', () => {
  it('refuses any asset short of the record’s floor, takes the order’s minimum ADA coming back too', () => {
    const c = cancelOrder(p);
    const floor = {
      ...c.intent,
      refund: new Map([
        ['lovelace', 99n * ADA],
        [USDM, 0n],
      ]),
      refundAtLeast: true,
    };
    clean(review(c.txHex, floor));
    const short = mutate(c.txHex, (b) => {
      const o = b.outputs[1];
      if (o) b.outputs[1] = { ...o, value: { coins: 98n * ADA } };
    });
    refusedFor(
      review(short, floor),
      /returns 98 ADA to your exchange account instead of at least the 99 ADA the order locks/,
    );
    const tokenShort = {
      ...floor,
      refund: new Map([
        ['lovelace', 99n * ADA],
        [USDM, 1n],
      ]),
    };
    refusedFor(review(c.txHex, tokenShort), /instead of at least the 99 ADA \+ 0\.000001 USDM/);
  });
});

describe('3. "our address" is exactly the wallet’s base address', () => {
  it('refuses change or payouts to any other address of our payment key', () => {
    const d = deposit(p);
    const w = withdrawal(p);
    for (const other of [p.otherOwn.enterprise, p.otherOwn.pointer, p.otherOwn.foreignStake]) {
      const change = mutate(d.txHex, (b) => {
        const o = b.outputs[1];
        if (o) b.outputs[1] = { ...o, address: addr(other) };
      });
      refusedFor(review(change, d.intent), /your wallet’s own address/);
      const payout = mutate(w.txHex, (b) => {
        const o = b.outputs[0];
        if (o) b.outputs[0] = { ...o, address: addr(other) };
      });
      refusedFor(review(payout, w.intent), /your wallet’s own address|pays only your wallet/);
    }
  });
});

describe('4. time is bounded by the network profile', () => {
  it('refuses a start in the future, no expiry, or longer than a build lasts', () => {
    const s = sellOrder(p);
    const d = deposit(p);
    const set = (hex: string, v: Cardano.ValidityInterval) =>
      mutate(hex, (b) => {
        b.validityInterval = v;
      });
    refusedFor(
      review(
        set(s.txHex, { invalidBefore: slotIn(3600), invalidHereafter: slotIn(4000) }),
        s.intent,
      ),
      /in the future/,
    );
    refusedFor(review(set(s.txHex, {}), s.intent), /no expiry/);
    refusedFor(
      review(set(s.txHex, { invalidHereafter: slotIn(3600) }), s.intent),
      /longer than the 5 minutes/,
    );
    clean(review(set(d.txHex, { invalidHereafter: slotIn(3600) }), d.intent));
    refusedFor(
      review(set(d.txHex, { invalidHereafter: slotIn(86_400) }), d.intent),
      /longer than the 2 hours/,
    );
    // On production the bound comes from its own profile and its own slots.
    const production = realProfile(p, 'production');
    const sell = { ...s.intent };
    clean(review(onRealNetwork(s.txHex, 'production', 500), sell, production));
    refusedFor(
      review(onRealNetwork(s.txHex, 'production', 3600), sell, production),
      /must not outlive its build/,
    );
  });
});

describe('5. one cancel, one order', () => {
  it('a cancel spends exactly the order it names', () => {
    const c = cancelOrder(p);
    clean(review(c.txHex, c.intent));
    const two = mutate(c.txHex, (b) => {
      b.inputs = [...b.inputs, id(`${txHash(7)}#0`)];
    });
    refusedFor(review(two, c.intent), /a cancel spends exactly the order it names/);
    const other = cancelOrder(p, { orderUtxo: `${txHash(7)}#0` });
    refusedFor(review(other.txHex, c.intent), /does not spend the order being cancelled/);
  });
});

describe('6. witnesses are checked, not trusted', () => {
  it('refuses a signature claiming to be one of our keys that does not verify', () => {
    const s = sellOrder(p);
    const tx = splitTransaction(s.txHex);
    const forged = addVkeyWitnesses(tx, [
      { vkey: p.userKey.publicKey, signature: new Uint8Array(64) },
    ]);
    refusedFor(review(forged, s.intent), /does not verify/);
    const genuine = addVkeyWitnesses(tx, [
      {
        vkey: p.userKey.publicKey,
        signature: p.userKey.sign(
          Buffer.from(
            Serialization.Transaction.fromCbor(Serialization.TxCBOR(s.txHex)).getId(),
            'hex',
          ),
        ),
      },
    ]);
    refusedFor(
      review(genuine, s.intent),
      /wallet key’s, which this operation does not use|signatures already in it must be genuine/,
    );
  });
});

describe('7. canonical enough to read one way', () => {
  it('refuses a repeated body field, trailing bytes and chunked byte strings', () => {
    const s = sellOrder(p);
    const raw = Buffer.from(s.txHex, 'hex');
    // The body is the first item of the transaction array: a map; repeat its fee field.
    const reader = new Serialization.CborReader(HexBlob(s.txHex));
    reader.readStartArray();
    const body = Buffer.from(reader.readEncodedValue());
    const rest = raw.subarray(1 + body.length);
    const count = (body[0] as number) & 0x1f;
    const repeated = Buffer.concat([
      Buffer.from([0x84, 0xa0 | (count + 1)]),
      body.subarray(1),
      Buffer.from([0x02, 0x00]),
      rest,
    ]).toString('hex');
    const unreadable = (hex: string) =>
      expect(() => review(hex, s.intent)).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidTransaction }),
      );
    unreadable(repeated);
    unreadable(`${s.txHex}00`);
    // An input's transaction id as a chunked (indefinite-length) byte string.
    const hash = Buffer.from(txHash(1), 'hex');
    const at = raw.indexOf(Buffer.concat([Buffer.from([0x58, 0x20]), hash]));
    expect(at).toBeGreaterThan(0);
    const chunked = Buffer.concat([
      raw.subarray(0, at),
      Buffer.from([0x5f, 0x50]),
      hash.subarray(0, 16),
      Buffer.from([0x50]),
      hash.subarray(16),
      Buffer.from([0xff]),
      raw.subarray(at + 34),
    ]).toString('hex');
    unreadable(chunked);
  });
});

describe('8. nothing unexplained rides along', () => {
  it('refuses a datum, a certificate, collateral, a mint or a signer the operation does not need', () => {
    const d = deposit(p);
    const cases: Array<(b: Cardano.TxBody) => void> = [
      (b) => {
        const o = b.outputs[1];
        if (o) b.outputs[1] = { ...o, datum: Serialization.PlutusData.newInteger(1n).toCore() };
      },
      (b) => {
        b.certificates = [
          {
            __typename: Cardano.CertificateType.StakeRegistration,
            stakeCredential: {
              type: Cardano.CredentialType.KeyHash,
              hash: Crypto.Hash28ByteBase16(p.user.stakeKeyHash),
            },
          },
        ];
      },
      (b) => {
        b.collaterals = [id(`${txHash(3)}#0`)];
      },
      (b) => {
        b.mint = new Map([[Cardano.AssetId(`${'ab'.repeat(28)}00`), 1n]]);
      },
      (b) => {
        b.requiredExtraSignatures = [
          ...(b.requiredExtraSignatures ?? []),
          Crypto.Ed25519KeyHashHex(p.strangerKeyHash),
        ];
      },
    ];
    for (const change of cases) {
      const r = review(mutate(d.txHex, change), d.intent);
      expect(r.differences.length).toBeGreaterThan(0);
    }
  });
});

describe('9. terms never go unchecked silently', () => {
  it('an order without the trader’s terms is refused, or a named warning on staging', () => {
    const s = sellOrder(p);
    const { terms: _t, ...bare } = s.intent;
    refusedFor(review(s.txHex, bare), /could not verify the order’s terms/);
    const staging = realProfile(p, 'staging');
    const r = review(onRealNetwork(s.txHex, 'staging'), bare, staging);
    expect(r.differences).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/could not verify the order’s terms/);
  });
});

describe('10. messages say what is true', () => {
  it('names the output, the amount in human units and the principle, never internals', () => {
    const s = sellOrder(p);
    const stranger = mutate(s.txHex, (b) => {
      b.outputs = [...b.outputs, { address: addr(p.stranger), value: { coins: 12_500_000n } }];
    });
    const text = review(stranger, s.intent).differences.join(' ');
    expect(text).toMatch(/Output 2/);
    expect(text).toMatch(/12\.5 ADA/);
    expect(text).toMatch(/\(.+\)\./);
    expect(text).not.toMatch(/undefined|NaN|\[object|lovelace\b|Error:/);
  });
});
