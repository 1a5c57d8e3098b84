import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ErrorCode, SandboxError } from './errors.js';

/** Amounts by on-chain unit (`lovelace` or policy id + asset name hex), smallest units. */
export type Amounts = ReadonlyMap<string, bigint>;

export interface TxOutputSpec {
  address: string;
  amounts: Amounts;
  /** Inline datum: Plutus data CBOR. */
  datum?: Uint8Array;
}

export interface TxSpec {
  inputs: readonly string[];
  outputs: readonly TxOutputSpec[];
  fee: bigint;
  ttlSlot: number;
  requiredSigners: readonly string[];
}

export interface BuiltTx {
  txId: string;
  txHex: string;
  bodyHex: string;
}

/** Unix time of slot 0 of the sandbox's testnet (Cardano preprod's system start). */
export const SLOT_ZERO_UNIX_SECONDS = 1_654_041_600;

export function slotAt(ms: number): number {
  return Math.floor(ms / 1000) - SLOT_ZERO_UNIX_SECONDS;
}

export function splitUtxoId(id: string): { txHash: string; index: number } {
  const [txHash = '', index = '0'] = id.split('#');
  return { txHash, index: Number(index) };
}

function addressBytes(bech32: string): Uint8Array {
  let bytes = addressCache.get(bech32);
  if (!bytes) {
    bytes = Buffer.from(Cardano.Address.fromBech32(bech32).toBytes(), 'hex');
    if (addressCache.size > 10_000) addressCache.clear();
    addressCache.set(bech32, bytes);
  }
  return bytes;
}
const addressCache = new Map<string, Uint8Array>();

const hexBytes = (hex: string) => Buffer.from(hex, 'hex');

/** A Conway value: the coin alone, or `[coin, {policy: {asset name: quantity}}]`. */
function writeValue(w: Serialization.CborWriter, amounts: Amounts): void {
  const policies = new Map<string, [string, bigint][]>();
  for (const [unit, quantity] of amounts) {
    if (unit === 'lovelace' || quantity <= 0n) continue;
    const policy = unit.slice(0, 56);
    let assets = policies.get(policy);
    if (!assets) {
      assets = [];
      policies.set(policy, assets);
    }
    assets.push([unit.slice(56), quantity]);
  }
  const coin = amounts.get('lovelace') ?? 0n;
  if (policies.size === 0) {
    w.writeInt(coin);
    return;
  }
  w.writeStartArray(2).writeInt(coin).writeStartMap(policies.size);
  // Policies in canonical order (all 28 bytes: lexicographic), as the SDK writes them.
  for (const [policy, assets] of [...policies].sort(([a], [b]) => (a < b ? -1 : 1))) {
    w.writeByteString(hexBytes(policy)).writeStartMap(assets.length);
    for (const [name, quantity] of assets) w.writeByteString(hexBytes(name)).writeInt(quantity);
  }
}

/**
 * Builds a real unsigned Conway transaction with the SDK's CBOR writer, byte for byte what
 * `Serialization.Transaction` writes for the same body (a test holds the two equal): a body map
 * {0 inputs, 1 outputs, 2 fee, 3 ttl, 14 required signers, 15 network id 0}, post-Alonzo
 * outputs when they carry an inline datum, and the transaction `[body, {}, true, null]`.
 */
