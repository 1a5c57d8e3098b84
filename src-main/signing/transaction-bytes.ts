import { createPublicKey, verify } from 'node:crypto';
import sodium from 'libsodium-wrappers-sumo';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { CborError, CborReader } from './cbor';

/**
 * A transaction as the exchange sent it, cut into its byte ranges, so that signing can add
 * witnesses without re-encoding anything else: the body (whose hash is the transaction id), the
 * witness set, and everything after it (validity flag, auxiliary data) are kept byte for byte.
 */
export interface TransactionBytes {
  readonly bytes: Buffer;
  /** Array header of the transaction (kept as is). */
  readonly head: Buffer;
  readonly body: Buffer;
  readonly witnessSet: Buffer;
  /** Validity flag and auxiliary data. */
  readonly tail: Buffer;
  /** The validity flag: false marks a transaction meant to fail its scripts. */
  readonly isValid: boolean;
  /** The auxiliary data (metadata) bytes, or null. */
  readonly auxiliaryData: Buffer | null;
  readonly hasAuxiliaryData: boolean;
}

export const invalidTransaction = (why: string, cause?: unknown): AppError =>
  new AppError(
    ErrorCode.InvalidTransaction,
    `The exchange sent a transaction Countersign cannot read (${why}). Nothing was signed; try again later.`,
    { cause },
  );

/**
 * Readers of a transaction's parts, each called with the reader standing at the part's first
 * byte and leaving it just after the part: the decoder reads the body and the witness set in the
 * same pass that cuts them out, instead of skipping them first and reading them again.
 */
export interface PartReaders {
  body?: (r: CborReader) => void;
  witnessSet?: (r: CborReader) => void;
}

/**
 * Cuts a transaction `[body, witness set, is_valid, auxiliary data | null]` (a definite 4-item
 * array, as the Conway ledger writes it) into its parts. Nothing may follow it.
 */
export const splitTransaction = (txHex: string, read: PartReaders = {}): TransactionBytes => {
  // Hex decoding stops at the first character that is not a hex digit (or a last lone one).
  const bytes = Buffer.from(txHex, 'hex');
  if (bytes.length === 0 || bytes.length * 2 !== txHex.length) {
    throw invalidTransaction('it is not hex-encoded CBOR');
  }
  const r = new CborReader(bytes);
  try {
    if (r.peekMajor() !== 4) throw invalidTransaction('not a transaction');
    const length = r.array();
    if (length !== 4) throw invalidTransaction('not a transaction of four parts');
    const headLength = r.pos;
    if (r.peekMajor() !== 5) throw invalidTransaction('the body is not a map');
    if (read.body) read.body(r);
    else r.skip();
    const body = bytes.subarray(headLength, r.pos);
    if (r.peekMajor() !== 5) throw invalidTransaction('no witness set');
    if (read.witnessSet) read.witnessSet(r);
    else r.skip();
    const tailStart = r.pos;
    const isValid = r.bool();
    let auxiliaryData: Buffer | null = null;
    if (r.isNull()) r.null();
    else auxiliaryData = Buffer.from(r.raw());
    r.end();
    return {
      bytes,
      head: bytes.subarray(0, headLength),
      body: bytes.subarray(headLength, headLength + body.length),
      witnessSet: bytes.subarray(headLength + body.length, tailStart),
      tail: bytes.subarray(tailStart),
      isValid,
      auxiliaryData,
      hasAuxiliaryData: auxiliaryData !== null,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof CborError)
      throw invalidTransaction(`${error.message} at byte ${error.at}`, error);
    throw invalidTransaction('malformed CBOR', error);
  }
};

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/**
 * BLAKE2b of some bytes with a digest of `length` bytes, hex (call `cryptoIsReady` once before).
 * Libsodium's generic hash is BLAKE2b: the same digest as the SDK's `blake2b.hash`, whose pure
 * JavaScript implementation took seventeen times as long for a transaction body.
 */
const blake2b = (bytes: Uint8Array, length: 28 | 32): string =>
  sodium.crypto_generichash(length, bytes, null, 'hex');

/** blake2b-256 of some bytes, hex. */
export const blake2b256 = (bytes: Uint8Array): string => blake2b(bytes, 32);

/** The transaction id: blake2b-256 of the body bytes exactly as received. */
export const transactionIdOf = (body: Uint8Array): string => blake2b256(body);

/** The key hash of a verification key: blake2b-224. */
export const keyHashOf = (vkey: Uint8Array): string => blake2b(vkey, 28);

export interface VkeyWitness {
  vkey: Uint8Array;
  signature: Uint8Array;
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Ed25519 verification of a witness over a transaction id (never throws). */
export const witnessVerifies = (w: VkeyWitness, txId: Uint8Array): boolean => {
  if (w.vkey.length !== 32 || w.signature.length !== 64) return false;
  try {
    const key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, w.vkey]),
      format: 'der',
      type: 'spki',
    });
    return verify(null, txId, key, w.signature);
  } catch {
    return false;
  }
};

