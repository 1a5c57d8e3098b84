import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkIntent,
  decodeTransaction,
  readPlutusData,
  type DecodeContext,
  type KnownOutput,
  type PlutusData as ReadData,
  type SigningIntent,
} from '../../../../src-main/signing';
import { encodePlutusData, type PlutusData } from '../../../../src-sandbox/intent-layout';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  buyOrder,
  cancelOrder,
  decodeContextOf,
  deposit,
  makeParties,
  sellOrder,
  slotIn,
  txHash,
  USDM,
  withdrawal,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';

/**
 * Mutations of honest sandbox-built transactions, as a hostile exchange would send them: an input
 * or output added, dropped or changed, an address, an amount, an asset, a datum, the validity
 * interval, a field of the body, raw CBOR oddities. Every mutation that changes who gets what or
 * when must be refused; the ones that change nothing of that (a reference input, metadata whose
 * hash the body states) must be decided the same way every time, whatever their content.
 * Fixed seed; a failing run prints the mutation and the transaction.
 */

const SEED = 20_261_123;
const RUNS = Number(process.env['MUTATION_RUNS'] ?? 2000);
/** The SDK's metadata encoding makes these slower; a few hundred cover both kinds many times. */
const NEUTRAL_RUNS = 300;

let p: Parties;
let context: DecodeContext;
let tried = 0;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
  context = decodeContextOf(p);
});
afterAll(() => {
  // The count of mutations tried, for the closing report.
  console.info(`mutation.property: ${tried} mutations tried`);
});

type Kind = 'sell' | 'buy' | 'cancel' | 'deposit' | 'withdrawal';
interface Base {
  txHex: string;
  intent: SigningIntent;
  known: ReadonlyMap<string, KnownOutput>;
}

const baseOf = (kind: Kind): Base => {
  const honest =
    kind === 'sell'
      ? sellOrder(p)
      : kind === 'buy'
        ? buyOrder(p)
        : kind === 'cancel'
          ? cancelOrder(p)
          : kind === 'deposit'
            ? deposit(p)
            : withdrawal(p);
  const known: Map<string, KnownOutput> = new Map(
    honest.intent.kind === 'deposit' ? honest.intent.inputs : [],
  );
  // The wallet's other coins, which no operation may touch beyond what it chose.
  known.set(`${txHash(9)}#0`, {
    address: p.user.baseAddress,
    amounts: new Map([['lovelace', 40n * ADA]]),
  });
  known.set(`${txHash(9)}#1`, {
    address: p.otherOwn.enterprise,
    amounts: new Map([['lovelace', 7n * ADA]]),
  });
  if (honest.intent.kind !== 'deposit') {
    // The exchange's one input (account, order or treasury UTxO) as the app would look it up:
    // exactly what the honest transaction's outputs and fee take from it.
    const tx = asTx(honest.txHex);
    const [input] = tx.body.inputs;
    const amounts = new Map<string, bigint>([['lovelace', tx.body.fee]]);
    const add = (unit: string, q: bigint) => amounts.set(unit, (amounts.get(unit) ?? 0n) + q);
    for (const o of tx.body.outputs) {
      add('lovelace', o.value.coins);
      for (const [unit, q] of o.value.assets ?? []) add(unit, q);
    }
    for (const [unit, q] of tx.body.mint ?? []) add(unit, -q);
    if (input) {
      known.set(`${input.txId}#${input.index}`, {
        address:
          (honest.intent.kind === 'withdrawal'
            ? p.profile.addresses.treasury
            : p.profile.addresses.account) ?? '',
        amounts: new Map([...amounts].filter(([, q]) => q !== 0n)),
      });
    }
  }
  // An order names the account UTxO it spends where the app knows it (see `PlaceOrderIntent`).
  const [first] = asTx(honest.txHex).body.inputs;
  // A withdrawal names the exchange's coins it may spend, as the app would look them up.
  const firstId = first ? `${first.txId}#${first.index}` : '';
  const payout = known.get(firstId);
  const intent: SigningIntent =
    honest.intent.kind === 'place-order'
      ? { ...honest.intent, accountUtxo: firstId }
      : honest.intent.kind === 'withdrawal' && payout
        ? { ...honest.intent, exchangeUtxos: new Map([[firstId, payout]]) }
        : honest.intent;
  return { txHex: honest.txHex, intent, known };
};

