import { Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { AppError, ErrorCode } from '../../src-shared/errors';

const { CborReader, CborReaderState, CborWriter, CborTag } = Serialization;

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
  /** Validity flag, auxiliary data and, for an indefinite array, its break byte. */
  readonly tail: Buffer;
  readonly hasAuxiliaryData: boolean;
}

const invalid = (why: string): AppError =>
  new AppError(
    ErrorCode.InvalidTransaction,
    `The exchange sent a transaction Countersign cannot read (${why}). Nothing was signed; try again later.`,
  );

export const splitTransaction = (txHex: string): TransactionBytes => {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(txHex)) throw invalid('it is not hex-encoded CBOR');
  const bytes = Buffer.from(txHex, 'hex');
  try {
    const reader = new CborReader(HexBlob(txHex.toLowerCase()));
    const length = reader.readStartArray();
    if (length !== null && (length < 3 || length > 4)) throw invalid('not a transaction');
    const headLength = bytes.length - reader.getBytesRemaining();
    if (reader.peekState() !== CborReaderState.StartMap) throw invalid('the body is not a map');
    const body = reader.readEncodedValue();
    if (reader.peekState() !== CborReaderState.StartMap) throw invalid('no witness set');
    const witnessSet = reader.readEncodedValue();
    const tailStart = headLength + body.length + witnessSet.length;
    // The rest must parse as the remaining elements, and nothing may follow the transaction.
    // The last element is the auxiliary data (metadata), or null.
    let hasAuxiliaryData = false;
    const more = (i: number): boolean =>
      length === null ? reader.peekState() !== CborReaderState.EndArray : i < length - 2;
    for (let i = 0; more(i); i++) {
      hasAuxiliaryData =
        reader.peekState() !== CborReaderState.Null &&
        reader.peekState() !== CborReaderState.Boolean;
      reader.skipValue();
    }
    if (length === null) reader.readEndArray();
    if (reader.getBytesRemaining() !== 0) throw invalid('extra bytes after the transaction');
    return {
      bytes,
      head: bytes.subarray(0, headLength),
      body: bytes.subarray(headLength, headLength + body.length),
      witnessSet: bytes.subarray(headLength + body.length, tailStart),
      tail: bytes.subarray(tailStart),
      hasAuxiliaryData,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid('malformed CBOR');
  }
};

/** The transaction id: blake2b-256 of the body bytes exactly as received. */
export const transactionIdOf = (body: Uint8Array): string =>
  Crypto.blake2b.hash(HexBlob(Buffer.from(body).toString('hex')), 32);

export interface VkeyWitness {
  vkey: Uint8Array;
  signature: Uint8Array;
}

/** Keys present in a witness set map (1 native scripts, 3/6/7 Plutus scripts, 4 data, 5 redeemers). */
export const witnessSetKeys = (witnessSet: Uint8Array): number[] => {
  const reader = new CborReader(HexBlob(Buffer.from(witnessSet).toString('hex')));
  reader.readStartMap();
  const keys: number[] = [];
  while (reader.peekState() !== CborReaderState.EndMap) {
    keys.push(Number(reader.readInt()));
    reader.skipValue();
  }
  return keys;
};

const readVkeys = (raw: Uint8Array): { tagged: boolean; items: Uint8Array[]; vkeys: string[] } => {
  const reader = new CborReader(HexBlob(Buffer.from(raw).toString('hex')));
  let tagged = false;
  if (reader.peekState() === CborReaderState.Tag) {
    if (reader.readTag() !== CborTag.Set) throw invalid('unexpected tag in the witness set');
    tagged = true;
  }
  const items: Uint8Array[] = [];
  const vkeys: string[] = [];
  reader.readStartArray();
  while (reader.peekState() !== CborReaderState.EndArray) {
    const item = reader.readEncodedValue();
    const inner = new CborReader(HexBlob(Buffer.from(item).toString('hex')));
    inner.readStartArray();
    vkeys.push(Buffer.from(inner.readByteString()).toString('hex'));
    items.push(item);
  }
  return { tagged, items, vkeys };
};

/**
 * Adds vkey witnesses to witness-set key 0 and returns the new transaction. Only key 0 of the
 * witness set is rewritten; the body, the other witness entries and the tail are the original
 * bytes, so the transaction id is unchanged. A key that already signed is not added twice.
 */
export const addVkeyWitnesses = (
  tx: TransactionBytes,
  witnesses: readonly VkeyWitness[],
): string => {
  const reader = new CborReader(HexBlob(tx.witnessSet.toString('hex')));
  reader.readStartMap();
  const entries: Array<[number, Uint8Array]> = [];
  while (reader.peekState() !== CborReaderState.EndMap) {
    const key = Number(reader.readInt());
    entries.push([key, reader.readEncodedValue()]);
  }
  const existing = entries.find(([key]) => key === 0);
  const { tagged, items, vkeys } = existing
    ? readVkeys(existing[1])
    : { tagged: false, items: [] as Uint8Array[], vkeys: [] as string[] };
  for (const w of witnesses) {
    const vkeyHex = Buffer.from(w.vkey).toString('hex');
    if (vkeys.includes(vkeyHex)) continue;
    vkeys.push(vkeyHex);
    const item = new CborWriter();
    item.writeStartArray(2).writeByteString(w.vkey).writeByteString(w.signature);
    items.push(item.encode());
  }
  const set = new CborWriter();
  if (tagged) set.writeTag(CborTag.Set);
  set.writeStartArray(items.length);
  for (const item of items) set.writeEncodedValue(item);
  const key0 = set.encode();

  const out = new CborWriter();
  const next: Array<[number, Uint8Array]> = existing
    ? entries.map(([key, raw]) => [key, key === 0 ? key0 : raw])
    : [[0, key0], ...entries];
  out.writeStartMap(next.length);
  for (const [key, raw] of next) out.writeInt(key).writeEncodedValue(raw);
  return Buffer.concat([tx.head, tx.body, out.encode(), tx.tail]).toString('hex');
};
