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
  /** Tokens minted (positive) or burnt (negative), by unit. */
  mint?: Amounts;
  /** Redeemers for the witness set; the body then carries their script data hash. */
  redeemers?: readonly Redeemer[];
}

export interface Redeemer {
  /** What the redeemer is for: spending an input (0) or minting under a policy (1). */
  tag: 'spend' | 'mint';
  /** Which input or which policy, in the ledger's sorted order. */
  index: number;
  /** Plutus data CBOR. */
  data: Uint8Array;
}

export interface BuiltTx {
  txId: string;
  txHex: string;
  bodyHex: string;
}

/** Execution budget each sandbox redeemer states (the sandbox evaluates no scripts). */
export const REDEEMER_EX_UNITS = { mem: 1_000_000n, steps: 500_000_000n } as const;

/**
 * The language views the sandbox's script data hash covers: the empty map, since the sandbox
 * runs no scripts and so publishes no cost models. The hash is
 * blake2b-256(redeemers ‖ language views), the ledger's formula for a transaction without datums
 * in its witness set.
 */
const LANGUAGE_VIEWS = Buffer.from('a0', 'hex');

export function scriptDataHash(redeemers: Uint8Array): string {
  return Crypto.blake2b.hash(
    HexBlob(Buffer.concat([redeemers, LANGUAGE_VIEWS]).toString('hex')),
    32,
  );
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

const byHex = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Groups units by policy: policy → [[asset name, quantity]], both in canonical (byte) order. */
function byPolicy(amounts: Amounts, keep: (q: bigint) => boolean): [string, [string, bigint][]][] {
  const policies = new Map<string, [string, bigint][]>();
  for (const [unit, quantity] of amounts) {
    if (unit === 'lovelace' || !keep(quantity)) continue;
    const policy = unit.slice(0, 56);
    let assets = policies.get(policy);
    if (!assets) {
      assets = [];
      policies.set(policy, assets);
    }
    assets.push([unit.slice(56), quantity]);
  }
  // All policies are 28 bytes, so hex order is the canonical (length-first) order.
  return [...policies].sort(byHex).map(([p, assets]) => [p, assets.sort(byHex)]);
}

function writeMultiAsset(w: Serialization.CborWriter, policies: [string, [string, bigint][]][]) {
  w.writeStartMap(policies.length);
  for (const [policy, assets] of policies) {
    w.writeByteString(hexBytes(policy)).writeStartMap(assets.length);
    for (const [name, quantity] of assets) w.writeByteString(hexBytes(name)).writeInt(quantity);
  }
}

/** A Conway value: the coin alone, or `[coin, {policy: {asset name: quantity}}]`. */
function writeValue(w: Serialization.CborWriter, amounts: Amounts): void {
  const policies = byPolicy(amounts, (q) => q > 0n);
  const coin = amounts.get('lovelace') ?? 0n;
  if (policies.length === 0) {
    w.writeInt(coin);
    return;
  }
  w.writeStartArray(2).writeInt(coin);
  writeMultiAsset(w, policies);
}

/** Redeemers as the SDK writes them: `[[tag, index, data, [mem, steps]], …]`. */
function encodeRedeemers(redeemers: readonly Redeemer[]): Uint8Array {
  const w = new Serialization.CborWriter();
  w.writeStartArray(redeemers.length);
  for (const r of redeemers) {
    w.writeStartArray(4)
      .writeInt(r.tag === 'spend' ? 0 : 1)
      .writeInt(r.index);
    w.writeEncodedValue(r.data);
    w.writeStartArray(2).writeInt(REDEEMER_EX_UNITS.mem).writeInt(REDEEMER_EX_UNITS.steps);
  }
  return w.encode();
}

/**
 * Builds a real unsigned Conway transaction with the SDK's CBOR writer, byte for byte what
 * `Serialization.Transaction` writes for the same body (a test holds the two equal): a body map
 * {0 inputs, 1 outputs, 2 fee, 3 ttl, 9 mint, 11 script data hash, 14 required signers,
 * 15 network id 0}, post-Alonzo outputs when they carry an inline datum, and the transaction
 * `[body, witness set, true, null]` whose witness set is empty or holds only the redeemers.
 */
export function buildTransaction(spec: TxSpec): BuiltTx {
  const mint = spec.mint ? byPolicy(spec.mint, (q) => q !== 0n) : [];
  const redeemers = spec.redeemers?.length ? encodeRedeemers(spec.redeemers) : null;
  const w = new Serialization.CborWriter();
  w.writeStartMap(6 + (mint.length ? 1 : 0) + (redeemers ? 1 : 0));
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
  if (mint.length) {
    w.writeInt(9);
    writeMultiAsset(w, mint);
  }
  if (redeemers) w.writeInt(11).writeByteString(hexBytes(scriptDataHash(redeemers)));
  w.writeInt(14).writeStartArray(spec.requiredSigners.length);
  for (const signer of spec.requiredSigners) w.writeByteString(hexBytes(signer));
  w.writeInt(15).writeInt(0);
  const bodyHex = w.encodeAsHex();
  const witnessSet = redeemers ? `a105${Buffer.from(redeemers).toString('hex')}` : 'a0';
  return {
    txId: Crypto.blake2b.hash(bodyHex, 32),
    txHex: `84${bodyHex}${witnessSet}f5f6`,
    bodyHex,
  };
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
 * is decoded for its vkey witnesses, and it may carry redeemers only when the body's script data
 * hash covers exactly those bytes (as the ledger checks). Anything else is invalid request data.
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
    const { witnesses, redeemers } = readWitnessSet(reader);
    const dataHash = bodyScriptDataHash(bodyHex);
    if (dataHash !== (redeemers ? scriptDataHash(redeemers) : null)) {
      throw new Error('the redeemers do not match the script data hash');
    }
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

/** The script data hash a body carries (key 11), or null. */
function bodyScriptDataHash(bodyHex: string): string | null {
  const reader = new Serialization.CborReader(HexBlob(bodyHex));
  const entries = reader.readStartMap();
  for (
    let i = 0;
    entries === null ? reader.peekState() !== Serialization.CborReaderState.EndMap : i < entries;
    i++
  ) {
    const key = reader.readInt();
    if (key === 11n) return Buffer.from(reader.readByteString()).toString('hex');
    reader.skipValue();
  }
  return null;
}

/**
 * Reads a witness set that may hold vkey witnesses, `0: [[vkey(32), signature(64)], …]` (the
 * array optionally tagged 258, a set), and redeemers (`5`, kept as their bytes). Anything else
 * in it is refused.
 */
function readWitnessSet(reader: Serialization.CborReader): {
  witnesses: { vkey: string; signature: string }[];
  redeemers: Uint8Array | null;
} {
  const witnesses: { vkey: string; signature: string }[] = [];
  let redeemers: Uint8Array | null = null;
  const entries = reader.readStartMap();
  if (entries === null || entries > 2) throw new Error('unexpected witnesses');
  let last = -1n;
  for (let i = 0; i < entries; i++) {
    const key = reader.readInt();
    if (key <= last) throw new Error('witness set keys repeated or out of order');
    last = key;
    if (key === 5n) {
      redeemers = reader.readEncodedValue();
      continue;
    }
    if (key !== 0n) throw new Error('the witness set may hold vkey witnesses and redeemers only');
    if (reader.peekState() === Serialization.CborReaderState.Tag) {
      if (Number(reader.readTag()) !== 258) throw new Error('unexpected tag in the witness set');
    }
    const count = reader.readStartArray();
    if (count === null) throw new Error('vkey witnesses must be a definite array');
    for (let j = 0; j < count; j++) {
      if (reader.readStartArray() !== 2) throw new Error('a vkey witness is [vkey, signature]');
      const vkey = Buffer.from(reader.readByteString()).toString('hex');
      const signature = Buffer.from(reader.readByteString()).toString('hex');
      reader.readEndArray();
      witnesses.push({ vkey, signature });
    }
    reader.readEndArray();
  }
  reader.readEndMap();
  return { witnesses, redeemers };
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

/** Realistic L1 fee: 155381 + 44 lovelace per byte, counting one vkey witness per signer. */
export function l1Fee(txHex: string, signers: number): bigint {
  const bytes = txHex.length / 2 + signers * 101;
  return 155_381n + 44n * BigInt(bytes);
}