/** Refused: a difference, or unreadable. */
const verdict = (base: Base, txHex: string): { refused: boolean; why: string } => {
  try {
    const decoded = decodeTransaction(txHex, { ...context, knownOutputs: base.known });
    const report = checkIntent(decoded, base.intent, p.profile);
    return {
      refused: report.differences.length > 0,
      why: [...report.differences, ...report.warnings].join(' | '),
    };
  } catch (error) {
    return { refused: true, why: error instanceof Error ? error.message : String(error) };
  }
};

const hash28 = (n: number) => Crypto.Hash28ByteBase16(n.toString(16).padStart(2, '0').repeat(28));

/** Addresses a hostile exchange would pay to instead. */
const addressPool = (): string[] => [
  p.stranger,
  p.otherOwn.enterprise,
  p.otherOwn.foreignStake,
  p.otherOwn.pointer,
  p.otherOwn.operationKey,
  p.user.baseAddress,
  p.profile.addresses.account ?? '',
  p.profile.addresses.intent ?? '',
  p.profile.addresses.deposit ?? '',
  p.profile.addresses.treasury ?? '',
];

interface Mutation {
  name: string;
  /** Changes who gets what or when: must be refused. */
  harmful: boolean;
  apply: (txHex: string) => string;
}

/** The SDK's parse is slow (tens of ms here): each honest transaction is parsed once. */
const parsed = new Map<string, Cardano.Tx>();
const asTx = (txHex: string): Cardano.Tx => {
  let tx = parsed.get(txHex);
  if (!tx) {
    tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex)).toCore();
    parsed.set(txHex, tx);
  }
  return structuredClone(tx);
};

/** `mutate` of the fixtures, from the cached parse. */
const mutate = (txHex: string, change: (body: Cardano.TxBody, tx: Cardano.Tx) => void): string => {
  const tx = asTx(txHex);
  change(tx.body, tx);
  return Serialization.Transaction.fromCore(tx).toCbor();
};

const plutus = (n: bigint): Serialization.PlutusData => Serialization.PlutusData.newInteger(n);

