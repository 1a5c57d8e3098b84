import { Serialization } from '@cardano-sdk/core';
import { ADA } from './assets.js';

/**
 * The real service's published on-chain types (its Aiken validators, `lib/hydra_dex/types.ak`),
 * written as Plutus data. An Aiken record is constructor 0 with its fields in order; a tuple is a
 * 2-item list; `Bool` is constructor 0 (False) / 1 (True); a `Credential` is constructor 0
 * `[verification key hash]`; `MValue` is a map policy → asset name → quantity. README.md
 * ("Transactions") shows every datum and redeemer the sandbox writes.
 */

/** Plutus data: an integer, bytes, a list, a map (pairs in order) or a constructor. */
export type PlutusData =
  | bigint
  | Uint8Array
  | readonly PlutusData[]
  | { readonly pairs: readonly (readonly [PlutusData, PlutusData])[] }
  | { readonly constr: number; readonly fields: readonly PlutusData[] };

const constr = (index: number, fields: readonly PlutusData[] = []): PlutusData => ({
  constr: index,
  fields,
});

const bytes = (hex: string): Uint8Array => Buffer.from(hex, 'hex');
const uuidBytes = (uuid: string): Uint8Array => bytes(uuid.replaceAll('-', ''));

function write(w: Serialization.CborWriter, d: PlutusData): void {
  if (typeof d === 'bigint') {
    w.writeInt(d);
  } else if (d instanceof Uint8Array) {
    if (d.length > 64) throw new RangeError('Plutus bytes longer than 64 must be chunked');
    w.writeByteString(d);
  } else if (Array.isArray(d)) {
    writeList(w, d);
  } else if ('pairs' in d) {
    w.writeStartMap(d.pairs.length);
    for (const [k, v] of d.pairs) {
      write(w, k);
      write(w, v);
    }
  } else if ('constr' in d) {
    if (d.constr < 7) w.writeTag(121 + d.constr);
    else if (d.constr < 128) w.writeTag(1280 + d.constr - 7);
    else throw new RangeError('constructor indexes above 127 are not used here');
    writeList(w, d.fields);
  }
}

/** Lists as the Cardano SDK writes them: indefinite length, or `80` when empty. */
function writeList(w: Serialization.CborWriter, items: readonly PlutusData[]): void {
  if (items.length === 0) {
    w.writeStartArray(0);
    return;
  }
  w.writeStartArray();
  for (const item of items) write(w, item);
  w.writeEndArray();
}

/** The CBOR of a Plutus datum or redeemer. */
export function encodePlutusData(d: PlutusData): Uint8Array {
  const w = new Serialization.CborWriter();
  write(w, d);
  return w.encode();
}

/** The keys and id of an exchange account, as its datums name it. */
export interface AccountKeys {
  accountId: string;
  /** The wallet's payment key hash: the master key that signs deposits and withdrawals. */
  masterKeyHash: string;
  /** The operation key hash that signs orders and cancels. */
  operationKeyHash: string;
}

/** `UserSpotAccount { Account { account_id, master_key: VerificationKey, operation_key: VerificationKey } }`. */
export function userAccount(a: AccountKeys): PlutusData {
  const vkey = (hash: string) => constr(0, [bytes(hash)]);
  return constr(0, [
    constr(0, [uuidBytes(a.accountId), vkey(a.masterKeyHash), vkey(a.operationKeyHash)]),
  ]);
}

/** `(PolicyId, AssetName)` of an on-chain unit; ADA is `("", "")`. */
function token(unit: string): PlutusData {
  return unit === ADA.unit
    ? [bytes(''), bytes('')]
    : [bytes(unit.slice(0, 56)), bytes(unit.slice(56))];
}

/** `MValue`: policy → asset name → quantity, policies in byte order (ADA's empty policy first). */
export function multiAssetValue(amounts: ReadonlyMap<string, bigint>): PlutusData {
  const policies = new Map<string, [string, bigint][]>();
  for (const [unit, quantity] of amounts) {
    if (quantity === 0n) continue;
    const [policy, name] = unit === ADA.unit ? ['', ''] : [unit.slice(0, 56), unit.slice(56)];
    policies.set(policy, [...(policies.get(policy) ?? []), [name, quantity]]);
  }
  const sorted = [...policies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    pairs: sorted.map(([policy, names]) => [
      bytes(policy),
      {
        pairs: names
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, q]) => [bytes(name), q] as const),
      },
    ]),
  };
}

/** Price scale of the layout: quote per base (human units) × 10^9. */
export const PRICE_TIMES = 1_000_000_000n;

/** An order as the layout records it (`HydraOrderBookDatum`). */
export interface LayoutOrder {
  orderId: string;
  /** The token bought when `isLong` (the market's base), and the other one (its quote). */
  longUnit: string;
  shortUnit: string;
  isLong: boolean;
  /** Quote per base × 10^9; 0 for a market order without a price limit. */
  priceTimes1e9: bigint;
  /** In the long token's smallest unit. */
  size: bigint;
  feeBp: number;
  account: AccountKeys;
}

export function layoutOrder(o: LayoutOrder): PlutusData {
  return constr(0, [
    uuidBytes(o.orderId),
    token(o.longUnit),
    token(o.shortUnit),
    constr(o.isLong ? 1 : 0),
    o.priceTimes1e9,
    o.size,
    BigInt(o.feeBp),
    userAccount(o.account),
  ]);
}

/** `HydraUserIntentDatum` constructors 0..2 and the matching mint redeemers. */
export const placeOrderIntent = (o: LayoutOrder): PlutusData => constr(0, [layoutOrder(o)]);
export const cancelOrderIntent = (account: AccountKeys, orderId: string): PlutusData =>
  constr(1, [userAccount(account), uuidBytes(orderId)]);
export const withdrawalIntent = (
  account: AccountKeys,
  amounts: ReadonlyMap<string, bigint>,
): PlutusData => constr(2, [userAccount(account), multiAssetValue(amounts)]);

/** `MintPlaceOrderIntent { order }` and `MintWithdrawalIntent { account, amount }`. */
export const mintPlaceOrderIntent = placeOrderIntent;
export const mintWithdrawalIntent = withdrawalIntent;

/** `AppDepositRequestDatum { account, amount }`: what a deposit output says about itself. */
export const depositRequest = (
  account: AccountKeys,
  amounts: ReadonlyMap<string, bigint>,
): PlutusData => constr(0, [userAccount(account), multiAssetValue(amounts)]);
