import { LOVELACE } from '../../src-shared/assets';
import type { PlutusData } from './plutus-data';

/**
 * The exchange's published on-chain types (its Aiken validators, `lib/hydra_dex/types.ak`), read
 * from Plutus data. This is the one layout Countersign reads, on every network: an order's side,
 * price, size, fee rate and account are checked from what its intent datum says, not assumed from
 * the amount it locks. Every reader either returns the typed value or says, in words, which part
 * could not be read.
 */

export interface Credential {
  type: 'key' | 'script';
  hash: string;
}

/** `UserAccount`: spot (0), funding (1) or mobile (2), each an `Account`. */
export interface LayoutAccount {
  kind: 'spot' | 'funding' | 'mobile';
  /** The account id's bytes, hex. */
  accountId: string;
  masterKey: Credential;
  operationKey: Credential;
}

/** `HydraOrderBookDatum`: an order as the exchange records it. */
export interface LayoutOrder {
  /** The order id's bytes, hex. */
  orderId: string;
  /** Units (`lovelace` or policy id + asset name hex) of the long (base) and short (quote) token. */
  longUnit: string;
  shortUnit: string;
  /** True: buys the long token. */
  isLong: boolean;
  /** Quote per base (human units) × 10^9. */
  priceTimes1e9: bigint;
  /** In the long token's smallest unit. */
  size: bigint;
  feeBp: bigint;
  account: LayoutAccount;
}

/** `HydraUserIntentDatum`. */
export type IntentDatum =
  | { intent: 'place-order'; order: LayoutOrder }
  | { intent: 'cancel-order'; account: LayoutAccount; orderId: string }
  | { intent: 'withdrawal'; account: LayoutAccount; amount: Map<string, bigint> }
  | { intent: 'cancel-withdrawal'; account: LayoutAccount; amount: Map<string, bigint> }
  | { intent: 'transfer'; from: LayoutAccount; to: LayoutAccount; amount: Map<string, bigint> };

/** `HydraUserIntentRedeemer`: the mint redeemers, and `BurnIntent`. */
export type IntentRedeemer =
  | Exclude<IntentDatum, { intent: 'place-order' }>
  | { intent: 'place-order'; order: LayoutOrder }
  | { intent: 'burn' };

/** `AppDepositRequestDatum { account, amount }`. */
export interface DepositRequest {
  account: LayoutAccount;
  amount: Map<string, bigint>;
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

class LayoutError extends Error {}

const fail = (problem: string): never => {
  throw new LayoutError(problem);
};

type Constr = Extract<PlutusData, { kind: 'constr' }>;

const constr = (d: PlutusData | undefined, what: string, arity?: number): Constr => {
  if (d === undefined || typeof d === 'bigint' || d instanceof Uint8Array || d.kind !== 'constr') {
    return fail(`${what} is not a constructor`);
  }
  if (arity !== undefined && d.fields.length !== arity) {
    fail(`${what} has ${d.fields.length} fields instead of ${arity}`);
  }
  return d;
};

const bytes = (d: PlutusData | undefined, what: string, length?: number): Uint8Array => {
  if (!(d instanceof Uint8Array)) return fail(`${what} is not bytes`);
  if (length !== undefined && d.length !== length) {
    fail(`${what} has ${d.length} bytes instead of ${length}`);
  }
  return d;
};

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const int = (d: PlutusData | undefined, what: string): bigint =>
  typeof d === 'bigint' ? d : fail(`${what} is not an integer`);

const bool = (d: PlutusData | undefined, what: string): boolean => {
  const c = constr(d, what, 0);
  if (c.index > 1) fail(`${what} is not True or False`);
  return c.index === 1;
};

const credential = (d: PlutusData | undefined, what: string): Credential => {
  const c = constr(d, what, 1);
  if (c.index > 1) fail(`${what} is not a key or script credential`);
  return { type: c.index === 0 ? 'key' : 'script', hash: hex(bytes(c.fields[0], what, 28)) };
};

const ACCOUNT_KINDS = ['spot', 'funding', 'mobile'] as const;

const account = (d: PlutusData | undefined, what: string): LayoutAccount => {
  const outer = constr(d, what, 1);
  const kind =
    ACCOUNT_KINDS[outer.index] ?? fail(`${what} is not a spot, funding or mobile account`);
  const inner = constr(outer.fields[0], `${what}'s Account`, 3);
  if (inner.index !== 0) fail(`${what}'s Account is not constructor 0`);
  const [id, master, operation] = inner.fields;
  return {
    kind,
    accountId: hex(bytes(id, `${what}'s account id`)),
    masterKey: credential(master, `${what}'s master key`),
    operationKey: credential(operation, `${what}'s operation key`),
  };
};

const list = (d: PlutusData | undefined, what: string): readonly PlutusData[] => {
  if (d === undefined || typeof d === 'bigint' || d instanceof Uint8Array || d.kind !== 'list') {
    return fail(`${what} is not a list`);
  }
  return d.items;
};

const unitOf = (policy: Uint8Array, name: Uint8Array, what: string): string => {
  if (policy.length === 0) {
    if (name.length !== 0) fail(`${what} names an asset under the empty (ADA) policy`);
    return LOVELACE;
  }
  if (policy.length !== 28) fail(`${what}'s policy id has ${policy.length} bytes instead of 28`);
  if (name.length > 32) fail(`${what}'s asset name is longer than 32 bytes`);
  return hex(policy) + hex(name);
};

/** `(PolicyId, AssetName)`: a 2-item list. */
const token = (d: PlutusData | undefined, what: string): string => {
  const items = list(d, what);
  if (items.length !== 2) fail(`${what} is not a (policy, name) pair`);
  return unitOf(
    bytes(items[0], `${what}'s policy id`),
    bytes(items[1], `${what}'s asset name`),
    what,
  );
};

const map = (d: PlutusData | undefined, what: string) => {
  if (d === undefined || typeof d === 'bigint' || d instanceof Uint8Array || d.kind !== 'map') {
    return fail(`${what} is not a map`);
  }
  return d.pairs;
};

/** `MValue` (policy → name → quantity) as amounts by unit; repeated keys are refused. */
const value = (d: PlutusData | undefined, what: string): Map<string, bigint> => {
  const amounts = new Map<string, bigint>();
  const policies = new Set<string>();
  for (const [policy, names] of map(d, what)) {
    const p = bytes(policy, `${what}'s policy id`);
    if (policies.has(hex(p))) fail(`${what} names a policy twice`);
    policies.add(hex(p));
    for (const [name, quantity] of map(names, `${what}'s assets`)) {
      const unit = unitOf(p, bytes(name, `${what}'s asset name`), what);
      if (amounts.has(unit)) fail(`${what} names an asset twice`);
      amounts.set(unit, int(quantity, `${what}'s quantity`));
    }
  }
  return amounts;
};

const order = (d: PlutusData | undefined): LayoutOrder => {
  const c = constr(d, 'the order', 8);
  if (c.index !== 0) fail('the order is not constructor 0');
  const [id, long, short, isLong, price, size, fee, who] = c.fields;
  return {
    orderId: hex(bytes(id, 'the order id')),
    longUnit: token(long, 'the long token'),
    shortUnit: token(short, 'the short token'),
    isLong: bool(isLong, 'is_long'),
    priceTimes1e9: int(price, 'the price'),
    size: int(size, 'the order size'),
    feeBp: int(fee, 'the fee rate'),
    account: account(who, 'the order’s account'),
  };
};

const attempt = <T>(read: () => T): Read<T> => {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof LayoutError) return { ok: false, problem: error.message };
    throw error;
  }
};