/** Mutations of the core transaction, re-serialized by the Cardano SDK. */
const coreMutation = (txHex: string): fc.Arbitrary<Mutation> => {
  const tx = asTx(txHex);
  const nOut = tx.body.outputs.length;
  const nIn = tx.body.inputs.length;
  const pool = addressPool();
  const outIndex = fc.integer({ min: 0, max: nOut - 1 });
  const m = (
    name: string,
    harmful: boolean,
    change: (b: Cardano.TxBody, t: Cardano.Tx) => void,
  ) => ({
    name,
    harmful,
    apply: (hex: string) => mutate(hex, change),
  });
  const ownInput = fc.constantFrom(`${txHash(9)}#0`, `${txHash(9)}#1`);
  return fc.oneof(
    // Inputs.
    fc.tuple(fc.integer({ min: 10, max: 250 }), fc.integer({ min: 0, max: 9 })).map(([h, i]) =>
      m(`add input ${txHash(h).slice(0, 6)}#${i}`, true, (b) => {
        b.inputs = [...b.inputs, { txId: Cardano.TransactionId(txHash(h)), index: i }];
      }),
    ),
    ownInput.map((id) =>
      m(`add own input ${id.slice(0, 6)}…${id.slice(-2)}`, true, (b) => {
        const [hash = '', index = '0'] = id.split('#');
        b.inputs = [...b.inputs, { txId: Cardano.TransactionId(hash), index: Number(index) }];
      }),
    ),
    fc.integer({ min: 0, max: nIn - 1 }).map((i) =>
      m(`drop input ${i}`, true, (b) => {
        b.inputs = b.inputs.filter((_x, j) => j !== i);
      }),
    ),
    fc.tuple(fc.integer({ min: 0, max: nIn - 1 }), fc.integer({ min: 1, max: 9 })).map(([i, d]) =>
      m(`move input ${i} to another index (+${d})`, true, (b) => {
        b.inputs = b.inputs.map((x, j) => (j === i ? { ...x, index: x.index + d } : x));
      }),
    ),
    // Outputs.
    fc
      .tuple(fc.constantFrom(...pool), fc.bigInt({ min: 1_000_000n, max: 10n ** 9n }))
      .map(([address, coins]) =>
        m(`add output of ${coins} lovelace to ${address.slice(0, 16)}…`, true, (b) => {
          b.outputs = [
            ...b.outputs,
            { address: Cardano.PaymentAddress(address), value: { coins } },
          ];
        }),
      ),
    outIndex.map((i) =>
      m(`drop output ${i}`, true, (b) => {
        b.outputs = b.outputs.filter((_x, j) => j !== i);
      }),
    ),
    fc.tuple(outIndex, fc.constantFrom(...pool)).map(([i, address]) =>
      m(`output ${i} to ${address.slice(0, 16)}…`, true, (b) => {
        const o = b.outputs[i];
        if (o && o.address === address) {
          // Same address: move it to the stranger instead, so the mutation changes something.
          b.outputs[i] = { ...o, address: Cardano.PaymentAddress(p.stranger) };
        } else if (o) b.outputs[i] = { ...o, address: Cardano.PaymentAddress(address) };
      }),
    ),
    fc
      .tuple(
        outIndex,
        fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }).filter((d) => d !== 0n),
      )
      .map(([i, d]) =>
        m(`output ${i} coins ${d > 0n ? '+' : ''}${d}`, true, (b) => {
          const o = b.outputs[i];
          if (!o) return;
          const coins = o.value.coins + d;
          b.outputs[i] = {
            ...o,
            value: { ...o.value, coins: coins > 0n ? coins : o.value.coins + 1n },
          };
        }),
      ),
    fc.tuple(outIndex, fc.bigInt({ min: 1n, max: 10n ** 7n }), fc.boolean()).map(([i, q, usdm]) =>
      m(`output ${i} gains ${q} of ${usdm ? 'USDM' : 'a foreign token'}`, true, (b) => {
        const o = b.outputs[i];
        if (!o) return;
        const unit = Cardano.AssetId(usdm ? USDM : `${hash28(0xab)}00`);
        const assets = new Map(o.value.assets ?? []);
        assets.set(unit, (assets.get(unit) ?? 0n) + q);
        b.outputs[i] = { ...o, value: { ...o.value, assets } };
      }),
    ),
    fc
      .tuple(
        outIndex,
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.constantFrom('inline', 'hash', 'none'),
      )
      .map(([i, n, how]) =>
        m(`output ${i} datum ${how} ${n}`, true, (b) => {
          const o = b.outputs[i];
          if (!o) return;
          const { datum: _d, datumHash: _h, ...rest } = o;
          const data = plutus(n);
          if (how === 'inline') b.outputs[i] = { ...rest, datum: data.toCore() };
          else if (how === 'hash') b.outputs[i] = { ...rest, datumHash: data.hash() };
          else if (o.datum || o.datumHash) b.outputs[i] = rest;
          else b.outputs[i] = { ...rest, datum: data.toCore() };
        }),
      ),
    // Time.
    fc
      .constantFrom<[string, number | null, number | null]>(
        ['no upper bound', null, null],
        ['valid for a year', null, 365 * 86_400],
        ['valid for a day', null, 86_400],
        ['valid from in an hour', 3600, null],
        ['already expired', null, -600],
      )
      .map(([name, from, until]) =>
        m(name, true, (b) => {
          const v = { ...b.validityInterval };
          if (from !== null) v.invalidBefore = slotIn(from);
          if (until === null && from === null) delete v.invalidHereafter;
          else if (until !== null) v.invalidHereafter = slotIn(until);
          b.validityInterval = v;
        }),
      ),
    // Fee and other body fields.
    fc.bigInt({ min: 1n, max: 5n * 10n ** 6n }).map((d) =>
      m(`fee +${d}`, true, (b) => {
        b.fee += d;
      }),
    ),
    fc.constantFrom(
      m('mint a foreign token', true, (b) => {
        const mint = new Map(b.mint ?? []);
        mint.set(Cardano.AssetId(`${hash28(0xcd)}00`), 1n);
        b.mint = mint;
      }),
      m('an extra required signer', true, (b) => {
        b.requiredExtraSignatures = [
          ...(b.requiredExtraSignatures ?? []),
          Crypto.Ed25519KeyHashHex(hash28(0xee)),
        ];
      }),
      m('collateral from the wallet', true, (b) => {
        b.collaterals = [{ txId: Cardano.TransactionId(txHash(9)), index: 0 }];
      }),
      m('a reward withdrawal', true, (b) => {
        b.withdrawals = [
          {
            stakeAddress: Cardano.RewardAccount.fromCredential(
              {
                type: Cardano.CredentialType.KeyHash,
                hash: Crypto.Hash28ByteBase16(p.user.stakeKeyHash),
              },
              Cardano.NetworkId.Testnet,
            ),
            quantity: 1n,
          },
        ];
      }),
      m('a treasury donation', true, (b) => {
        b.donation = 1_000_000n;
      }),
      m('the other network id', true, (b) => {
        b.networkId = Cardano.NetworkId.Mainnet;
      }),
      m('a stake deregistration', true, (b) => {
        b.certificates = [
          {
            __typename: Cardano.CertificateType.StakeDeregistration,
            stakeCredential: {
              type: Cardano.CredentialType.KeyHash,
              hash: Crypto.Hash28ByteBase16(p.user.stakeKeyHash),
            },
          },
        ];
      }),
    ),
  );
};

