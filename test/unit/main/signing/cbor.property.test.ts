import { decode, encode, type TagDecoder } from 'cborg';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CborError, CborReader, Major } from '../../../../src-main/signing/cbor';

/**
 * The transaction reader reads CBOR heads itself. cborg, a well-kept CBOR library, is the oracle:
 * whatever the reader accepts, cborg reads as the same value, and the reader never accepts
 * anything but exactly one whole item; whatever it refuses, it refuses with a CborError (never a
 * crash of another kind), whatever the bytes.
 */

class Tagged {
  constructor(
    readonly tag: number,
    readonly value: unknown,
  ) {}
}

/** The tags the generator writes; cborg reads every tag as `Tagged`. */
const TAGS = [24, 121, 122, 258, 1280];
const tags = new Proxy<TagDecoder[]>([], {
  get: (_, key) =>
    typeof key === 'string' && /^\d+$/.test(key)
      ? (((content) => new Tagged(Number(key), content())) satisfies TagDecoder)
      : undefined,
});

/** Numbers as bigints, so both readers' integers compare equal. */
const normal = (value: unknown): unknown => {
  if (typeof value === 'number') return BigInt(value);
  if (Array.isArray(value)) return value.map(normal);
  if (value instanceof Map) return [...value].map(([k, v]) => [normal(k), normal(v)]);
  if (value instanceof Tagged) return { tag: value.tag, value: normal(value.value) };
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return value;
};

/** A whole item through the reader's own calls, as the transaction readers use them. */
const readAny = (r: CborReader): unknown => {
  switch (r.peekMajor()) {
    case Major.uint:
      return r.uint();
    case Major.negint:
      return r.int();
    case Major.bytes:
      return Buffer.from(r.bytesValue()).toString('hex');
    case Major.array: {
      const n = r.array();
      const out: unknown[] = [];
      for (let i = 0; r.more(n, i); i++) out.push(readAny(r));
      return out;
    }
    case Major.map: {
      const n = r.map();
      const out: unknown[] = [];
      for (let i = 0; r.more(n, i); i++) out.push([readAny(r), readAny(r)]);
      return out;
    }
    case Major.tag: {
      const tag = r.tag();
      return { tag, value: readAny(r) };
    }
    default:
      if (r.isNull()) {
        r.null();
        return null;
      }
      return r.bool();
  }
};

const oracle = (bytes: Uint8Array): unknown =>
  decode(bytes, { useMaps: true, tags, strict: false, allowUndefined: false });

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    fc.bigInt({ min: -(2n ** 64n), max: -1n }),
    fc.integer({ min: 0, max: 30 }),
    fc.uint8Array({ maxLength: 40 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .array(fc.tuple(tie('value'), tie('value')), { maxLength: 4 })
      .map((entries) => new Map(entries)),
    fc.tuple(fc.constantFrom(...TAGS), tie('value')).map(([tag, inner]) => new Tagged(tag, inner)),
  ),
}));

/** The value encoded, with every tagged item written by hand (cborg writes no custom tags). */
const cbor = (v: unknown): Buffer => {
  if (v instanceof Tagged) {
    const tag =
      v.tag < 24 ? [0xc0 | v.tag] : v.tag < 256 ? [0xd8, v.tag] : [0xd9, v.tag >> 8, v.tag & 0xff];
    return Buffer.concat([Buffer.from(tag), cbor(v.value)]);
  }
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(cbor)]);
  if (v instanceof Map) {
    return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
  }
  return Buffer.from(encode(v));
};
const head = (major: number, n: number): Buffer =>
  n < 24 ? Buffer.from([(major << 5) | n]) : Buffer.from([(major << 5) | 24, n]);

/** The same item with every array and map written with an indefinite length. */
const indefinite = (v: unknown): Buffer => {
  if (v instanceof Tagged)
    return Buffer.concat([cbor(new Tagged(v.tag, 0)).subarray(0, -1), indefinite(v.value)]);
  if (Array.isArray(v))
    return Buffer.concat([Buffer.from([0x9f]), ...v.map(indefinite), Buffer.from([0xff])]);
  if (v instanceof Map) {
    return Buffer.concat([
      Buffer.from([0xbf]),
      ...[...v].flatMap(([k, x]) => [indefinite(k), indefinite(x)]),
      Buffer.from([0xff]),
    ]);
  }
  return cbor(v);
};

const readWhole = (bytes: Uint8Array): unknown => {
  const r = new CborReader(bytes);
  const out = readAny(r);
  r.end();
  return out;
};

const skipWhole = (bytes: Uint8Array): void => {
  const r = new CborReader(bytes);
  r.skip();
  r.end();
};

describe('the CBOR reader, against cborg', () => {
  it('reads any item as cborg does, with definite or indefinite lengths, and skips it whole', () => {
    fc.assert(
      fc.property(value, (v) => {
        for (const bytes of [cbor(v), indefinite(v)]) {
          expect(readWhole(bytes)).toEqual(normal(oracle(bytes)));
          expect(() => skipWhole(bytes)).not.toThrow();
          const r = new CborReader(bytes);
          expect(Buffer.from(r.raw()).equals(bytes)).toBe(true);
        }
      }),
      { seed: 20_261_125, numRuns: 2000 },
    );
  });

  it('accepts only what cborg reads the same way, and refuses the rest with a CborError', () => {
    const mutated = fc
      .tuple(
        value,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        fc.nat(),
      )
      .map(([v, flips, cut]) => {
        const bytes = Buffer.from(cbor(v));
        for (const [at, byte] of flips) if (bytes.length) bytes[at % bytes.length] = byte;
        return bytes.subarray(0, bytes.length - (cut % 3 === 0 ? cut % (bytes.length + 1) : 0));
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.uint8Array({ maxLength: 64 })), (bytes) => {
        let mine: unknown;
        try {
          mine = readWhole(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(CborError);
          let skipped = true;
          try {
            skipWhole(bytes);
          } catch (again) {
            expect(again).toBeInstanceOf(CborError);
            skipped = false;
          }
          // What the reader refuses as a value it may skip only where the value holds a text
          // string or a simple value it has no call for; never a malformed item.
          if (skipped) expect(() => oracle(bytes)).not.toThrow();
          return;
        }
        expect(mine).toEqual(normal(oracle(bytes)));
      }),
      { seed: 20_261_126, numRuns: 5000 },
    );
  });

  it('refuses floats, undefined, chunked strings, a map key without a value and trailing bytes', () => {
    const refused = [
      'f93c00', // half float 1.0
      'fb3ff0000000000000', // double 1.0
      'f7', // undefined
      'f0', // an unassigned simple value
      '5f4101ff', // chunked byte string
      '7f6161ff', // chunked text string
      'bf01ff', // an indefinite map: a key, no value
      '0000', // something after the item
      '1f', // an integer of indefinite length
      'df00', // a tag of indefinite length
      '1c', // reserved additional information
      '5a00000005010203', // a byte string longer than the data
      '9b0000000100000000', // an array longer than the data
    ];
    for (const hex of refused) {
      expect(() => skipWhole(Buffer.from(hex, 'hex')), hex).toThrow(CborError);
    }
  });
});