export function buildTransaction(spec: TxSpec): BuiltTx {
  const w = new Serialization.CborWriter();
  w.writeStartMap(6);
  w.writeInt(0).writeStartArray(spec.inputs.length);
  for (const id of spec.inputs) {
    const { txHash, index } = splitUtxoId(id);
    w.writeStartArray(2).writeByteString(hexBytes(txHash)).writeInt(index);
  }
  w.writeInt(1).writeStartArray(spec.outputs.length);
  for (const o of spec.outputs) {
    if (o.datum) {
      w.writeStartMap(3).writeInt(0).writeByteString(addressBytes(o.address)).writeInt(1);
      writeValue(w, o.amounts);
      w.writeInt(2).writeStartArray(2).writeInt(1).writeTag(24).writeByteString(o.datum);
    } else {
      w.writeStartArray(2).writeByteString(addressBytes(o.address));
      writeValue(w, o.amounts);
    }
  }
  w.writeInt(2).writeInt(spec.fee);
  w.writeInt(3).writeInt(spec.ttlSlot);
  w.writeInt(14).writeStartArray(spec.requiredSigners.length);
  for (const signer of spec.requiredSigners) w.writeByteString(hexBytes(signer));
  w.writeInt(15).writeInt(0);
  const bodyHex = w.encodeAsHex();
  return { txId: Crypto.blake2b.hash(bodyHex, 32), txHex: `84${bodyHex}a0f5f6`, bodyHex };
}

/** A signed transaction as received on a submit endpoint. */
export interface SignedTx {
  txId: string;
  bodyHex: string;
  witnesses: readonly { vkey: string; signature: string }[];
}

/**
 * Parses `signed_tx` shallowly: `[body, witness set, is_valid, null]`. The body is kept as the
 * exact bytes received (its blake2b-256 is the tx id, compared with the build), the witness set
 * is decoded for its vkey witnesses. Anything else is invalid request data.
 */
export function parseSignedTx(hex: string, expected?: { txId: string; bodyHex: string }): SignedTx {
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0) {
    throw new SandboxError(ErrorCode.invalidRequest, 'signed_tx is not hex-encoded CBOR');
  }
  const lower = hex.toLowerCase();
  // The usual case: the body is the one built, byte for byte; only the rest needs decoding.
  const known = expected !== undefined && lower.startsWith(`84${expected.bodyHex}`);
  try {
    let reader: Serialization.CborReader;
    let bodyHex: string;
    if (known) {
      bodyHex = expected.bodyHex;
      reader = new Serialization.CborReader(HexBlob(lower.slice(2 + bodyHex.length)));
    } else {
      reader = new Serialization.CborReader(HexBlob(lower));
      const length = reader.readStartArray();
      if (length !== 4) throw new Error('a transaction is a 4-element array');
      bodyHex = Buffer.from(reader.readEncodedValue()).toString('hex');
    }
    const witnesses = readVkeyWitnesses(reader);
    if (!reader.readBoolean()) throw new Error('is_valid must be true');
    reader.readNull();
    if (!known) reader.readEndArray();
    if (reader.peekState() !== Serialization.CborReaderState.Finished) {
      throw new Error('bytes after the transaction');
    }
    const txId = known ? expected.txId : Crypto.blake2b.hash(HexBlob(bodyHex), 32);
    return { txId, bodyHex, witnesses };
  } catch {
    throw new SandboxError(ErrorCode.invalidRequest, 'signed_tx is not a valid Conway transaction');
  }
}

/**
 * Reads a witness set that may hold only vkey witnesses: `{0: [[vkey(32), signature(64)], …]}`,
 * the array optionally tagged 258 (a set). Anything else in it is refused.
 */
function readVkeyWitnesses(
  reader: Serialization.CborReader,
): { vkey: string; signature: string }[] {
  const witnesses: { vkey: string; signature: string }[] = [];
  const entries = reader.readStartMap();
  if (entries === null || entries > 1)
    throw new Error('the witness set may hold vkey witnesses only');
  if (entries === 0) {
    reader.readEndMap();
    return witnesses;
  }
  if (reader.readInt() !== 0n) throw new Error('the witness set may hold vkey witnesses only');
  if (reader.peekState() === Serialization.CborReaderState.Tag) {
    if (Number(reader.readTag()) !== 258) throw new Error('unexpected tag in the witness set');
  }
  const count = reader.readStartArray();
  if (count === null) throw new Error('vkey witnesses must be a definite array');
  for (let i = 0; i < count; i++) {
    if (reader.readStartArray() !== 2) throw new Error('a vkey witness is [vkey, signature]');
    const vkey = Buffer.from(reader.readByteString()).toString('hex');
    const signature = Buffer.from(reader.readByteString()).toString('hex');
    reader.readEndArray();
    witnesses.push({ vkey, signature });
  }
  reader.readEndArray();
  reader.readEndMap();
  return witnesses;
}