/** The app's reading of Plutus data in the sandbox writer's form, to change it and write it. */
const writable = (d: ReadData): PlutusData => {
  if (typeof d === 'bigint' || d instanceof Uint8Array) return d;
  if (d.kind === 'list') return d.items.map(writable);
  if (d.kind === 'map')
    return { pairs: d.pairs.map(([k, v]) => [writable(k), writable(v)] as const) };
  return { constr: d.index, fields: d.fields.map(writable) };
};

const isList = (d: PlutusData): d is readonly PlutusData[] => Array.isArray(d);

/** Every single field of a datum: an integer, a byte string, a constructor's index. */
type Leaf = { path: number[]; kind: 'int' | 'bytes' | 'constr' };
const leavesOf = (d: PlutusData, path: number[] = []): Leaf[] => {
  if (typeof d === 'bigint') return [{ path, kind: 'int' }];
  if (d instanceof Uint8Array) return [{ path, kind: 'bytes' }];
  const children: PlutusData[] = isList(d)
    ? [...d]
    : 'pairs' in d
      ? d.pairs.flatMap(([k, v]) => [k, v])
      : [...d.fields];
  const own: Leaf[] = !isList(d) && 'constr' in d ? [{ path, kind: 'constr' }] : [];
  return [...own, ...children.flatMap((c, i) => leavesOf(c, [...path, i]))];
};

/** The datum with one field changed: an integer moved by `delta`, a byte flipped, an index. */
const changedAt = (d: PlutusData, leaf: Leaf, delta: bigint, at: number): PlutusData => {
  const [head, ...rest] = leaf.path;
  if (head === undefined) {
    if (typeof d === 'bigint') return d + delta;
    if (d instanceof Uint8Array) {
      if (d.length === 0) return Uint8Array.of(at & 0xff);
      const copy = Uint8Array.from(d);
      const i = at % copy.length;
      copy[i] = (copy[i] ?? 0) ^ (1 + (at % 255));
      return copy;
    }
    if (!isList(d) && 'constr' in d) return { ...d, constr: d.constr + 1 + (at % 3) };
    return d;
  }
  const next = { ...leaf, path: rest };
  if (typeof d === 'bigint' || d instanceof Uint8Array) return d;
  if (isList(d)) return d.map((c, i) => (i === head ? changedAt(c, next, delta, at) : c));
  if ('pairs' in d) {
    return {
      pairs: d.pairs.map(([k, v], i) => [
        i * 2 === head ? changedAt(k, next, delta, at) : k,
        i * 2 + 1 === head ? changedAt(v, next, delta, at) : v,
      ]),
    };
  }
  return { ...d, fields: d.fields.map((c, i) => (i === head ? changedAt(c, next, delta, at) : c)) };
};

