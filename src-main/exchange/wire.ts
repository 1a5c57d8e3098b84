import Decimal from 'decimal.js';
import { z } from 'zod';
import {
  MarketSymbol,
  OPEN_STATUSES,
  OrderStatus,
  OrderType,
  Role,
  Side,
  type Balance,
  type Candle,
  type Depth,
  type Execution,
  type MarketTrade,
  type Order,
  type OrderPage,
} from '../../src-shared/domain';
import { Money, moneyFromWire } from '../../src-shared/money';
import { ExchangeError } from './errors';
import { parseJsonExact } from './json';

/**
 * The exchange's wire formats → the app's domain types, and the app's requests → exact JSON.
 * Every answer is validated; numbers and decimal strings become exact decimals; unknown extra
 * fields are ignored; a missing or malformed field is an error naming the field and the
 * endpoint. Both order-record field sets (the seed's and the older real one) and every wrapper
 * the real service has used map onto one `Order`.
 */

/** Where an answer came from, for messages; `ambiguous` when it answers a submit. */
export interface AnswerOf {
  endpoint: string;
  action: string;
  ambiguous?: boolean;
  /** How to name the server; "the exchange" by default. */
  service?: string;
}

const ZERO = new Money(0);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const formatPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string => {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || 'the answer';
};

/** The error for an answer that is not in the expected form. */
export const unexpectedAnswer = (where: AnswerOf, problem: string): ExchangeError =>
  new ExchangeError({
    failure: 'unexpected-answer',
    detail: `The answer of ${where.service ?? 'the exchange'} to ${where.action} (${where.endpoint}) is not in a form Countersign understands: ${problem}.`,
    advice: where.ambiguous
      ? 'The request had been sent, so it may or may not have taken effect: check your orders and balances before trying again. Countersign will not send it twice on its own.'
      : 'Countersign has not used it. If this keeps happening, the exchange may have changed its format: please report it.',
    endpoint: where.endpoint,
    ambiguous: where.ambiguous ?? false,
  });

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
};

const describeIssue = (issue: z.core.$ZodIssue, prefix: string, input: unknown): string => {
  const field = `\`${formatPath(prefix, issue.path)}\``;
  const value = valueAt(input, issue.path);
  if (value === undefined) return `${field} is missing`;
  if (issue.code === 'invalid_union') {
    const shown = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
    return `${field} has an unexpected value (${shown})`;
  }
  const message = issue.message.replace(/^Invalid input: /, '').slice(0, 120);
  return `${field}: ${message}`;
};

/** Parses with a schema; a failure names the first bad field and the endpoint. */
export const parseAnswer = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: AnswerOf,
  prefix = '',
): z.output<S> => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw unexpectedAnswer(where, issue ? describeIssue(issue, prefix, value) : 'it is malformed');
};

// ---------------------------------------------------------------- scalars
//
// Each scalar is one transform (not a union plus a refinement): a page of 250 orders holds
// thousands of them, and decoding it stays within a few milliseconds.

/** A short quote of a wire value; a list or an object is only named (it may be nested deep). */
const preview = (value: unknown): string => {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** What a reader makes of one wire value: the value, or, as a string, what is wrong with it. */
type Read<T> = { ok: T } | string;

/** A scalar read by `read`, which returns the value or, as a string, what is wrong with it. */
const scalar = <T>(read: (value: unknown) => Read<T>) =>
  z.unknown().transform((value, ctx): T => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: 'missing' });
      return z.NEVER;
    }
    const out = read(value);
    if (typeof out === 'string') {
      ctx.addIssue({ code: 'custom', message: out });
      return z.NEVER;
    }
    return out.ok;
  });

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const EXPONENT_TEXT = /^-?\d+(\.\d+)?[eE][+-]?\d+$/;

/**
 * Longest decimal text read. With amounts below `MAX_AMOUNT` it keeps every digit within
 * Money's 60 significant digits, so a long string is refused instead of rounded.
 */
const MAX_DECIMAL_TEXT = 48;

/**
 * Above any amount, price or balance the exchange can mean (all the ADA there will ever be is
 * 4.5 × 10^10): a larger one is a broken or hostile answer, not a number to show or sign for.
 */
const MAX_AMOUNT = new Money('1e15');

/** A JSON number or a decimal string → exact Money (never negative: amounts, prices, fees). */
const readDecimal = (value: unknown): Read<Decimal> => {
  let money: Decimal;
  if (typeof value === 'number' && Number.isFinite(value)) {
    money = moneyFromWire(value);
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (text.length > MAX_DECIMAL_TEXT) return `has too many digits (${preview(value)})`;
    // An exponent is how JSON writers put very small or large numbers (`5e-7`, and the float
    // dust `5.551115123125783e-17` a service that computes in floats leaves in a balance): read
    // exactly, as written; `MAX_AMOUNT` below refuses the absurd ones.
    if (!DECIMAL_TEXT.test(text) && !EXPONENT_TEXT.test(text)) {
      return `not a decimal number (${preview(value)})`;
    }
    money = new Money(text);
  } else {
    return `not a decimal number (${preview(value)})`;
  }
  if (money.isNegative()) return 'must not be negative';
  return money.greaterThan(MAX_AMOUNT)
    ? `is larger than any real amount (${preview(value)})`
    : { ok: money };
};

/** A decimal that may not be negative (quantities, prices, balances, fees). */
const NonNegative = scalar(readDecimal);

/** A rate in basis points: a whole number from 0 to 10,000 (100 %), as the exchange bounds them. */
const readBasisPoints = (v: unknown): Read<number> => {
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 10_000
    ? { ok: n }
    : `not a whole number of basis points from 0 to 10000 (${preview(v)})`;
};
const BasisPoints = scalar(readBasisPoints);
const basisPointsOrNull = (v: unknown): number | null => {
  const read = readBasisPoints(v);
  return typeof read === 'string' ? null : read.ok;
};

