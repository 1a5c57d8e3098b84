import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_ADDRESSES } from '../../../src-sandbox/addresses.js';
import { NIGHT, USDM } from '../../../src-sandbox/assets.js';
import {
  buildTransaction,
  checkSignatures,
  orderDatum,
  parseSignedTx,
  splitUtxoId,
  type OrderDatum,
  type TxSpec,
} from '../../../src-sandbox/transactions.js';
import { TestKey } from './helpers.js';

beforeAll(() => Crypto.ready());

/** The same transaction built from @cardano-sdk/core's Serialization objects: the reference. */
function referenceTransaction(spec: TxSpec, datums: (OrderDatum | undefined)[]): string {
  const inputs = spec.inputs.map((id) => {
    const { txHash, index } = splitUtxoId(id);
    return new Serialization.TransactionInput(
      Cardano.TransactionId(txHash),
      BigInt(index),
    ).toCore();
  });
  const outputs = spec.outputs.map((o, i) => {
    const assets = new Map<Cardano.AssetId, bigint>();
    for (const [unit, q] of o.amounts)
      if (unit !== 'lovelace' && q > 0n) assets.set(Cardano.AssetId(unit), q);
    const output = new Serialization.TransactionOutput(
      Cardano.Address.fromBech32(o.address),
      new Serialization.Value(o.amounts.get('lovelace') ?? 0n, assets.size ? assets : undefined),
    );
    const d = datums[i];
    if (d) {
      const fields = new Serialization.PlutusList();
      const tag = (n: bigint) =>
        Serialization.PlutusData.newConstrPlutusData(
          new Serialization.ConstrPlutusData(n, new Serialization.PlutusList()),
        );
      fields.add(
        Serialization.PlutusData.newBytes(Buffer.from(d.orderId.replaceAll('-', ''), 'hex')),
      );
      fields.add(
        Serialization.PlutusData.newBytes(Buffer.from(d.accountId.replaceAll('-', ''), 'hex')),
      );
      fields.add(tag(d.side === 'buy' ? 0n : 1n));
      fields.add(tag(d.type === 'limit' ? 0n : 1n));
      fields.add(Serialization.PlutusData.newInteger(d.priceTicks));
      fields.add(Serialization.PlutusData.newInteger(d.quantityUnits));
      fields.add(Serialization.PlutusData.newInteger(BigInt(d.slippageBp)));
      fields.add(Serialization.PlutusData.newBytes(Buffer.from(d.operationKeyHash, 'hex')));
      output.setDatum(
        Serialization.Datum.newInlineData(
          Serialization.PlutusData.newConstrPlutusData(
            new Serialization.ConstrPlutusData(0n, fields),
          ),
        ),
      );
    }
    return output;
  });
  const body = new Serialization.TransactionBody(
    Serialization.CborSet.fromCore(inputs, Serialization.TransactionInput.fromCore),
    outputs,
    spec.fee,
    Cardano.Slot(spec.ttlSlot),
  );
  body.setRequiredSigners(
    Serialization.CborSet.fromCore(
      spec.requiredSigners.map((h) => Crypto.Ed25519KeyHashHex(h)),
      Serialization.Hash.fromCore,
    ),
  );
  body.setNetworkId(Cardano.NetworkId.Testnet);
  return new Serialization.Transaction(body, new Serialization.TransactionWitnessSet()).toCbor();
}

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const uuid = hex(16).map(
  (h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
);
const quantity = fc.bigInt({ min: 0n, max: 2n ** 63n });
const datum: fc.Arbitrary<OrderDatum> = fc.record({
  orderId: uuid,
  accountId: uuid,
  side: fc.constantFrom('buy' as const, 'sell' as const),
  type: fc.constantFrom('limit' as const, 'market' as const),
  priceTicks: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  quantityUnits: quantity,
  slippageBp: fc.integer({ min: 0, max: 10_000 }),
  operationKeyHash: hex(28),
});
const output = fc.record({
  address: fc.constantFrom(...Object.values(EXCHANGE_ADDRESSES)),
  lovelace: quantity,
  usdm: fc.option(quantity.filter((q) => q > 0n)),
  night: fc.option(quantity.filter((q) => q > 0n)),
  datum: fc.option(datum),
});

describe('transaction building', () => {
  it('writes byte for byte what the SDK Serialization objects write', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(hex(32), fc.nat(300)), { minLength: 1, maxLength: 3 }),
        fc.array(output, { minLength: 1, maxLength: 3 }),
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.nat(2 ** 31),
        fc.array(hex(28), { minLength: 1, maxLength: 2 }),
        (inputs, outputs, fee, ttlSlot, requiredSigners) => {
          const spec: TxSpec = {
            inputs: inputs.map(([h, i]) => `${h}#${i}`),
            outputs: outputs.map((o) => {
              const amounts = new Map<string, bigint>([['lovelace', o.lovelace]]);
              if (o.usdm !== null) amounts.set(USDM.unit, o.usdm);
              if (o.night !== null) amounts.set(NIGHT.unit, o.night);
              return {
                address: o.address,
                amounts,
                ...(o.datum ? { datum: orderDatum(o.datum) } : {}),
              };
            }),
            fee,
            ttlSlot,
            requiredSigners,
          };
          const built = buildTransaction(spec);
          expect(built.txHex).toBe(
            referenceTransaction(
              spec,
              outputs.map((o) => o.datum ?? undefined),
            ),
          );
          const parsed = Serialization.Transaction.fromCbor(Serialization.TxCBOR(built.txHex));
          expect(parsed.getId()).toBe(built.txId);
          expect(parsed.toCbor()).toBe(built.txHex);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('signed transaction checks', () => {
  const spec: TxSpec = {
    inputs: [`${'ab'.repeat(32)}#0`],
    outputs: [{ address: EXCHANGE_ADDRESSES.order, amounts: new Map([['lovelace', 5_000_000n]]) }],
    fee: 0n,
    ttlSlot: 100,
    requiredSigners: [],
  };

  it('reads the id and witnesses with or without the expected body', () => {
    const key = new TestKey();
    const built = buildTransaction({ ...spec, requiredSigners: [key.hash] });
    const signed = key.sign(built.txHex);
    for (const expected of [undefined, { txId: built.txId, bodyHex: built.bodyHex }]) {
      const parsed = parseSignedTx(signed, expected);
      expect(parsed.txId).toBe(built.txId);
      expect(parsed.witnesses.map((w) => w.vkey)).toEqual([key.publicKeyHex]);
      expect(() => checkSignatures(parsed, [key.hash])).not.toThrow();
    }
    expect(parseSignedTx(signed.toUpperCase()).txId).toBe(built.txId);
  });

  it('refuses trailing bytes, a wrong shape and non-hex', () => {
    const key = new TestKey();
    const built = buildTransaction({ ...spec, requiredSigners: [key.hash] });
    const signed = key.sign(built.txHex);
    for (const bad of [
      `${signed}00`,
      `83${signed.slice(2)}`,
      signed.slice(0, -2) + 'f4',
      'xyz',
      '0',
    ]) {
      expect(() => parseSignedTx(bad)).toThrow(/signed_tx/);
      expect(() => parseSignedTx(bad, { txId: built.txId, bodyHex: built.bodyHex })).toThrow(
        /signed_tx/,
      );
    }
  });

  it('reads vkey witnesses as a plain or a tagged (258) set, and refuses other witnesses', () => {
    const key = new TestKey();
    const built = buildTransaction({ ...spec, requiredSigners: [key.hash] });
    const signed = parseSignedTx(key.sign(built.txHex));
    const w = signed.witnesses[0] as { vkey: string; signature: string };
    const vkeyWitness = `825820${w.vkey}5840${w.signature}`;
    const tagged = `84${built.bodyHex}a100d9010281${vkeyWitness}f5f6`;
    expect(parseSignedTx(tagged).witnesses).toEqual([w]);
    const withScripts = `84${built.bodyHex}a200d9010281${vkeyWitness}0180f5f6`;
    expect(() => parseSignedTx(withScripts)).toThrow(/signed_tx/);
    const invalidFlag = `84${built.bodyHex}a0f4f6`;
    expect(() => parseSignedTx(invalidFlag)).toThrow(/signed_tx/);
  });

  it('requires exactly the required signers', () => {
    const a = new TestKey();
    const b = new TestKey();
    const built = buildTransaction({ ...spec, requiredSigners: [a.hash, b.hash] });
    const one = parseSignedTx(a.sign(built.txHex));
    expect(() => checkSignatures(one, [a.hash, b.hash])).toThrow(/not signed by the required key/);
    const both = parseSignedTx(b.sign(a.sign(built.txHex)));
    expect(() => checkSignatures(both, [a.hash, b.hash])).not.toThrow();
    expect(() => checkSignatures(both, [a.hash])).toThrow(/not a required signer/);
  });
});