/** CBOR head of a definite item: major type and length/value. */
const head = (major: number, n: number): Buffer => {
  const m = major << 5;
  if (n < 24) return Buffer.from([m | n]);
  if (n < 0x100) return Buffer.from([m | 24, n]);
  if (n < 0x10000) return Buffer.from([m | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = m | 26;
  b.writeUInt32BE(n, 1);
  return b;
};
const byteString = (b: Uint8Array): Buffer => Buffer.concat([head(2, b.length), b]);
const SET_TAG = Buffer.from('d90102', 'hex');

/** Witness-set key 0: whether it is a tagged set, and each witness with its exact bytes. */
export interface VkeyWitnessEntries {
  tagged: boolean;
  items: Array<VkeyWitness & { raw: Uint8Array }>;
}

/** Reads witness-set key 0 where the reader stands: each vkey witness, with its bytes. */
export const readVkeyWitnesses = (r: CborReader): VkeyWitnessEntries => {
  let tagged = false;
  if (r.peekMajor() === 6) {
    if (r.tag() !== 258) r.fail('unexpected tag in the vkey witnesses');
    tagged = true;
  }
  const items: VkeyWitnessEntries['items'] = [];
  const n = r.array();
  for (let j = 0; r.more(n, j); j++) {
    const itemStart = r.pos;
    const indefinite = r.tuple(2, 'a vkey witness');
    const vkey = r.bytesValue();
    const signature = r.bytesValue();
    r.endTuple(indefinite, 'a vkey witness');
    items.push({ raw: r.bytes.subarray(itemStart, r.pos), vkey, signature });
  }
  return { tagged, items };
};

interface WitnessSetEntries {
  entries: Array<[number, Uint8Array]>;
  vkeys: VkeyWitnessEntries | null;
}

/** The witness set's entries (raw), and its vkey witnesses (`0`) read one by one. */
const readWitnessSetEntries = (witnessSet: Uint8Array): WitnessSetEntries => {
  const r = new CborReader(witnessSet);
  const entries: Array<[number, Uint8Array]> = [];
  let vkeys: WitnessSetEntries['vkeys'] = null;
  const length = r.map();
  for (let i = 0; r.more(length, i); i++) {
    const key = r.small(255);
    if (entries.some(([k]) => k === key)) r.fail(`the witness set repeats key ${key}`);
    const start = r.pos;
    if (key === 0) {
      vkeys = readVkeyWitnesses(r);
    } else {
      r.skip();
    }
    entries.push([key, witnessSet.subarray(start, r.pos)]);
  }
  r.end();
  return { entries, vkeys };
};

/**
 * Adds vkey witnesses to witness-set key 0 and returns the new transaction. Only key 0 of the
 * witness set is rewritten; the body, the other witness entries and the tail are the original
 * bytes, so the transaction id is unchanged. An existing witness of the same key is replaced in
 * place by the new one, so a bad signature can never pass for ours.
 */
export const addVkeyWitnesses = (
  tx: TransactionBytes,
  witnesses: readonly VkeyWitness[],
): string => {
  let read: WitnessSetEntries;
  try {
    read = readWitnessSetEntries(tx.witnessSet);
  } catch (error) {
    throw invalidTransaction('its witness set is malformed', error);
  }
  const tagged = read.vkeys?.tagged ?? false;
  const items = (read.vkeys?.items ?? []).map((item) => ({ raw: item.raw, vkey: hex(item.vkey) }));
  for (const w of witnesses) {
    const vkey = hex(w.vkey);
    const raw = Buffer.concat([head(4, 2), byteString(w.vkey), byteString(w.signature)]);
    const at = items.findIndex((item) => item.vkey === vkey);
    const kept = items.filter((item, i) => item.vkey !== vkey || i === at);
    items.length = 0;
    items.push(...kept);
    if (at >= 0) items[items.findIndex((item) => item.vkey === vkey)] = { raw, vkey };
    else items.push({ raw, vkey });
  }
  const key0 = Buffer.concat([
    tagged ? SET_TAG : Buffer.alloc(0),
    head(4, items.length),
    ...items.map((item) => item.raw),
  ]);
  const next: Array<[number, Uint8Array]> = read.vkeys
    ? read.entries.map(([key, raw]) => [key, key === 0 ? key0 : raw])
    : [[0, key0], ...read.entries];
  const witnessSet = Buffer.concat([
    head(5, next.length),
    ...next.flatMap(([key, raw]) => [head(0, key), raw]),
  ]);
  return Buffer.concat([tx.head, tx.body, witnessSet, tx.tail]).toString('hex');
};

/** The vkey witnesses already in a witness set, read as key and signature. */
export const existingVkeyWitnesses = (witnessSet: Uint8Array): VkeyWitness[] =>
  (readWitnessSetEntries(witnessSet).vkeys?.items ?? []).map(({ vkey, signature }) => ({
    vkey,
    signature,
  }));