const ISO_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;
/** Other ISO 8601 forms: a space for the T, no seconds, an offset, or no zone (UTC, the seed's). */
const ISO_OTHER =
  /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:?\d\d)?$/i;
/** An HTTP date (`Fri, 14 Mar 2025 09:26:53 GMT`): unambiguous, and servers write it. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/;

/** The number written by `length` digits of `text` at `at` (the caller's pattern made them digits). */
const digitsAt = (text: string, at: number, length: number): number => {
  let n = 0;
  for (let i = at; i < at + length; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
};

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Epoch ms of an ISO date (`YYYY-MM-DD`) and time (`hh:mm:ss`) whose every part is in range, or
 * NaN: `Date.parse` rolls `2025-02-30` over into March and reads a text with no zone in the
 * computer's own zone. (Checked by figures, not by a round trip through a Date: a page of orders
 * holds a thousand times.)
 */
const isoMs = (day: string, clock: string, zone: string): number => {
  const [year, month, date] = [digitsAt(day, 0, 4), digitsAt(day, 5, 2), digitsAt(day, 8, 2)];
  const [hour, minute, second] = [
    digitsAt(clock, 0, 2),
    digitsAt(clock, 3, 2),
    digitsAt(clock, 6, 2),
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  // Before 1970 no exchange stamped anything (and Date.UTC reads a year below 100 as 19xx).
  if (year < 1970 || date < 1 || date > days || hour > 23 || minute > 59 || second > 59) {
    return Number.NaN;
  }
  const ms = Date.UTC(year, month - 1, date, hour, minute, second);
  if (zone === '' || zone.toUpperCase() === 'Z') return ms;
  const [, sign, hh, mm] = /^([+-])(\d\d):?(\d\d)$/.exec(zone) ?? [];
  const offset = (Number(hh) * 60 + Number(mm)) * 60_000;
  return sign === '-' ? ms + offset : ms - offset;
};

/**
 * A timestamp as ISO 8601 text or Unix seconds (milliseconds above 10^11) → ISO 8601 UTC. Any
 * other text is refused, not guessed at (`Date.parse` makes a date of "foo 2020" or "1").
 */
const readTime = (value: unknown): Read<string> => {
  if (typeof value === 'string') {
    const iso = ISO_UTC.exec(value);
    if (iso?.[1] && Number.isFinite(isoMs(iso[1].slice(0, 10), iso[1].slice(11), 'Z'))) {
      return { ok: `${iso[1]}.${(iso[2] ?? '').slice(0, 3).padEnd(3, '0')}Z` };
    }
  }
  let ms = Number.NaN;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value))) {
    const n = Number(value);
    ms = n > 1e11 ? n : n * 1000;
  } else if (typeof value === 'string') {
    const text = value.trim();
    const iso = ISO_OTHER.exec(text);
    if (iso) {
      const [, day = '', hm = '', sec = '00', fraction = '', zone = ''] = iso;
      ms = isoMs(day, `${hm}:${sec}`, zone) + Number(fraction.padEnd(3, '0').slice(0, 3));
    } else if (HTTP_DATE.test(text)) {
      ms = Date.parse(text);
    }
  }
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) return `not a time (${preview(value)})`;
  return { ok: new Date(ms).toISOString() };
};
const Time = scalar(readTime);

const Id = z.string().min(1).max(100);
const Hex = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^(?:[0-9a-fA-F]{2})+$/, 'not hexadecimal')
    .transform((s) => s.toLowerCase());

const snake = (text: string) =>
  text
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toLowerCase();

/** One of a set of names, written in any case or style (`BUY`, `partiallyFilled`). */
const readNamed = <T extends string>(
  values: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
) => {
  const known = new Set<string>(values);
  return (value: unknown): Read<T> => {
    if (typeof value !== 'string') return `not one of ${values.join(', ')}`;
    if (known.has(value)) return { ok: value as T };
    const s = snake(value);
    if (known.has(s)) return { ok: s as T };
    // Own names only: a value such as `constructor` must not find Object's.
    const alias = Object.hasOwn(aliases, s) ? aliases[s] : undefined;
    return alias
      ? { ok: alias }
      : `“${preview(value).slice(1, -1)}” is not one of ${values.join(', ')}`;
  };
};

const readSide = readNamed(Side.options);
const readType = readNamed(OrderType.options);
const readRole = readNamed(Role.options);
const readStatus = readNamed(OrderStatus.options, {
  canceled: 'cancelled',
  partially_canceled: 'partially_cancelled',
  filled: 'fully_filled',
});
const readSymbol = (value: unknown): Read<string> => {
  const symbol = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return MarketSymbol.safeParse(symbol).success
    ? { ok: symbol }
    : `not a market such as ADAUSDM (${preview(value)})`;
};
const SideW = scalar(readSide);
const TypeW = scalar(readType);
const RoleW = scalar(readRole);
const StatusW = scalar(readStatus);
const SymbolW = scalar(readSymbol);

// ---------------------------------------------------------------- order records

const SeedExecution = z.object({
  id: Id,
  order_id: Id,
  account_id: Id.nullish(),
  counter_party_order_id: Id.nullish(),
  execution_price: NonNegative,
  filled_base_qty: NonNegative,
  filled_quote_qty: NonNegative.nullish(),
  commission: NonNegative.nullish(),
  commission_unit: z.string().max(120).nullish(),
  role: RoleW,
  created_at: Time,
});