/**
 * One field inside a datum changed (an order's id, side, price, size or fee rate, an account's
 * id, kind or keys, an amount): what the exchange asks the trader to sign must be refused, even
 * when its mint redeemer is changed the same way so the two still agree.
 */
const datumFieldMutation = (txHex: string): fc.Arbitrary<Mutation> | null => {
  const tx = asTx(txHex);
  const withDatum = tx.body.outputs.flatMap((o, i) =>
    o.datum
      ? [
          {
            i,
            data: writable(
              readPlutusData(
                Buffer.from(Serialization.PlutusData.fromCore(o.datum).toCbor(), 'hex'),
              ),
            ),
          },
        ]
      : [],
  );
  if (!withDatum.length) return null;
  return fc
    .tuple(
      fc.constantFrom(...withDatum),
      fc.nat(),
      fc.bigInt({ min: 2n, max: 10n ** 9n }),
      fc.boolean(),
      fc.nat({ max: 10_000 }),
    )
    .map(([{ i, data }, pick, size, down, at]) => {
      const leaves = leavesOf(data);
      const leaf = leaves[pick % leaves.length] as Leaf;
      const delta = down ? -size : size;
      const changed = changedAt(data, leaf, delta, at);
      const hex = Buffer.from(encodePlutusData(changed)).toString('hex');
      const original = Buffer.from(encodePlutusData(data)).toString('hex');
      return {
        name: `output ${i} datum field ${leaf.kind} at [${leaf.path.join(',')}] (${leaf.kind === 'int' ? `${delta > 0n ? '+' : ''}${delta}` : at})`,
        harmful: true,
        apply: (txHex2: string) =>
          mutate(txHex2, (b, t) => {
            const o = b.outputs[i];
            if (!o) return;
            const next = Serialization.PlutusData.fromCbor(HexBlob(hex)).toCore();
            b.outputs[i] = { ...o, datum: next };
            // The intent token's redeemer states the same intent: changed alike.
            t.witness.redeemers = t.witness.redeemers?.map((r) =>
              Serialization.PlutusData.fromCore(r.data).toCbor() === original
                ? { ...r, data: next }
                : r,
            );
          }),
      };
    });
};

/** Mutations of the raw bytes: a repeated body field, trailing bytes, a field Conway lacks. */
const rawMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((byte) => ({
    name: `trailing byte ${byte}`,
    harmful: true,
    apply: (hex: string) => `${hex}${byte.toString(16).padStart(2, '0')}`,
  })),
  fc.constantFrom(0, 1, 2, 3).map((key) => ({
    name: `body field ${key} repeated`,
    harmful: true,
    apply: (hex: string) =>
      withBodyEntries(hex, (entries) => {
        const e = entries.find(([k]) => k === key);
        return e ? [...entries, e] : [...entries, [key, Buffer.from([0x00])]];
      }),
  })),
  fc.constantFrom(6, 10, 12, 23, 40).map((key) => ({
    name: `body field ${key} that Conway lacks`,
    harmful: true,
    apply: (hex: string) =>
      withBodyEntries(hex, (entries) => [...entries, [key, Buffer.from([0x00])]]),
  })),
);

/** Mutations that change nothing of who gets what or when. */
const neutralMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.integer({ min: 10, max: 250 }), fc.integer({ min: 0, max: 9 })).map(([h, i]) => ({
    name: `reference input ${txHash(h).slice(0, 6)}#${i}`,
    harmful: false,
    apply: (hex: string) =>
      mutate(hex, (b) => {
        b.referenceInputs = [{ txId: Cardano.TransactionId(txHash(h)), index: i }];
      }),
  })),
  fc
    .tuple(fc.integer({ min: 0, max: 1000 }), fc.string({ maxLength: 40 }))
    .map(([label, text]) => ({
      name: `metadata ${label}`,
      harmful: false,
      apply: (hex: string) =>
        mutate(hex, (b, t) => {
          const blob: Cardano.TxMetadata = new Map([[BigInt(674 + label), text]]);
          t.auxiliaryData = { blob };
          b.auxiliaryDataHash = Serialization.AuxiliaryData.fromCore({ blob }).toCore()
            ? Crypto.Hash32ByteBase16(
                Crypto.blake2b
                  .hash(HexBlob(Serialization.AuxiliaryData.fromCore({ blob }).toCbor()), 32)
                  .toString(),
              )
            : undefined;
        }),
    })),
);