const intent = (d: PlutusData, what: string): IntentDatum => {
  const c = constr(d, what);
  const arity =
    [1, 2, 2, 2, 3][c.index] ?? fail(`${what} is not a known intent (constructor ${c.index})`);
  if (c.fields.length !== arity) fail(`${what} has ${c.fields.length} fields instead of ${arity}`);
  const [a, b, x] = c.fields;
  switch (c.index) {
    case 0:
      return { intent: 'place-order', order: order(a) };
    case 1:
      return {
        intent: 'cancel-order',
        account: account(a, 'the account'),
        orderId: hex(bytes(b, 'the order id')),
      };
    case 2:
      return {
        intent: 'withdrawal',
        account: account(a, 'the account'),
        amount: value(b, 'the amount'),
      };
    case 3:
      return {
        intent: 'cancel-withdrawal',
        account: account(a, 'the account'),
        amount: value(b, 'the amount'),
      };
    default:
      return {
        intent: 'transfer',
        from: account(a, 'the sending account'),
        to: account(b, 'the receiving account'),
        amount: value(x, 'the amount'),
      };
  }
};

/** An intent datum (`PlaceOrderIntent`, `CancelOrderIntent`, `WithdrawalIntent`, …). */
export const readIntentDatum = (d: PlutusData): Read<IntentDatum> =>
  attempt(() => intent(d, 'the intent datum'));

/** A user-intent mint redeemer (`MintPlaceOrderIntent`, …, `BurnIntent`). */
export const readIntentRedeemer = (d: PlutusData): Read<IntentRedeemer> =>
  attempt((): IntentRedeemer => {
    const c = constr(d, 'the mint redeemer');
    if (c.index === 5) {
      if (c.fields.length) fail('BurnIntent carries fields');
      return { intent: 'burn' };
    }
    return intent(d, 'the mint redeemer');
  });

/** A deposit request datum (`AppDepositRequestDatum`). */
export const readDepositRequest = (d: PlutusData): Read<DepositRequest> =>
  attempt(() => {
    const c = constr(d, 'the deposit datum', 2);
    if (c.index !== 0) fail('the deposit datum is not constructor 0');
    return {
      account: account(c.fields[0], 'the account'),
      amount: value(c.fields[1], 'the amount'),
    };
  });

/**
 * An id as the layout stores it matches a UUID given by the exchange's API: its 16 bytes, or the
 * UUID's text as UTF-8.
 */
export const idMatches = (idHex: string, uuid: string): boolean => {
  const plain = uuid.toLowerCase().replaceAll('-', '');
  return idHex === plain || idHex === Buffer.from(uuid.toLowerCase(), 'utf8').toString('hex');
};

/** An id for people: a UUID when it is 16 bytes or UUID text, else its hex. */
export const showId = (idHex: string): string => {
  if (idHex.length === 32) {
    return `${idHex.slice(0, 8)}-${idHex.slice(8, 12)}-${idHex.slice(12, 16)}-${idHex.slice(16, 20)}-${idHex.slice(20)}`;
  }
  const text = Buffer.from(idHex, 'hex').toString('utf8');
  return /^[\x20-\x7e]+$/.test(text) ? text : idHex;
};
