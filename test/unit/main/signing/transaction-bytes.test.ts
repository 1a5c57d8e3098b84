import { Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  addVkeyWitnesses,
  keyHashOf,
  splitTransaction,
  transactionIdOf,
} from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  makeParties,
  nonCanonical,
  sellOrder,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';
import { verifyEd25519 } from '../../../fixtures/cardano/verify-ed25519';

let p: Parties;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

const signWith = (txHex: string, key: Parties['operationKey']): string => {
  const tx = splitTransaction(txHex);
  const id = Buffer.from(transactionIdOf(tx.body), 'hex');
  return addVkeyWitnesses(tx, [{ vkey: key.publicKey, signature: key.sign(id) }]);
};

describe('witnesses added without re-encoding', () => {
  it.each([
    ['canonical', (hex: string) => hex],
    ['non-canonical', nonCanonical],
  ])(
    'keeps the %s body bytes and the tx id; the signature verifies with node:crypto',
    (_n, shape) => {
      const txHex = shape(sellOrder(p).txHex);
      const before = splitTransaction(txHex);
      const id = transactionIdOf(before.body);
      const signed = signWith(txHex, p.operationKey);
      const after = splitTransaction(signed);

      expect(after.body.equals(before.body)).toBe(true);
      expect(after.head.equals(before.head)).toBe(true);
      expect(after.tail.equals(before.tail)).toBe(true);
      expect(signed.startsWith(before.head.toString('hex') + before.body.toString('hex'))).toBe(
        true,
      );
      const parsed = Serialization.Transaction.fromCbor(Serialization.TxCBOR(signed));
      expect(parsed.getId()).toBe(id);
      const [witness] = parsed.witnessSet().vkeys()?.values() ?? [];
      expect(witness?.vkey()).toBe(p.operationKey.publicKey.toString('hex'));
      expect(
        verifyEd25519(
          p.operationKey.publicKey,
          Buffer.from(id, 'hex'),
          Buffer.from(witness?.signature() ?? '', 'hex'),
        ),
      ).toBe(true);
    },
  );

  it('the non-canonical fixture really differs from what the SDK would re-encode', () => {
    const txHex = nonCanonical(sellOrder(p).txHex);
    const body = splitTransaction(txHex).body;
    const reencoded = Serialization.TransactionBody.fromCore(
      Serialization.TransactionBody.fromCbor(
        Serialization.TxCBOR(body.toString('hex')) as never,
      ).toCore(),
    ).toCbor();
    expect(reencoded).not.toBe(body.toString('hex'));
  });

  it('keeps earlier witnesses and never adds the same key twice', () => {
    const once = signWith(sellOrder(p).txHex, p.userKey);
    const twice = signWith(once, p.operationKey);
    const again = signWith(twice, p.operationKey);
    const vkeys = Serialization.Transaction.fromCbor(Serialization.TxCBOR(again))
      .witnessSet()
      .vkeys()
      ?.values()
      .map((w) => w.vkey());
    expect(vkeys).toEqual([
      p.userKey.publicKey.toString('hex'),
      p.operationKey.publicKey.toString('hex'),
    ]);
    expect(again).toBe(twice);
  });

  it.each([
    ['not hex', 'zz'],
    ['odd length', 'abc'],
    ['not a transaction', '01'],
    ['a truncated transaction', sellOrder(makeParties()).txHex.slice(0, 60)],
    ['trailing bytes', `${sellOrder(makeParties()).txHex}00`],
  ])('refuses %s as INVALID_TRANSACTION', (_name, hex) => {
    expect(() => splitTransaction(hex)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidTransaction }),
    );
  });
});

describe('hashes', () => {
  it('give the SDK’s BLAKE2b digests: transaction ids (256 bits) and key hashes (224 bits)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 3000 }), (bytes) => {
        const hex = HexBlob(Buffer.from(bytes).toString('hex'));
        expect(transactionIdOf(bytes)).toBe(Crypto.blake2b.hash(hex, 32));
        expect(keyHashOf(bytes)).toBe(Crypto.blake2b.hash(hex, 28));
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });
});