/** Rewrites the body map's entries (raw CBOR), keeping the witness set and the rest as they are. */
const withBodyEntries = (
  txHex: string,
  change: (entries: Array<[number, Buffer]>) => Array<[number, Buffer]>,
): string => {
  const reader = new Serialization.CborReader(HexBlob(txHex));
  const length = reader.readStartArray();
  const body = new Serialization.CborReader(
    HexBlob(Buffer.from(reader.readEncodedValue()).toString('hex')),
  );
  const rest: Buffer[] = [];
  for (let i = 1; i < (length ?? 4); i++) rest.push(Buffer.from(reader.readEncodedValue()));
  const entries: Array<[number, Buffer]> = [];
  body.readStartMap();
  while (body.peekState() !== Serialization.CborReaderState.EndMap) {
    const key = Number(body.readInt());
    entries.push([key, Buffer.from(body.readEncodedValue())]);
  }
  const next = change(entries);
  const head = (major: number, n: number) =>
    n < 24 ? Buffer.from([(major << 5) | n]) : Buffer.from([(major << 5) | 24, n]);
  const bodyBytes = Buffer.concat([
    head(5, next.length),
    ...next.flatMap(([k, v]) => [head(0, k), v]),
  ]);
  return Buffer.concat([head(4, rest.length + 1), bodyBytes, ...rest]).toString('hex');
};

const KINDS: Kind[] = ['sell', 'buy', 'cancel', 'deposit', 'withdrawal'];

describe('the signer under mutation of honest sandbox transactions', () => {
  it('every honest baseline is signable (the property tests the check, not a broken fixture)', () => {
    for (const kind of KINDS) {
      const base = baseOf(kind);
      expect(verdict(base, base.txHex), kind).toEqual(expect.objectContaining({ refused: false }));
    }
  });

  it('refuses every mutation that changes who gets what or when', () => {
    const bases = new Map(KINDS.map((k) => [k, baseOf(k)]));
    const arbitrary = fc.oneof(
      ...KINDS.map((kind) => {
        const txHex = (bases.get(kind) as Base).txHex;
        const datum = datumFieldMutation(txHex);
        return fc.tuple(
          fc.constant(kind),
          fc.oneof(
            { weight: 4, arbitrary: coreMutation(txHex) },
            { weight: 1, arbitrary: rawMutation },
            ...(datum ? [{ weight: 2, arbitrary: datum }] : []),
          ),
        );
      }),
    );
    fc.assert(
      fc.property(arbitrary, ([kind, mutation]) => {
        const base = bases.get(kind) as Base;
        let mutated: string;
        try {
          mutated = mutation.apply(base.txHex);
        } catch {
          return; // the SDK cannot even write it: nothing reaches the signer
        }
        tried += 1;
        const v = verdict(base, mutated);
        if (mutated !== base.txHex && !v.refused) {
          throw new Error(`${kind}: "${mutation.name}" was not refused (${v.why})\n${mutated}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);

  it('decides a mutation that changes nothing of that the same way, whatever its content', () => {
    const bases = new Map(KINDS.map((k) => [k, baseOf(k)]));
    const first = new Map<string, boolean>();
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), neutralMutation, (kind, mutation) => {
        const base = bases.get(kind) as Base;
        const mutated = mutation.apply(base.txHex);
        tried += 1;
        const v = verdict(base, mutated);
        expect(verdict(base, mutated).refused).toBe(v.refused);
        const key = `${kind}/${mutation.name.split(' ')[0] ?? ''}`;
        const earlier = first.get(key);
        if (earlier === undefined) first.set(key, v.refused);
        else if (earlier !== v.refused) {
          throw new Error(`${kind}: "${mutation.name}" decided otherwise than before (${v.why})`);
        }
      }),
      { seed: SEED, numRuns: NEUTRAL_RUNS },
    );
  }, 300_000);
});