const SeedOrder = z.object({
  id: Id,
  account_id: Id.nullish(),
  symbol: SymbolW,
  side: SideW,
  type: TypeW,
  status: StatusW,
  price: NonNegative.nullish(),
  base_qty: NonNegative,
  quote_qty: NonNegative.nullish(),
  locked_base_qty: NonNegative.nullish(),
  locked_quote_qty: NonNegative.nullish(),
  executed_base_qty: NonNegative.nullish(),
  executed_quote_qty: NonNegative.nullish(),
  executed_price: NonNegative.nullish(),
  ob_open_order_base_qty: NonNegative.nullish(),
  market_order_limit_price: NonNegative.nullish(),
  slippage_bp: BasisPoints.nullish(),
  commission: NonNegative.nullish(),
  commission_rate_bp: BasisPoints.nullish(),
  commission_unit: z.string().max(120).nullish(),
  active_order_utxo_id: z.string().max(200).nullish(),
  created_at: Time,
  updated_at: Time.nullish(),
  order_execution_records: z.array(SeedExecution).nullish(),
});

const LegacyFill = z.object({
  id: Id,
  order_id: Id,
  execution_price: NonNegative,
  filled_amount: NonNegative,
  fee_unit: z.string().max(120).nullish(),
  fee_amount: NonNegative.nullish(),
  role: RoleW,
  counter_party_order_id: Id.nullish(),
  create_time: Time,
});

const LegacyOrder = z.object({
  order_id: Id,
  account_id: Id.nullish(),
  symbol: SymbolW,
  side: SideW,
  type: TypeW,
  status: StatusW,
  price: NonNegative.nullish(),
  orig_qty: NonNegative,
  executed_qty: NonNegative.nullish(),
  executed_price: NonNegative.nullish(),
  fee_charged: NonNegative.nullish(),
  fee_unit: z.string().max(120).nullish(),
  slippage: z.union([z.string(), z.number()]).nullish(),
  create_time: Time,
  update_time: Time.nullish(),
  fills: z.array(LegacyFill).nullish(),
});

// ---------------------------------------------------------------- order records, fast path
//
// A page holds up to 250 records and the account stream pushes the whole open list on every
// change, so the plain shape of a record is read by hand: the same readers as the schemas above,
// field by field, giving the same output. It is exactly as strict because it only ever says
// "yes, and this is the value" or "not sure": on anything it does not accept it gives up, and
// the schema decides (and, for a bad record, writes the error naming the field).

type SeedRecord = z.output<typeof SeedOrder>;
type LegacyRecord = z.output<typeof LegacyOrder>;

/** Thrown inside the fast path when a value is not plainly valid: the schema takes over. */
const GIVE_UP: unique symbol = Symbol('give up');

const take = <T>(out: Read<T>): T => {
  if (typeof out === 'string') throw GIVE_UP;
  return out.ok;
};
/** `.nullish()`: null and undefined pass as they are. */
const optional = <T>(value: unknown, read: (value: unknown) => T): T | null | undefined =>
  value === undefined || value === null ? value : read(value);
const fastId = (value: unknown): string => {
  if (typeof value !== 'string' || value.length < 1 || value.length > 100) throw GIVE_UP;
  return value;
};
const fastText = (max: number) => (value: unknown) => {
  if (typeof value !== 'string' || value.length > max) throw GIVE_UP;
  return value;
};
const fastText120 = fastText(120);
const fastText200 = fastText(200);
const fastDecimal = (value: unknown): Decimal => take(readDecimal(value));
const fastBasisPoints = (value: unknown): number => take(readBasisPoints(value));
const fastTime = (value: unknown): string => take(readTime(value));
const fastList = <T>(value: unknown, read: (item: Record<string, unknown>) => T): T[] => {
  if (!Array.isArray(value)) throw GIVE_UP;
  const out: T[] = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!isObject(item)) throw GIVE_UP;
    out[i] = read(item);
  }
  return out;
};
const fastSlippage = (value: unknown): string | number => {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
    return value;
  }
  throw GIVE_UP;
};

const fastSeedExecution = (e: Record<string, unknown>) => ({
  id: fastId(e.id),
  order_id: fastId(e.order_id),
  account_id: optional(e.account_id, fastId),
  counter_party_order_id: optional(e.counter_party_order_id, fastId),
  execution_price: fastDecimal(e.execution_price),
  filled_base_qty: fastDecimal(e.filled_base_qty),
  filled_quote_qty: optional(e.filled_quote_qty, fastDecimal),
  commission: optional(e.commission, fastDecimal),
  commission_unit: optional(e.commission_unit, fastText120),
  role: take(readRole(e.role)),
  created_at: fastTime(e.created_at),
});

const fastSeed = (r: Record<string, unknown>): SeedRecord => ({
  id: fastId(r.id),
  account_id: optional(r.account_id, fastId),
  symbol: take(readSymbol(r.symbol)),
  side: take(readSide(r.side)),
  type: take(readType(r.type)),
  status: take(readStatus(r.status)),
  price: optional(r.price, fastDecimal),
  base_qty: fastDecimal(r.base_qty),
  quote_qty: optional(r.quote_qty, fastDecimal),
  locked_base_qty: optional(r.locked_base_qty, fastDecimal),
  locked_quote_qty: optional(r.locked_quote_qty, fastDecimal),
  executed_base_qty: optional(r.executed_base_qty, fastDecimal),
  executed_quote_qty: optional(r.executed_quote_qty, fastDecimal),
  executed_price: optional(r.executed_price, fastDecimal),
  ob_open_order_base_qty: optional(r.ob_open_order_base_qty, fastDecimal),
  market_order_limit_price: optional(r.market_order_limit_price, fastDecimal),
  slippage_bp: optional(r.slippage_bp, fastBasisPoints),
  commission: optional(r.commission, fastDecimal),
  commission_rate_bp: optional(r.commission_rate_bp, fastBasisPoints),
  commission_unit: optional(r.commission_unit, fastText120),
  active_order_utxo_id: optional(r.active_order_utxo_id, fastText200),
  created_at: fastTime(r.created_at),
  updated_at: optional(r.updated_at, fastTime),
  order_execution_records: optional(r.order_execution_records, (list) =>
    fastList(list, fastSeedExecution),
  ),
});

