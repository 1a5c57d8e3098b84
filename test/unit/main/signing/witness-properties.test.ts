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
import { placeOrderTransaction } from '../../../../src-sandbox/intent-transactions';
import { slotAt } from '../../../../src-sandbox/transactions';
import {
  decodeContextOf,
  makeParties,
  nonCanonical,
  sellOrder,
  txHash,
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
  ttlSeconds: fc.integer({ min: 1, max: 300 }),
  canonical: fc.boolean(),
});

type OrderShape = typeof orderShape extends fc.Arbitrary<infer T> ? T : never;

/** A sell of `locked` lovelace, as the sandbox builds it, canonical or not. */
const build = (shape: OrderShape): string => {
  const { txHex } = placeOrderTransaction({
    accountUtxo: `${txHash(1)}#0`,
    accountAddress: p.profile.addresses.account ?? '',
    order: {
      orderId: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
      longUnit: 'lovelace',
      shortUnit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
      isLong: false,
      priceTimes1e9: 500_000_000n,
      size: shape.locked,
      feeBp: 10,
      account: p.keys,
    },
    locked: new Map([['lovelace', shape.locked]]),
    change: new Map([['lovelace', shape.change]]),
    ttlSlot: slotAt(Date.now() + shape.ttlSeconds * 1000),
  });
  return shape.canonical ? txHex : nonCanonical(txHex);
};
const orderIntent = sellOrder(makeParties()).intent;

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
        expect(report.differences.some((d) => d.startsWith('Output 0 (the order) locks'))).toBe(
          true,
        );
      }),
      { numRuns: 60 },
    );
  });
});
