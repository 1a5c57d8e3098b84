import { CborReader, Major } from './cbor';

/**
 * Plutus data as a datum or redeemer carries it: an integer, bytes, a list, a map (its pairs in
 * order, repeated keys kept: they are what the ledger keeps) or a constructor with fields.
 */
export type PlutusData =
  | bigint
  | Uint8Array
  | { readonly kind: 'list'; readonly items: readonly PlutusData[] }
  | { readonly kind: 'map'; readonly pairs: readonly (readonly [PlutusData, PlutusData])[] }
  | { readonly kind: 'constr'; readonly index: number; readonly fields: readonly PlutusData[] };

const MAX_DEPTH = 64;

const bignum = (bytes: Uint8Array): bigint =>
  bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

function readItems(r: CborReader, depth: number): PlutusData[] {
  const items: PlutusData[] = [];
  const length = r.array();
  for (let i = 0; r.more(length, i); i++) items.push(read(r, depth + 1));
  return items;
}

function read(r: CborReader, depth: number): PlutusData {
  if (depth > MAX_DEPTH) r.fail('Plutus data nested too deeply');
  const at = r.pos;
  switch (r.peekMajor()) {
    case Major.uint:
    case Major.negint:
      return r.int();
    case Major.bytes: {
      const bytes = r.bytesValue();
      if (bytes.length > 64) r.fail('Plutus bytes longer than 64 must be chunked', at);
      return bytes;
    }
    case Major.array:
      return { kind: 'list', items: readItems(r, depth) };
    case Major.map: {
      const pairs: [PlutusData, PlutusData][] = [];
      const length = r.map();
      for (let i = 0; r.more(length, i); i++) {
        const key = read(r, depth + 1);
        pairs.push([key, read(r, depth + 1)]);
      }
      return { kind: 'map', pairs };
    }
    case Major.tag: {
      const tag = r.tag();
      if (tag >= 121 && tag <= 127)
        return { kind: 'constr', index: tag - 121, fields: readItems(r, depth) };
      if (tag >= 1280 && tag <= 1400) {
        return { kind: 'constr', index: tag - 1280 + 7, fields: readItems(r, depth) };
      }
      if (tag === 102) {
        const indefinite = r.tuple(2, 'a constructor');
        const index = r.small(2 ** 32);
        const fields = readItems(r, depth);
        r.endTuple(indefinite, 'a constructor');
        return { kind: 'constr', index, fields };
      }
      if (tag === 2) return bignum(r.bytesValue());
      if (tag === 3) return -1n - bignum(r.bytesValue());
      return r.fail(`tag ${tag} is not Plutus data`, at);
    }
    default:
      return r.fail('not Plutus data', at);
  }
}

/** Reads Plutus data from its CBOR bytes (a whole datum: nothing may follow it). */
export const readPlutusData = (bytes: Uint8Array): PlutusData => {
  const r = new CborReader(bytes);
  const data = read(r, 0);
  r.end();
  return data;
};

/** Reads Plutus data in place, from a reader positioned on it. */
export const readPlutusDataAt = (r: CborReader): PlutusData => read(r, 0);

const isBytes = (d: PlutusData): d is Uint8Array => d instanceof Uint8Array;

const sameItems = (x: readonly PlutusData[], y: readonly PlutusData[]): boolean => {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    if (!plutusEquals(x[i] as PlutusData, y[i] as PlutusData)) return false;
  }
  return true;
};

/** Structural equality (encodings may differ: definite or indefinite lists, tag 102 or 121…). */
export const plutusEquals = (a: PlutusData, b: PlutusData): boolean => {
  if (typeof a === 'bigint' || typeof b === 'bigint') return a === b;
  if (isBytes(a) || isBytes(b)) return isBytes(a) && isBytes(b) && Buffer.from(a).equals(b);
  if (a.kind !== b.kind) return false;
  if (a.kind === 'list' && b.kind === 'list') return sameItems(a.items, b.items);
  if (a.kind === 'constr' && b.kind === 'constr') {
    return a.index === b.index && sameItems(a.fields, b.fields);
  }
  if (a.kind === 'map' && b.kind === 'map') {
    return (
      a.pairs.length === b.pairs.length &&
      a.pairs.every(
        ([k, v], i) =>
          plutusEquals(k, (b.pairs[i] as [PlutusData, PlutusData])[0]) &&
          plutusEquals(v, (b.pairs[i] as [PlutusData, PlutusData])[1]),
      )
    );
  }
  return false;
};

/** A constructor's fields (none for anything else). */
export const fieldsOf = (d: PlutusData): readonly PlutusData[] =>
  typeof d === 'object' && !(d instanceof Uint8Array) && d.kind === 'constr' ? d.fields : [];
