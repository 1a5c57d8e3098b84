import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_ADDRESSES, INTENT_TOKEN } from '../../../src-sandbox/addresses.js';
import { NIGHT, USDM } from '../../../src-sandbox/assets.js';
import {
  cancelOrderIntent,
  encodePlutusData,
  placeOrderIntent,
  withdrawalIntent,
  type LayoutOrder,
  type PlutusData,
} from '../../../src-sandbox/intent-layout.js';
import {
  buildTransaction,
  checkSignatures,
  parseSignedTx,
  REDEEMER_EX_UNITS,
  scriptDataHash,
  splitUtxoId,
  type TxSpec,
} from '../../../src-sandbox/transactions.js';
import { TestKey } from './helpers.js';

beforeAll(() => Crypto.ready());

/** The SDK's own model of a Plutus datum, to write it with the SDK's serializer. */
function toCore(d: PlutusData): Cardano.PlutusData {
  if (typeof d === 'bigint' || d instanceof Uint8Array) return d;
  if ('constr' in d)
    return { constructor: BigInt(d.constr), fields: { items: d.fields.map(toCore) } };
  if ('pairs' in d) return { data: new Map(d.pairs.map(([k, v]) => [toCore(k), toCore(v)])) };
  return { items: d.map(toCore) };
}