const fastLegacyFill = (f: Record<string, unknown>) => ({
  id: fastId(f.id),
  order_id: fastId(f.order_id),
  execution_price: fastDecimal(f.execution_price),
  filled_amount: fastDecimal(f.filled_amount),
  fee_unit: optional(f.fee_unit, fastText120),
  fee_amount: optional(f.fee_amount, fastDecimal),
  role: take(readRole(f.role)),
  counter_party_order_id: optional(f.counter_party_order_id, fastId),
  create_time: fastTime(f.create_time),
});

const fastLegacy = (r: Record<string, unknown>): LegacyRecord => ({
  order_id: fastId(r.order_id),
  account_id: optional(r.account_id, fastId),
  symbol: take(readSymbol(r.symbol)),
  side: take(readSide(r.side)),
  type: take(readType(r.type)),
  status: take(readStatus(r.status)),
  price: optional(r.price, fastDecimal),
  orig_qty: fastDecimal(r.orig_qty),
  executed_qty: optional(r.executed_qty, fastDecimal),
  executed_price: optional(r.executed_price, fastDecimal),
  fee_charged: optional(r.fee_charged, fastDecimal),
  fee_unit: optional(r.fee_unit, fastText120),
  slippage: optional(r.slippage, fastSlippage),
  create_time: fastTime(r.create_time),
  update_time: optional(r.update_time, fastTime),
  fills: optional(r.fills, (list) => fastList(list, fastLegacyFill)),
});

/** The fast path's reading of a record, or undefined when the schema must decide. */
const quickly = <T>(read: (raw: Record<string, unknown>) => T, raw: Record<string, unknown>) => {
  try {
    return read(raw);
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
};

const positiveOrNull = (value: Decimal | null | undefined): Decimal | null =>
  value && value.greaterThan(0) ? value : null;

const isOpen = (status: Order['status']) => OPEN_STATUSES.includes(status);

const fromSeed = (r: z.output<typeof SeedOrder>): Order => {
  const executedBase = r.executed_base_qty ?? ZERO;
  const executions: Execution[] = (r.order_execution_records ?? []).map((e) => ({
    id: e.id,
    orderId: e.order_id,
    accountId: e.account_id ?? null,
    counterPartyOrderId: e.counter_party_order_id ?? null,
    price: e.execution_price,
    baseQty: e.filled_base_qty,
    quoteQty: e.filled_quote_qty ?? e.filled_base_qty.times(e.execution_price),
    commission: e.commission ?? ZERO,
    commissionUnit: e.commission_unit ?? '',
    role: e.role,
    createdAt: e.created_at,
  }));
  return {
    id: r.id,
    accountId: r.account_id ?? null,
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    status: r.status,
    price: r.type === 'market' ? null : (r.price ?? null),
    baseQty: r.base_qty,
    quoteQty: r.quote_qty ?? null,
    lockedBaseQty: r.locked_base_qty ?? ZERO,
    lockedQuoteQty: r.locked_quote_qty ?? ZERO,
    executedBaseQty: executedBase,
    executedQuoteQty: r.executed_quote_qty ?? ZERO,
    executedPrice: executedBase.isZero() ? null : positiveOrNull(r.executed_price),
    openBaseQty:
      r.ob_open_order_base_qty ??
      (isOpen(r.status) ? Money.max(ZERO, r.base_qty.minus(executedBase)) : ZERO),
    marketOrderLimitPrice: positiveOrNull(r.market_order_limit_price),
    slippageBp: r.slippage_bp ?? null,
    commission: r.commission ?? ZERO,
    commissionRateBp: r.commission_rate_bp ?? null,
    commissionUnit: r.commission_unit ?? '',
    activeOrderUtxoId: r.active_order_utxo_id || null,
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? r.created_at,
    executions,
  };
};

/**
 * The older field set. What it does not carry is derived exactly from what it does: quote
 * amounts from price × quantity, what an open order locks from its side and remaining size.
 */
const fromLegacy = (r: z.output<typeof LegacyOrder>): Order => {
  const executions: Execution[] = (r.fills ?? []).map((f) => ({
    id: f.id,
    orderId: f.order_id,
    accountId: r.account_id ?? null,
    counterPartyOrderId: f.counter_party_order_id ?? null,
    price: f.execution_price,
    baseQty: f.filled_amount,
    quoteQty: f.filled_amount.times(f.execution_price),
    commission: f.fee_amount ?? ZERO,
    commissionUnit: f.fee_unit ?? r.fee_unit ?? '',
    role: f.role,
    createdAt: f.create_time,
  }));
  const price = r.type === 'market' ? null : positiveOrNull(r.price);
  const executedBase = r.executed_qty ?? ZERO;
  const executedPrice = executedBase.isZero() ? null : positiveOrNull(r.executed_price);
  const executedQuote =
    executions.length > 0
      ? executions.reduce((sum, e) => sum.plus(e.quoteQty), ZERO)
      : executedPrice
        ? executedBase.times(executedPrice)
        : ZERO;
  const remaining = isOpen(r.status) ? Money.max(ZERO, r.orig_qty.minus(executedBase)) : ZERO;
  const slippage =
    typeof r.slippage === 'number'
      ? r.slippage
      : r.slippage && /^\d{1,5}$/.test(r.slippage.trim())
        ? Number(r.slippage)
        : null;
  return {
    id: r.order_id,
    accountId: r.account_id ?? null,
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    status: r.status,
    price,
    baseQty: r.orig_qty,
    quoteQty: price ? r.orig_qty.times(price) : null,
    lockedBaseQty: r.side === 'sell' ? remaining : ZERO,
    lockedQuoteQty: r.side === 'buy' && price ? remaining.times(price) : ZERO,
    executedBaseQty: executedBase,
    executedQuoteQty: executedQuote,
    executedPrice,
    openBaseQty: remaining,
    marketOrderLimitPrice: null,
    slippageBp: slippage === null ? null : basisPointsOrNull(slippage),
    commission: r.fee_charged ?? ZERO,
    commissionRateBp: null,
    commissionUnit: r.fee_unit ?? '',
    activeOrderUtxoId: null,
    createdAt: r.create_time,
    updatedAt: r.update_time ?? r.create_time,
    executions,
  };
};

const isLegacyRecord = (raw: Record<string, unknown>) =>
  'orig_qty' in raw || ('order_id' in raw && !('id' in raw));

/** How a record is read: fast path first (`quick`), or by the schemas alone (`schema`). */
type RecordReading = 'quick' | 'schema';

const decodeRecordWith = (
  reading: RecordReading,
  raw: unknown,
  where: AnswerOf,
  prefix: string,
): Order => {
  if (!isObject(raw)) {
    throw unexpectedAnswer(where, `\`${prefix || 'the answer'}\` is not an order record`);
  }
  if (isLegacyRecord(raw)) {
    const legacy =
      (reading === 'quick' ? quickly(fastLegacy, raw) : undefined) ??
      parseAnswer(LegacyOrder, raw, where, prefix);
    return checkedRecord(fromLegacy(legacy), where, prefix, LEGACY_FIELDS);
  }
  const seed =
    (reading === 'quick' ? quickly(fastSeed, raw) : undefined) ??
    parseAnswer(SeedOrder, raw, where, prefix);
  if (seed.type === 'limit' && !seed.price?.greaterThan(0)) {
    throw unexpectedAnswer(
      where,
      `\`${formatPath(prefix, ['price'])}\` is missing (a limit order has a price)`,
    );
  }
  return checkedRecord(fromSeed(seed), where, prefix, SEED_FIELDS);
};

/** Each key once in a list: a record repeated would be counted, or shown, twice. */
const unique = <T>(
  items: readonly T[],
  key: (item: T) => string,
  what: string,
  where: AnswerOf,
  prefix: string,
): void => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) {
      throw unexpectedAnswer(where, `\`${formatPath(prefix, [i])}\` repeats ${what} ${preview(k)}`);
    }
    seen.add(k);
  });
};

