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
  datum?: Serialization.PlutusData;
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

function toValue(amounts: Amounts): Serialization.Value {
  const assets = new Map<Cardano.AssetId, bigint>();
  for (const [unit, quantity] of amounts) {
    if (unit !== 'lovelace' && quantity > 0n) assets.set(Cardano.AssetId(unit), quantity);
  }
  return new Serialization.Value(amounts.get('lovelace') ?? 0n, assets.size ? assets : undefined);
}

const addresses = new Map<string, Cardano.Address>();

function address(bech32: string): Cardano.Address {
  let parsed = addresses.get(bech32);
  if (!parsed) {
    parsed = Cardano.Address.fromBech32(bech32);
    if (addresses.size > 10_000) addresses.clear();
    addresses.set(bech32, parsed);
  }
  return parsed;
}

/** Builds a real unsigned Conway transaction (empty witness set) from a spec. */
export function buildTransaction(spec: TxSpec): BuiltTx {
  const inputs = spec.inputs.map((id) => {
    const { txHash, index } = splitUtxoId(id);
    return new Serialization.TransactionInput(Cardano.TransactionId(txHash), BigInt(index));
  });
  const outputs = spec.outputs.map((o) => {
    const output = new Serialization.TransactionOutput(address(o.address), toValue(o.amounts));
    if (o.datum) output.setDatum(Serialization.Datum.newInlineData(o.datum));
    return output;
  });
  const body = new Serialization.TransactionBody(
    Serialization.CborSet.fromCore(
      inputs.map((i) => i.toCore()),
      Serialization.TransactionInput.fromCore,
    ),
    outputs,
    spec.fee,
    Cardano.Slot(spec.ttlSlot),
  );
  body.setNetworkId(Cardano.NetworkId.Testnet);
  body.setRequiredSigners(
    Serialization.CborSet.fromCore(
      spec.requiredSigners.map((h) => Crypto.Ed25519KeyHashHex(h)),
      Serialization.Hash.fromCore,
    ),
  );
  const tx = new Serialization.Transaction(body, new Serialization.TransactionWitnessSet());
  const bodyHex = body.toCbor();
  return { txId: body.hash(), txHex: tx.toCbor(), bodyHex };
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
    const witnessHex = Buffer.from(reader.readEncodedValue()).toString('hex');
    if (!reader.readBoolean()) throw new Error('is_valid must be true');
    reader.readNull();
    if (!known) reader.readEndArray();
    if (reader.peekState() !== Serialization.CborReaderState.Finished) {
      throw new Error('bytes after the transaction');
    }
    const witnessSet = Serialization.TransactionWitnessSet.fromCbor(HexBlob(witnessHex));
    const witnesses = (witnessSet.vkeys()?.values() ?? []).map((w) => ({
      vkey: w.vkey(),
      signature: w.signature(),
    }));
    const txId = known ? expected.txId : Crypto.blake2b.hash(HexBlob(bodyHex), 32);
    return { txId, bodyHex, witnesses };
  } catch {
    throw new SandboxError(ErrorCode.invalidRequest, 'signed_tx is not a valid Conway transaction');
  }
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
 * units, slippage bp, operation key hash bytes(28)]`.
 */
export function orderDatum(d: OrderDatum): Serialization.PlutusData {
  const fields = new Serialization.PlutusList();
  const uuidBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
  const tag = (n: bigint) =>
    Serialization.PlutusData.newConstrPlutusData(
      new Serialization.ConstrPlutusData(n, new Serialization.PlutusList()),
    );
  fields.add(Serialization.PlutusData.newBytes(uuidBytes(d.orderId)));
  fields.add(Serialization.PlutusData.newBytes(uuidBytes(d.accountId)));
  fields.add(tag(d.side === 'buy' ? 0n : 1n));
  fields.add(tag(d.type === 'limit' ? 0n : 1n));
  fields.add(Serialization.PlutusData.newInteger(d.priceTicks));
  fields.add(Serialization.PlutusData.newInteger(d.quantityUnits));
  fields.add(Serialization.PlutusData.newInteger(BigInt(d.slippageBp)));
  fields.add(Serialization.PlutusData.newBytes(Buffer.from(d.operationKeyHash, 'hex')));
  return Serialization.PlutusData.newConstrPlutusData(
    new Serialization.ConstrPlutusData(0n, fields),
  );
}

/** Realistic L1 fee: 155381 + 44 lovelace per byte, counting one vkey witness per signer. */
export function l1Fee(txHex: string, signers: number): bigint {
  const bytes = txHex.length / 2 + signers * 101;
  return 155_381n + 44n * BigInt(bytes);
}
