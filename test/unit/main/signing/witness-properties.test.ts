import { Serialization } from '@cardano-sdk/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addVkeyWitnesses,
  checkIntent,
  decodeTransaction,
  splitTransaction,
  transactionIdOf,
  type DecodeContext,
} from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  decodeContextOf,
  makeParties,
  nonCanonical,
  orderBody,
  orderIntent,
  out,
  serialize,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';
import { verifyEd25519 } from '../../../fixtures/cardano/verify-ed25519';

let p: Parties;
let context: DecodeContext;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
  context = decodeContextOf(p);
});

const orderShape = fc.record({
  locked: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  change: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  extraOutputs: fc.integer({ min: 0, max: 3 }),
  ttl: fc.integer({ min: 1, max: 2 ** 31 }),
  canonical: fc.boolean(),
});

type OrderShape = typeof orderShape extends fc.Arbitrary<infer T> ? T : never;

const build = (shape: OrderShape): string => {
  const body = orderBody(p);
  body.outputs[0] = { ...out(p.profile.addresses.order ?? '', shape.locked), datum: 1n };
  body.outputs[1] = out(p.profile.addresses.account ?? '', shape.change);
  for (let i = 0; i < shape.extraOutputs; i++) {
    body.outputs.push(out(p.profile.addresses.account ?? '', BigInt(i + 1) * ADA));
  }
  body.validityInterval = { invalidHereafter: shape.ttl as never };
  const hex = serialize(body);
  return shape.canonical ? hex : nonCanonical(hex);
};

describe('properties of signing', () => {
  it('adding a witness never changes the body bytes or the id, and the signature verifies', () => {
    fc.assert(
      fc.property(orderShape, (shape) => {
        const txHex = build(shape);
        const tx = splitTransaction(txHex);
        const id = transactionIdOf(tx.body);
        const signature = p.operationKey.sign(Buffer.from(id, 'hex'));
        const signed = addVkeyWitnesses(tx, [{ vkey: p.operationKey.publicKey, signature }]);
        const after = splitTransaction(signed);
        expect(after.body.equals(tx.body)).toBe(true);
        expect(Serialization.Transaction.fromCbor(Serialization.TxCBOR(signed)).getId()).toBe(id);
        expect(verifyEd25519(p.operationKey.publicKey, Buffer.from(id, 'hex'), signature)).toBe(
          true,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('an order locking anything but the asked amount is always a difference', () => {
    fc.assert(
      fc.property(orderShape, fc.bigInt({ min: 1n, max: 10n ** 12n }), (shape, asked) => {
        fc.pre(asked !== shape.locked);
        const report = checkIntent(
          decodeTransaction(build(shape), context),
          { ...orderIntent, lock: { unit: 'lovelace', quantity: asked } },
          p.profile,
        );
        expect(report.differences.some((d) => d.startsWith('The order locks'))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