/** Where a field set keeps an order's executions. */
interface RecordFields {
  executions: string;
}
const SEED_FIELDS: RecordFields = { executions: 'order_execution_records' };
const LEGACY_FIELDS: RecordFields = { executions: 'fills' };

/**
 * A record's executions must be its own, each listed once: else a fill of another order, or one
 * listed twice, would be counted into this order's figures. (Sizes are not compared: a market
 * order's base size may be an estimate, and rounded fills may add up past it.)
 */
const checkedRecord = (
  order: Order,
  where: AnswerOf,
  prefix: string,
  fields: RecordFields,
): Order => {
  if (order.executions.length === 0) return order;
  const list = formatPath(prefix, [fields.executions]);
  order.executions.forEach((e, i) => {
    if (e.orderId !== order.id) {
      throw unexpectedAnswer(
        where,
        `\`${formatPath(list, [i])}\` is an execution of another order (${preview(e.orderId)}, not ${preview(order.id)})`,
      );
    }
  });
  unique(order.executions, (e) => e.id, 'execution', where, list);
  return order;
};

/** One order record, in either field set. */
export const decodeOrderRecord = (raw: unknown, where: AnswerOf, prefix = ''): Order =>
  decodeRecordWith('quick', raw, where, prefix);

/**
 * The same, read by the schemas alone: what the fast path must agree with (its tests compare
 * the two on every kind of record, valid or not).
 */
export const decodeOrderRecordBySchema = (raw: unknown, where: AnswerOf, prefix = ''): Order =>
  decodeRecordWith('schema', raw, where, prefix);

/** Whether the fast path reads a record itself (else the schemas do): for its tests. */
export const readsQuickly = (raw: Record<string, unknown>): boolean =>
  (isLegacyRecord(raw) ? quickly(fastLegacy, raw) : quickly(fastSeed, raw)) !== undefined;

/**
 * An answer holding one order: bare, `{order}`, or `{order_json}` (an object or JSON text). It
 * must be about the order asked for (a lookup) or just submitted.
 */
export const decodeOrderReply = (body: unknown, id: string, where: AnswerOf): Order => {
  const order = orderInReply(body, where);
  if (order.id.toLowerCase() !== id.toLowerCase()) {
    throw unexpectedAnswer(where, `it is about order ${preview(order.id)}, not ${preview(id)}`);
  }
  return order;
};

const orderInReply = (body: unknown, where: AnswerOf): Order => {
  if (isObject(body) && isObject(body.order)) return decodeOrderRecord(body.order, where, 'order');
  if (isObject(body) && 'order_json' in body) {
    let inner = body.order_json;
    if (typeof inner === 'string') {
      try {
        inner = parseJsonExact(inner);
      } catch {
        throw unexpectedAnswer(where, '`order_json` is not valid JSON');
      }
    }
    return decodeOrderRecord(inner, where, 'order_json');
  }
  return decodeOrderRecord(body, where);
};

const Count = z
  .union([z.number().int().nonnegative().max(1e12), z.string().regex(/^\d{1,12}$/)])
  .transform(Number);

