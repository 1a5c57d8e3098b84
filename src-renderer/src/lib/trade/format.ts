import Decimal from 'decimal.js';
import type { OrderStatus, Side } from '../../../../src-shared/domain';
import { groupedText } from '../../../../src-shared/money';

/** What a missing number shows as. */
export const NONE = '—';

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * An exact decimal (wire text or decimal.js) shown with a fixed number of decimals, cut (never
 * rounded up: a trader never sees more than there is), optionally with thousands separators.
 * Pure string work on the exact text: no float ever touches the amount.
 */
export const fixed = (
  value: string | Decimal | null | undefined,
  decimals: number,
  { group = false }: { group?: boolean } = {},
): string => {
  if (value === null || value === undefined) return NONE;
  const text = typeof value === 'string' ? value : value.toFixed();
  const match = PLAIN.exec(text.trim());
  if (!match) return NONE;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const cut = fraction.slice(0, decimals).padEnd(decimals, '0');
  const isZero = /^0*$/.test(whole) && /^0*$/.test(cut);
  const shownWhole = group ? groupedText(whole.replace(/^0+(?=\d)/, '')) : whole;
  return `${isZero ? '' : sign}${shownWhole}${decimals > 0 ? `.${cut}` : ''}`;
};

/**
 * An exact amount as it is, every decimal kept, with its thousands grouped as the tables group
 * them: what a wallet, a balance or a transaction holds. Text that is not a plain decimal is
 * shown as it came.
 */
export const exact = (value: string | Decimal): string =>
  groupedText(typeof value === 'string' ? value.trim() : value.toFixed());

/** A decimal with as many decimals as it has (up to `max`), for amounts that are not prices. */
export const trimmed = (value: string | Decimal | null | undefined, max: number): string => {
  const shown = fixed(value, max, { group: true });
  return shown.includes('.') ? shown.replace(/\.?0+$/, '') : shown;
};

/** `+1.25%`, `-0.40%`, `0.00%`: the sign is text, never colour alone. */
export const signedPercent = (fraction: Decimal, decimals = 2): string => {
  const pct = fraction.times(100).toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN);
  const text = pct.abs().toFixed(decimals);
  if (pct.isZero()) return `${text}%`;
  return `${pct.isNegative() ? '−' : '+'}${text}%`;
};

const pad = (n: number): string => String(n).padStart(2, '0');

/** `14:03:22` in the trader's local time. */
export const clockTime = (iso: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return NONE;
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
};

/** `2025-03-01 14:03:22` in the trader's local time (sortable, fixed width). */
export const dateTime = (iso: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return NONE;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${clockTime(iso)}`;
};

export const SIDE_TEXT: Readonly<Record<Side, string>> = { buy: 'Buy', sell: 'Sell' };
/** Shown beside the side's word and colour, so buy and sell differ in shape too. */
export const SIDE_ARROW: Readonly<Record<Side, string>> = { buy: '▲', sell: '▼' };

export const STATUS_TEXT: Readonly<Record<OrderStatus, string>> = {
  building: 'Building',
  processing: 'Processing',
  open: 'Open',
  partially_filled: 'Partially filled',
  fully_filled: 'Filled',
  closed: 'Closed',
  cancelled: 'Cancelled',
  partially_cancelled: 'Partly filled, cancelled',
  failed: 'Failed',
};

/** `ADA/USDM` for `ADAUSDM` when the market is known, else the symbol itself. */
export const pairLabel = (
  symbol: string,
  markets: ReadonlyArray<{ symbol: string; base: string; quote: string }>,
): string => {
  const market = markets.find((m) => m.symbol === symbol);
  return market ? `${market.base}/${market.quote}` : symbol;
};
