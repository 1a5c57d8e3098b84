import Decimal from 'decimal.js';
import { z } from 'zod';
import { Money } from '../money';

const DECIMAL_TEXT = /^-?\d{1,40}(\.\d{1,40})?$/;

/** A money field as it crosses between processes: its exact decimal text. */
export const AmountText = z.string().regex(DECIMAL_TEXT, 'a decimal number written as text');

/**
 * A money field of a domain type: a decimal.js value in the domain, a decimal string on the way
 * between processes (decimal.js serialises to its exact string). Parsing accepts either form and
 * always yields a `Money`, never a float.
 */
export const Amount = z
  .union([AmountText, z.custom<Decimal>((value) => Decimal.isDecimal(value), 'a decimal value')])
  .transform((value) => new Money(value));
export type Amount = z.output<typeof Amount>;

/** A decimal typed by a trader or sent by the renderer: plain digits, no exponent, no float. */
export const DecimalText = z
  .string()
  .trim()
  .regex(/^\d{1,20}(\.\d{1,20})?$/, 'a positive decimal number such as 12.5');

/** An ISO 8601 UTC timestamp. */
export const Timestamp = z.string().min(10).max(40);

/**
 * What a domain value looks like once it has crossed a process boundary: every `Money` is its
 * exact decimal string. Contract responses and events are typed in this form for the renderer.
 */
export type Serialized<T> = T extends Decimal
  ? string
  : T extends ReadonlyArray<infer U>
    ? Serialized<U>[]
    : T extends object
      ? { [K in keyof T]: Serialized<T[K]> }
      : T;

/**
 * Turns every decimal.js value inside into its exact string, leaving the rest as it is. Every
 * order list the app pushes goes through here (the open orders on each change, pages of 250), so
 * it walks own keys with `for…in` rather than building `Object.entries` pairs: half the time.
 */
export const serialize = <T>(value: T): Serialized<T> => {
  if (value === null || typeof value !== 'object') return value as Serialized<T>;
  if (Decimal.isDecimal(value)) return value.toFixed() as Serialized<T>;
  if (Array.isArray(value)) return value.map((v: unknown) => serialize(v)) as Serialized<T>;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[key] = serialize(value[key]);
  }
  return out as Serialized<T>;
};