// Schemas are built once: building one costs more than using it.
const PageTotals = z.object({ total_count: Count.nullish(), total_page: Count.nullish() });

const recordsOf = (body: unknown, where: AnswerOf): Array<{ raw: unknown; path: string }> => {
  if (Array.isArray(body)) return body.map((raw, i) => ({ raw, path: `[${i}]` }));
  if (!isObject(body)) throw unexpectedAnswer(where, 'it is not a list of orders');
  if (Array.isArray(body.orders)) {
    return body.orders.map((raw, i) => ({ raw, path: `orders[${i}]` }));
  }
  if (body.data === null || body.data === undefined) return [];
  if (!Array.isArray(body.data)) throw unexpectedAnswer(where, '`data` is not a list');
  const out: Array<{ raw: unknown; path: string }> = [];
  body.data.forEach((group, g) => {
    if (isObject(group) && ('orders' in group || 'order_filling_records' in group)) {
      if (group.orders === null || group.orders === undefined) return;
      if (!Array.isArray(group.orders)) {
        throw unexpectedAnswer(where, `\`data[${g}].orders\` is not a list`);
      }
      group.orders.forEach((raw, i) => out.push({ raw, path: `data[${g}].orders[${i}]` }));
    } else {
      out.push({ raw: group, path: `data[${g}]` });
    }
  });
  return out;
};

/**
 * Two JSON values alike in every field (key order aside). Deeper than any record nests, it
 * answers "not alike" (the record is then decoded afresh) rather than recurse without end.
 */
const sameJson = (a: unknown, b: unknown, depth = 0): boolean => {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > 16) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key], depth + 1)) return false;
    keys++;
  }
  for (const key in y) if (Object.hasOwn(y, key)) keys--;
  return keys === 0;
};

/**
 * Remembers the orders of the last list decoded, with the records they came from: the account
 * stream pushes the whole open-order list on every change, and most of its records are as they
 * were. A record alike in every field to the one an order was decoded from gives that order
 * again, undecoded; any other is decoded (a bad one fails as ever). Holds one list at a time.
 */
export class OrderListMemo {
  #last = new Map<string, { raw: unknown; order: Order }>();

  decode(records: ReadonlyArray<{ raw: unknown; path: string }>, where: AnswerOf): Order[] {
    const next = new Map<string, { raw: unknown; order: Order }>();
    const orders = records.map(({ raw, path }) => {
      const id = isObject(raw) ? (raw.id ?? raw.order_id) : undefined;
      const key = typeof id === 'string' ? id : undefined;
      const known = key === undefined ? undefined : this.#last.get(key);
      const order =
        known && sameJson(known.raw, raw) ? known.order : decodeOrderRecord(raw, where, path);
      if (key !== undefined) next.set(key, { raw, order });
      return order;
    });
    this.#last = next;
    return orders;
  }
}

/** More records than any list the exchange sends (a page holds up to 250). */
const MAX_RECORDS = 1_000;

/**
 * A page of order records: `{data: [{orders}], total_count, total_page}`, or a bare list. No
 * order may appear twice. Orders of other markets than one asked for are kept: the seed's
 * endpoint takes no market filter, and its readers filter the list themselves.
 */
export const decodeOrderPage = (
  body: unknown,
  where: AnswerOf,
  asked: { page: number; limit: number },
  memo?: OrderListMemo,
): OrderPage => {
  const records = recordsOf(body, where);
  if (records.length > MAX_RECORDS) {
    throw unexpectedAnswer(where, `it lists ${records.length} orders, more than any list holds`);
  }
  const orders = memo
    ? memo.decode(records, where)
    : records.map(({ raw, path }) => decodeOrderRecord(raw, where, path));
  const seen = new Set<string>();
  orders.forEach((order, i) => {
    if (seen.has(order.id)) {
      throw unexpectedAnswer(
        where,
        `\`${records[i]?.path ?? ''}\` repeats order ${preview(order.id)}`,
      );
    }
    seen.add(order.id);
  });
  const totals = isObject(body) ? parseAnswer(PageTotals, body, where) : {};
  const totalCount = totals.total_count ?? orders.length;
  return {
    orders,
    page: asked.page,
    limit: asked.limit,
    totalCount,
    totalPages: totals.total_page ?? Math.ceil(totalCount / asked.limit),
  };
};

// ---------------------------------------------------------------- balances

const BalanceEntry = z.object({
  asset: z.string().trim().min(1).max(40),
  asset_unit: z.string().max(120).nullish(),
  free: NonNegative,
  locked: NonNegative.nullish(),
});

/** Lists longer than any the exchange sends are refused before their items are read. */
const MAX_BALANCES = 1_000;
const MAX_LEVELS = 10_000;
const MAX_CANDLES = 10_000;
const MAX_TRADES = 1_000;

const BalanceList = z.array(BalanceEntry).max(MAX_BALANCES);

const unitOf = (asset: string, unit: string | null | undefined): string => {
  const u = (unit ?? '').trim();
  if (u === '' || u.toLowerCase() === 'lovelace') {
    return u !== '' || asset === 'ADA' ? 'lovelace' : '';
  }
  return /^[0-9a-fA-F]+$/.test(u) ? u.toLowerCase() : u;
};

/** Balance entries: a bare list (or `{balance|balances|data: [...]}`), numbers or decimal strings. */
export const decodeBalances = (body: unknown, where: AnswerOf): Balance[] => {
  let list: unknown = body;
  let prefix = '';
  if (isObject(body)) {
    const key = ['balance', 'balances', 'data'].find((k) => Array.isArray(body[k]));
    if (key) {
      list = body[key];
      prefix = key;
    }
  }
  const out = parseAnswer(BalanceList, list, where, prefix).map((b) => {
    const asset = b.asset.toUpperCase();
    return { asset, unit: unitOf(asset, b.asset_unit), free: b.free, locked: b.locked ?? ZERO };
  });
  unique(out, (b) => b.asset, 'the balance of', where, prefix);
  return out;
};

