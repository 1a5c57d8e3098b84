import Decimal from 'decimal.js';

/**
 * Money in the domain is a decimal.js value in human units (ADA, USDM), never a JS float.
 * On the wire it is either a decimal string / number in human units (orders, balances) or an
 * integer string in the smallest unit (deposits, withdrawals); these are the exact conversions.
 */
export const Money = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_DOWN,
  toExpNeg: -30,
  toExpPos: 60,
});
export type Money = Decimal;

const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

/** Parses a human amount typed or received as text; rejects anything that is not a plain decimal. */
export const parseAmount = (text: string): Money | null => {
  const trimmed = text.trim();
  return DECIMAL_RE.test(trimmed) ? new Money(trimmed) : null;
};

/** Human units → integer smallest units, exactly. Throws if the amount has more decimals. */
export const toSmallestUnit = (amount: Money, decimals: number): bigint => {
  const scaled = amount.times(new Money(10).pow(decimals));
  if (!scaled.isInteger()) {
    throw new RangeError(`${amount.toFixed()} has more than ${decimals} decimal places`);
  }
  return BigInt(scaled.toFixed(0));
};

/** Integer smallest units → human units, exactly. */
export const fromSmallestUnit = (quantity: bigint | string, decimals: number): Money =>
  new Money(quantity.toString()).div(new Money(10).pow(decimals));

/**
 * Integer smallest units → human units as text (`fromSmallestUnit(q, d).toFixed()`), by placing
 * the decimal point in the integer's digits: exact, and without decimal arithmetic, for the
 * amounts every transaction shown to the trader lists.
 */
export const smallestUnitText = (quantity: bigint, decimals: number): string => {
  const negative = quantity < 0n;
  const digits = (negative ? -quantity : quantity).toString().padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  const fraction = digits.slice(cut).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, cut)}${fraction ? `.${fraction}` : ''}`;
};

const PLAIN_DECIMAL = /^(-?)(\d+)(\.\d+)?$/;

/**
 * A plain decimal's text with its thousands grouped (`9998.3` → `9,998.3`), every digit kept; text
 * that is not a plain decimal comes back as it was. How the app writes amounts for people.
 */
export const groupedText = (text: string): string => {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
};

/**
 * A number received from JSON (e.g. a balance `free: 12.5`) → Money, through its shortest
 * decimal representation, so 0.1 stays 0.1 and not 0.1000000000000000055…
 */
export const moneyFromWire = (value: number | string): Money => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
    return new Money(value.toString());
  }
  const parsed = parseAmount(value);
  if (!parsed) throw new RangeError(`not a decimal amount: ${JSON.stringify(value)}`);
  return parsed;
};

/** Formats for display with a fixed number of decimals (rounding down: never show more than there is). */
export const formatAmount = (amount: Money, decimals: number): string =>
  amount.toDecimalPlaces(decimals, Decimal.ROUND_DOWN).toFixed(decimals);