const verifyingKeys = new Map<string, { key: KeyObject; hash: string }>();
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function verifyingKey(vkey: string): { key: KeyObject; hash: string } {
  let entry = verifyingKeys.get(vkey);
  if (!entry) {
    const raw = Buffer.from(vkey, 'hex');
    if (raw.length !== 32) throw new Error('verification key is not 32 bytes');
    entry = {
      key: createPublicKey({
        key: Buffer.concat([SPKI_ED25519_PREFIX, raw]),
        format: 'der',
        type: 'spki',
      }),
      hash: Crypto.blake2b.hash(HexBlob(vkey), 28),
    };
    if (verifyingKeys.size > 10_000) verifyingKeys.clear();
    verifyingKeys.set(vkey, entry);
  }
  return entry;
}

/**
 * Exactly the required keys signed the transaction id: every witness verifies, every required
 * key hash has a witness, and no other key signed.
 */
export function checkSignatures(signed: SignedTx, requiredKeyHashes: readonly string[]): void {
  const message = Buffer.from(signed.txId, 'hex');
  const signers = new Set<string>();
  for (const w of signed.witnesses) {
    let ok: boolean;
    let hash = '';
    try {
      const { key, hash: h } = verifyingKey(w.vkey);
      hash = h;
      ok = verify(null, message, key, Buffer.from(w.signature, 'hex'));
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new SandboxError(
        ErrorCode.signatureInvalid,
        'a signature does not verify against the transaction id',
      );
    }
    if (!requiredKeyHashes.includes(hash)) {
      throw new SandboxError(
        ErrorCode.signatureInvalid,
        `transaction is signed by key ${hash}, which is not a required signer`,
      );
    }
    signers.add(hash);
  }
  for (const required of requiredKeyHashes) {
    if (!signers.has(required)) {
      throw new SandboxError(
        ErrorCode.signatureInvalid,
        `transaction is not signed by the required key ${required}`,
      );
    }
  }
}

/** The order datum locked with an order's funds at the exchange's order address. */
export interface OrderDatum {
  orderId: string;
  accountId: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  priceTicks: bigint;
  quantityUnits: bigint;
  slippageBp: number;
  operationKeyHash: string;
}

/**
 * `Constr 0 [order_id bytes(16), account_id bytes(16), side Constr(0 buy | 1 sell),
 * type Constr(0 limit | 1 market), price ticks (10^-4 quote per base), base quantity in smallest
 * units, slippage bp, operation key hash bytes(28)]` as Plutus data CBOR (tag 121 + n, fields
 * in an indefinite array, as the SDK's PlutusData writes them).
 */
export function orderDatum(d: OrderDatum): Uint8Array {
  const w = new Serialization.CborWriter();
  const uuidBytes = (id: string) => hexBytes(id.replaceAll('-', ''));
  w.writeTag(121).writeStartArray();
  w.writeByteString(uuidBytes(d.orderId));
  w.writeByteString(uuidBytes(d.accountId));
  w.writeTag(d.side === 'buy' ? 121 : 122).writeStartArray(0);
  w.writeTag(d.type === 'limit' ? 121 : 122).writeStartArray(0);
  w.writeInt(d.priceTicks);
  w.writeInt(d.quantityUnits);
  w.writeInt(d.slippageBp);
  w.writeByteString(hexBytes(d.operationKeyHash));
  w.writeEndArray();
  return w.encode();
}

/** Realistic L1 fee: 155381 + 44 lovelace per byte, counting one vkey witness per signer. */
export function l1Fee(txHex: string, signers: number): bigint {
  const bytes = txHex.length / 2 + signers * 101;
  return 155_381n + 44n * BigInt(bytes);
}