// ---------------------------------------------------------------- market data

const PriceW = z.object({ price: NonNegative });

export const decodePrice = (body: unknown, where: AnswerOf): Money =>
  parseAnswer(PriceW, body, where).price;

/** A level as `{price, quantity}` or `[price, quantity]`; a bad one is named by its field. */
const Level = z.preprocess(
  (l) =>
    Array.isArray(l) && l.length === 2 ? { price: l[0] as unknown, quantity: l[1] as unknown } : l,
  z.object({ price: NonNegative, quantity: NonNegative }),
);

const DepthW = z.object({
  symbol: SymbolW.nullish(),
  timestamp: z.number().int().nonnegative().max(8.64e15).nullish(),
  bids: z.array(Level).max(MAX_LEVELS).nullish(),
  asks: z.array(Level).max(MAX_LEVELS).nullish(),
});

/** The order book: best first on each side, whatever order the levels came in. */
export const decodeDepth = (
  body: unknown,
  symbol: string,
  where: AnswerOf,
  now: () => number,
): Depth => {
  const d = parseAnswer(DepthW, body, where);
  if (d.symbol && d.symbol !== symbol) {
    throw unexpectedAnswer(
      where,
      `it is the book of ${preview(d.symbol)}, not of ${symbol} as asked`,
    );
  }
  unique(d.bids ?? [], (l) => l.price.toFixed(), 'the price level', where, 'bids');
  unique(d.asks ?? [], (l) => l.price.toFixed(), 'the price level', where, 'asks');
  const bids = [...(d.bids ?? [])].sort((a, b) => b.price.comparedTo(a.price));
  const asks = [...(d.asks ?? [])].sort((a, b) => a.price.comparedTo(b.price));
  return { symbol, timestamp: d.timestamp ?? now(), bids, asks };
};

const unixSeconds = z
  .union([z.number().nonnegative().max(8.64e15), z.string().regex(/^\d{1,15}$/)])
  .transform((v) => {
    const n = Number(v);
    return Math.floor(n > 1e11 ? n / 1000 : n);
  });

const CandleW = z.object({
  t: unixSeconds,
  s: SymbolW.nullish(),
  o: NonNegative,
  h: NonNegative,
  l: NonNegative,
  c: NonNegative,
  v: NonNegative.nullish(),
});

const CandleList = z.array(CandleW).max(MAX_CANDLES);

const listOf = (body: unknown, keys: readonly string[]): { list: unknown; prefix: string } => {
  if (isObject(body)) {
    const key = keys.find((k) => Array.isArray(body[k]));
    if (key) return { list: body[key], prefix: key };
  }
  return { list: body, prefix: '' };
};

/** Another market's data in an answer about this one is refused, not shown as this one's. */
const sameMarket = <T>(
  items: readonly T[],
  symbolOf: (item: T) => string | null | undefined,
  symbol: string,
  where: AnswerOf,
  prefix: string,
): void => {
  items.forEach((item, i) => {
    const said = symbolOf(item);
    if (said && said !== symbol) {
      throw unexpectedAnswer(
        where,
        `\`${formatPath(prefix, [i])}\` is about ${preview(said)}, not ${symbol} as asked`,
      );
    }
  });
};

export const decodeCandles = (body: unknown, where: AnswerOf, symbol?: string): Candle[] => {
  if (body === null) return [];
  const { list, prefix } = listOf(body, ['data', 'candles']);
  const candles = parseAnswer(CandleList, list, where, prefix);
  if (symbol !== undefined) sameMarket(candles, (c) => c.s, symbol, where, prefix);
  unique(candles, (c) => String(c.t), 'the candle of time', where, prefix);
  // A candle's low and high bound its open and close: one that says otherwise was not made from
  // trades, and would be drawn as a price that never was.
  candles.forEach((c, i) => {
    const [low, high] = [c.l, c.h];
    if (low.gt(c.o) || low.gt(c.c) || high.lt(c.o) || high.lt(c.c)) {
      throw unexpectedAnswer(
        where,
        `\`${formatPath(prefix, [i])}\` is a candle whose low ${low.toFixed()} and high ${high.toFixed()} do not enclose its open ${c.o.toFixed()} and close ${c.c.toFixed()}`,
      );
    }
  });
  return candles
    .map((c) => ({
      time: c.t,
      open: c.o,
      high: c.h,
      low: c.l,
      close: c.c,
      volume: c.v ?? ZERO,
    }))
    .sort((a, b) => a.time - b.time);
};

const TradeW = z.object({
  timestamp: Time,
  symbol: SymbolW.nullish(),
  side: SideW,
  price: NonNegative,
  amount: NonNegative,
});

const TradeList = z.array(TradeW).max(MAX_TRADES);

export const decodeTrades = (body: unknown, symbol: string, where: AnswerOf): MarketTrade[] => {
  if (body === null) return [];
  const { list, prefix } = listOf(body, ['data', 'trades']);
  const trades = parseAnswer(TradeList, list, where, prefix);
  sameMarket(trades, (t) => t.symbol, symbol, where, prefix);
  return trades.map((t) => ({
    timestamp: t.timestamp,
    symbol: t.symbol ?? symbol,
    side: t.side,
    price: t.price,
    amount: t.amount,
  }));
};

// ---------------------------------------------------------------- builds, submits, keys

const TxHex = Hex(400_000);
/** The id goes into the submit and, later, into paths: only what an order id is made of. */
const BuiltOrderW = z.object({
  order_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'not an order id'),
  tx_hex: TxHex,
});
const TxHexW = z.object({ tx_hex: TxHex });