/** The same transaction built from @cardano-sdk/core's Serialization objects: the reference. */
function referenceTransaction(spec: TxSpec): string {
  const inputs = spec.inputs.map((id) => {
    const { txHash, index } = splitUtxoId(id);
    return new Serialization.TransactionInput(
      Cardano.TransactionId(txHash),
      BigInt(index),
    ).toCore();
  });
  const outputs = spec.outputs.map((o) => {
    const assets = new Map<Cardano.AssetId, bigint>();
    for (const [unit, q] of o.amounts)
      if (unit !== 'lovelace' && q > 0n) assets.set(Cardano.AssetId(unit), q);
    const output = new Serialization.TransactionOutput(
      Cardano.Address.fromBech32(o.address),
      new Serialization.Value(o.amounts.get('lovelace') ?? 0n, assets.size ? assets : undefined),
    );
    if (o.datum) {
      const datum = Serialization.PlutusData.fromCbor(
        HexBlob(Buffer.from(o.datum).toString('hex')),
      );
      output.setDatum(Serialization.Datum.newInlineData(datum));
    }
    return output;
  });
  const body = new Serialization.TransactionBody(
    Serialization.CborSet.fromCore(inputs, Serialization.TransactionInput.fromCore),
    outputs,
    spec.fee,
    Cardano.Slot(spec.ttlSlot),
  );
  if (spec.mint?.size) {
    body.setMint(new Map([...spec.mint].map(([unit, q]) => [Cardano.AssetId(unit), q])));
  }
  const witnessSet = new Serialization.TransactionWitnessSet();
  if (spec.redeemers?.length) {
    const redeemers = Serialization.Redeemers.fromCore(
      spec.redeemers.map((r) => ({
        purpose: r.tag === 'mint' ? Cardano.RedeemerPurpose.mint : Cardano.RedeemerPurpose.spend,
        index: r.index,
        data: Serialization.PlutusData.fromCbor(
          HexBlob(Buffer.from(r.data).toString('hex')),
        ).toCore(),
        executionUnits: {
          memory: Number(REDEEMER_EX_UNITS.mem),
          steps: Number(REDEEMER_EX_UNITS.steps),
        },
      })),
    );
    witnessSet.setRedeemers(redeemers);
    body.setScriptDataHash(
      Crypto.Hash32ByteBase16(scriptDataHash(Buffer.from(redeemers.toCbor(), 'hex'))),
    );
  }
  body.setRequiredSigners(
    Serialization.CborSet.fromCore(
      spec.requiredSigners.map((h) => Crypto.Ed25519KeyHashHex(h)),
      Serialization.Hash.fromCore,
    ),
  );
  body.setNetworkId(Cardano.NetworkId.Testnet);
  return new Serialization.Transaction(body, witnessSet).toCbor();
}

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const uuid = hex(16).map(
  (h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
);
const quantity = fc.bigInt({ min: 0n, max: 2n ** 63n });
const unit = fc.constantFrom('lovelace', USDM.unit, NIGHT.unit);
const account = fc.record({ accountId: uuid, masterKeyHash: hex(28), operationKeyHash: hex(28) });
const order: fc.Arbitrary<LayoutOrder> = fc.record({
  orderId: uuid,
  longUnit: unit,
  shortUnit: unit,
  isLong: fc.boolean(),
  priceTimes1e9: fc.bigInt({ min: 0n, max: 10n ** 18n }),
  size: quantity,
  feeBp: fc.integer({ min: 0, max: 10_000 }),
  account,
});
const amounts = fc
  .array(
    fc.tuple(
      unit,
      quantity.filter((q) => q > 0n),
    ),
    { maxLength: 3 },
  )
  .map((entries) => new Map(entries));
/** Every datum the sandbox writes, from the published layout. */
const datum: fc.Arbitrary<PlutusData> = fc.oneof(
  order.map(placeOrderIntent),
  fc.tuple(account, uuid).map(([a, id]) => cancelOrderIntent(a, id)),
  fc.tuple(account, amounts).map(([a, m]) => withdrawalIntent(a, m)),
);
const output = fc.record({
  address: fc.constantFrom(...Object.values(EXCHANGE_ADDRESSES)),
  lovelace: quantity,
  usdm: fc.option(quantity.filter((q) => q > 0n)),
  night: fc.option(quantity.filter((q) => q > 0n)),
  datum: fc.option(datum),
});

describe('the published layout', () => {
  it('writes every datum byte for byte as the SDK writes the same Plutus data', () => {
    fc.assert(
      fc.property(datum, (d) => {
        expect(Buffer.from(encodePlutusData(d)).toString('hex')).toBe(
          Serialization.PlutusData.fromCore(toCore(d)).toCbor(),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('writes PlaceOrderIntent as README.md shows it', () => {
    const d = placeOrderIntent({
      orderId: '00000000-0000-4000-8000-000000000001',
      longUnit: 'lovelace',
      shortUnit: USDM.unit,
      isLong: true,
      priceTimes1e9: 650_000_000n,
      size: 10_000_000n,
      feeBp: 10,
      account: {
        accountId: '00000000-0000-4000-8000-000000000002',
        masterKeyHash: 'aa'.repeat(28),
        operationKeyHash: 'bb'.repeat(28),
      },
    });
    const usdmPolicy = USDM.unit.slice(0, 56);
    const usdmName = USDM.unit.slice(56);
    expect(Buffer.from(encodePlutusData(d)).toString('hex')).toBe(
      [
        'd8799f', // PlaceOrderIntent
        'd8799f', // order
        '5000000000000040008000000000000001', // order_id
        '9f4040ff', // long token: ADA ("", "")
        `9f581c${usdmPolicy}44${usdmName}ff`, // short token: USDM
        'd87a80', // is_long: True
        '1a26be3680', // price × 10^9 (0.65)
        '1a00989680', // size: 10 ADA in lovelace
        '0a', // fee bp
        'd8799fd8799f', // UserSpotAccount(Account(
        '5000000000000040008000000000000002', // account_id
        `d8799f581c${'aa'.repeat(28)}ff`, // master key: VerificationKey credential
        `d8799f581c${'bb'.repeat(28)}ff`, // operation key
        'ffff', // ))
        'ff', // order
        'ff', // PlaceOrderIntent
      ].join(''),
    );
  });
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
        fc.option(datum),
        (inputs, outputs, fee, ttlSlot, requiredSigners, redeemer) => {
          const spec: TxSpec = {
            inputs: inputs.map(([h, i]) => `${h}#${i}`),
            outputs: outputs.map((o) => {
              const amounts = new Map<string, bigint>([['lovelace', o.lovelace]]);
              if (o.usdm !== null) amounts.set(USDM.unit, o.usdm);
              if (o.night !== null) amounts.set(NIGHT.unit, o.night);
              return {
                address: o.address,
                amounts,
                ...(o.datum ? { datum: encodePlutusData(o.datum) } : {}),
              };
            }),
            fee,
            ttlSlot,
            requiredSigners,
            ...(redeemer
              ? {
                  mint: new Map([[INTENT_TOKEN, 1n]]),
                  redeemers: [{ tag: 'mint' as const, index: 0, data: encodePlutusData(redeemer) }],
                }
              : {}),
          };
          const built = buildTransaction(spec);
          expect(built.txHex).toBe(referenceTransaction(spec));
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
    outputs: [{ address: EXCHANGE_ADDRESSES.intent, amounts: new Map([['lovelace', 5_000_000n]]) }],
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

  it('accepts redeemers only as the script data hash states them', () => {
    const key = new TestKey();
    const redeemer = encodePlutusData(
      withdrawalIntent(
        {
          accountId: '00000000-0000-4000-8000-000000000002',
          masterKeyHash: key.hash,
          operationKeyHash: key.hash,
        },
        new Map([['lovelace', 5_000_000n]]),
      ),
    );
    const built = buildTransaction({
      ...spec,
      requiredSigners: [key.hash],
      mint: new Map([[INTENT_TOKEN, 1n]]),
      redeemers: [{ tag: 'mint', index: 0, data: redeemer }],
    });
    const signed = key.sign(built.txHex);
    const parsed = parseSignedTx(signed, { txId: built.txId, bodyHex: built.bodyHex });
    expect(() => checkSignatures(parsed, [key.hash])).not.toThrow();
    const w = parsed.witnesses[0] as { vkey: string; signature: string };
    const vkeys = `00d9010281825820${w.vkey}5840${w.signature}`;
    const redeemers = signed.slice(signed.indexOf('0581840100') + 2, -4);
    // The same redeemers with another execution budget, and none at all: both refused.
    const otherBudget = redeemers.replace('821a000f4240', '821a000f4241');
    expect(otherBudget).not.toBe(redeemers);
    for (const bad of [
      `84${built.bodyHex}a2${vkeys}05${otherBudget}f5f6`,
      `84${built.bodyHex}a1${vkeys}f5f6`,
    ]) {
      expect(() => parseSignedTx(bad)).toThrow(/signed_tx/);
      expect(() => parseSignedTx(bad, { txId: built.txId, bodyHex: built.bodyHex })).toThrow(
        /signed_tx/,
      );
    }
    expect(parseSignedTx(`84${built.bodyHex}a2${vkeys}05${redeemers}f5f6`).witnesses).toEqual([w]);
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