export const decodeBuiltOrder = (
  body: unknown,
  where: AnswerOf,
): { orderId: string; txHex: string } => {
  const r = parseAnswer(BuiltOrderW, body, where);
  return { orderId: r.order_id, txHex: r.tx_hex };
};

export const decodeTxHex = (body: unknown, where: AnswerOf): { txHex: string } => ({
  txHex: parseAnswer(TxHexW, body, where).tx_hex,
});

const TxHash = Hex(64).refine((h) => h.length === 64, 'not a transaction hash (64 hex digits)');

const TxHashW = z.object({ tx_hash: TxHash });

export const decodeTxHash = (body: unknown, where: AnswerOf): { txHash: string } => ({
  txHash: parseAnswer(TxHashW, body, where).tx_hash,
});

/** `{tx_hash}` on some deployments, `{}` (or nothing) on others. */
export const decodeOptionalTxHash = (body: unknown, where: AnswerOf): { txHash: string | null } => {
  if (body === null || (isObject(body) && (body.tx_hash === undefined || body.tx_hash === null))) {
    return { txHash: null };
  }
  return decodeTxHash(body, where);
};

const OperationKeyW = z.object({
  encrypted_operation_key: z.string().min(1).max(20_000),
  operation_key_hash: Hex(56).refine((h) => h.length === 56, 'not a key hash (56 hex digits)'),
});

export const decodeOperationKey = (
  body: unknown,
  where: AnswerOf,
): { encryptedOperationKey: string; operationKeyHash: string } => {
  const r = parseAnswer(OperationKeyW, body, where);
  return {
    encryptedOperationKey: r.encrypted_operation_key,
    operationKeyHash: r.operation_key_hash,
  };
};

// ---------------------------------------------------------------- requests

/** An amount of one asset in its smallest unit (seed 2.4). */
export const AmountEntry = z.object({
  unit: z.string().min(1).max(120),
  quantity: z.string().regex(/^\d{1,30}$/),
});
export type AmountEntry = z.infer<typeof AmountEntry>;

/**
 * An unspent output on Cardano (L1), in the seed's input-UTxO shape (2.5): what a deposit build
 * takes as `input_utxos`, kept exactly as the chain provider gave it.
 */
export const InputUtxo = z.object({
  input: z.object({
    tx_hash: z.string().regex(/^[0-9a-f]{64}$/),
    output_index: z.number().int().nonnegative(),
  }),
  output: z.object({
    address: z.string().min(1).max(200),
    amount: z.array(AmountEntry),
    data_hash: z.string().nullable(),
    plutus_data: z.string().nullable(),
    script_ref: z.string().nullable(),
    script_hash: z.string().nullable(),
  }),
});
export type InputUtxo = z.infer<typeof InputUtxo>;

/** An amount in smallest units, as the app holds it. */
export interface UnitAmount {
  unit: string;
  quantity: bigint;
}

/** Deposit and withdrawal amounts: integer strings in the smallest unit. */
export const amountEntries = (amounts: readonly UnitAmount[]): AmountEntry[] =>
  amounts.map(({ unit, quantity }) => {
    if (quantity <= 0n) throw new RangeError(`the amount of ${unit} must be positive`);
    return { unit, quantity: quantity.toString() };
  });

/** A JSON number literal written from the decimal's exact digits, never through a float. */
export const jsonNumber = (value: Decimal): string => {
  if (!Decimal.isDecimal(value) || !value.isFinite()) {
    throw new RangeError('an amount must be a finite decimal');
  }
  return value.toFixed();
};

/** A flat JSON object whose decimals are written as exact number literals. */
export const exactJson = (
  fields: Readonly<Record<string, string | number | boolean | Decimal | undefined>>,
): string =>
  `{${Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(
      ([k, v]) =>
        `${JSON.stringify(k)}:${Decimal.isDecimal(v) ? jsonNumber(v as Decimal) : JSON.stringify(v)}`,
    )
    .join(',')}}`;

// ---------------------------------------------------------------- account stream

/** One update of the account stream (`/accounts/stream`). */
export type AccountEvent =
  | { kind: 'balances'; balances: Balance[] }
  | { kind: 'openOrders'; orders: Order[] }
  | { kind: 'tradingHistory'; orders: Order[] }
  | { kind: 'ordersHistory'; orders: Order[] };

const ORDER_SUBTYPES: Readonly<Record<string, Exclude<AccountEvent['kind'], 'balances'>>> = {
  open_orders: 'openOrders',
  trading_history: 'tradingHistory',
  orders_history: 'ordersHistory',
  order_history: 'ordersHistory',
};

/** One memo per kind of order list a stream pushes (see `OrderListMemo`). */
export type AccountMemos = Partial<
  Record<Exclude<AccountEvent['kind'], 'balances'>, OrderListMemo>
>;

/**
 * An account-stream message → an event; null for a kind of update the app does not use. With
 * `memos`, orders whose records are as the last push of their list had them are not decoded again.
 */
export const decodeAccountEvent = (
  body: unknown,
  where: AnswerOf,
  memos?: AccountMemos,
): AccountEvent | null => {
  if (!isObject(body) || typeof body.sub_type !== 'string') {
    throw unexpectedAnswer(where, '`sub_type` is missing');
  }
  const subType = snake(body.sub_type);
  if (subType === 'balance' || subType === 'balances') {
    return { kind: 'balances', balances: decodeBalances(body, where) };
  }
  const kind = Object.hasOwn(ORDER_SUBTYPES, subType) ? ORDER_SUBTYPES[subType] : undefined;
  if (!kind) return null;
  const page = decodeOrderPage(body, where, { page: 1, limit: 250 }, memos?.[kind]);
  return { kind, orders: page.orders };
};
