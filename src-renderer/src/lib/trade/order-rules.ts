import Decimal from 'decimal.js';
import type { Settings } from '../../../../src-shared/contract';
import type { Market, Side } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { worstPriceOf } from '../../../../src-shared/slippage';
import { affordable, sweep, type BookView } from './book';
import { fixed, trimmed } from './format';

/**
 * The pre-trade rules the order form checks as the trader types, before anything is sent:
 * number format, the market's precision, the minimum size, the free balance and the trader's own
 * limits. Main's `trading:preview` checks the same and more (price band, open-order count on the
 * exchange); these give the answer at once, next to the field it is about.
 */

export type OrderKind = 'limit' | 'market';

/** Normalises what a trader types: `,` as the decimal mark, a leading `.`, spaces. */
export const normalizeDecimal = (text: string): string => {
  const t = text.trim().replace(/\s+/g, '').replace(',', '.');
  return t.startsWith('.') ? `0${t}` : t;
};

const DECIMAL = /^\d{1,20}(\.\d{1,20})?$/;

export type DecimalCheck =
  { ok: true; value: Decimal; text: string } | { ok: false; message: string | null };

/**
 * A positive decimal with at most `decimals` places. `null` message: the field is empty (a
 * problem only once the trader tries to send).
 */
export const checkDecimal = (
  raw: string,
  decimals: number,
  what: { name: string; example: string },
): DecimalCheck => {
  const text = normalizeDecimal(raw);
  if (text === '') return { ok: false, message: null };
  if (!DECIMAL.test(text)) {
    return { ok: false, message: `Enter the ${what.name} as a number, such as ${what.example}.` };
  }
  const places = text.split('.')[1]?.length ?? 0;
  if (places > decimals) {
    return {
      ok: false,
      message:
        decimals === 0
          ? `The ${what.name} must be a whole number on this market.`
          : `The ${what.name} takes at most ${decimals} decimal places on this market.`,
    };
  }
  const value = new Money(text);
  if (value.lte(0)) return { ok: false, message: `The ${what.name} must be more than 0.` };
  return { ok: true, value, text };
};

/** Slippage typed as a percentage (`0.5` = 0.5 %) to basis points, or a message. */
export const slippageBp = (
  raw: string,
): { ok: true; bp: number } | { ok: false; message: string } => {
  const text = normalizeDecimal(raw);
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) {
    return {
      ok: false,
      message: 'Enter the slippage limit in percent, such as 0.5 (up to 2 decimals).',
    };
  }
  const bp = new Money(text).times(100);
  if (bp.greaterThan(10_000)) return { ok: false, message: 'The slippage limit is at most 100%.' };
  return { ok: true, bp: bp.toNumber() };
};

export interface Estimate {
  /** Value of the order in the quote asset. */
  value: Decimal;
  /** What the order locks: the quote for a buy, the base for a sell. */
  lock: { asset: string; amount: Decimal };
  /** The trading fee, charged in the asset received. */
  fee: { asset: string; amount: Decimal };
  /** Market orders: the average price against the book now, and how much of it the book holds. */
  average: Decimal | null;
  bookFills: Decimal | null;
  /** Market orders with a slippage limit: the worst price they may fill at, from the book now. */
  worst: Decimal | null;
}

const bp = (amount: Decimal, rateBp: number) => amount.times(rateBp).div(10_000);

/**
 * The order's value, lock and fee as Countersign can tell from the market and the book now. A
 * limit order's are exact; a market order's are an estimate against the current book (a buy with
 * a slippage limit may lock up to that limit).
 */
export const estimate = ({
  market,
  side,
  kind,
  quantity,
  price,
  book,
  slippage,
}: {
  market: Market;
  side: Side;
  kind: OrderKind;
  quantity: Decimal;
  price: Decimal | null;
  book: BookView;
  slippage: number | null;
}): Estimate | null => {
  let value: Decimal;
  let average: Decimal | null = null;
  let bookFills: Decimal | null = null;
  let worst: Decimal | null = null;
  let lockQuote: Decimal;
  if (kind === 'limit') {
    if (!price) return null;
    value = quantity.times(price);
    lockQuote = value;
  } else {
    const levels = side === 'buy' ? book.asks : book.bids;
    const swept = sweep(levels, quantity);
    if (!swept.average) return null;
    value = swept.value;
    average = swept.average;
    bookFills = swept.filled;
    const best = levels[0]?.price ?? swept.average;
    worst = worstPriceOf(side, slippage ?? undefined, levels[0]?.price ?? null);
    lockQuote =
      slippage === null
        ? value
        : Money.max(
            value,
            quantity
              .times(best)
              .times(10_000 + slippage)
              .div(10_000),
          );
  }
  return side === 'buy'
    ? {
        value,
        lock: { asset: market.quote, amount: lockQuote },
        fee: { asset: market.base, amount: bp(quantity, market.commissionRateBp) },
        average,
        bookFills,
        worst,
      }
    : {
        value,
        lock: { asset: market.base, amount: quantity },
        fee: { asset: market.quote, amount: bp(value, market.commissionRateBp) },
        average,
        bookFills,
        worst,
      };
};

/** The ADA worth of an order, when the market tells it (ADA is its base or its quote). */
const adaWorth = (market: Market, quantity: Decimal, value: Decimal): Decimal | null => {
  if (market.base.toUpperCase() === 'ADA') return quantity;
  if (market.quote.toUpperCase() === 'ADA') return value;
  return null;
};

/**
 * Every reason the exchange or the trader's own limits would refuse this order, in words that say
 * what to change. Empty when Countersign sees none (the exchange's preview may still find some).
 */
export const orderProblems = ({
  market,
  quantity,
  est,
  free,
  limits,
  openOrders,
  kind,
}: {
  market: Market;
  quantity: Decimal;
  est: Estimate;
  free: Decimal | null;
  limits: Settings['limits'] | null;
  openOrders: number;
  kind: OrderKind;
}): string[] => {
  const problems: string[] = [];
  const ada = adaWorth(market, quantity, est.value);
  if (ada && ada.lessThan(market.minOrderAdaEquivalent)) {
    problems.push(
      `The smallest order is ${trimmed(market.minOrderAdaEquivalent, 6)} ADA or its worth; this one is ${trimmed(ada, 6)} ADA.`,
    );
  }
  if (kind === 'market' && est.bookFills && est.bookFills.lessThan(quantity)) {
    problems.push(
      `The book holds only ${trimmed(est.bookFills, market.quantityDecimals)} ${market.base} on that side: a market order this size would not fill. Lower the quantity or use a limit order.`,
    );
  }
  if (free && est.lock.amount.greaterThan(free)) {
    const decimals =
      est.lock.asset === market.quote ? market.priceDecimals : market.quantityDecimals;
    problems.push(
      `Not enough ${est.lock.asset}: this order locks ${fixed(est.lock.amount, decimals, { group: true })} ${est.lock.asset} and ${fixed(free, decimals, { group: true })} ${est.lock.asset} is free.`,
    );
  }
  if (limits?.maxOrderValue && est.value.greaterThan(limits.maxOrderValue)) {
    problems.push(
      `This order is worth ${fixed(est.value, 2, { group: true })} ${market.quote}, above your limit of ${trimmed(limits.maxOrderValue, 6)} ${market.quote} per order (Settings).`,
    );
  }
  if (kind === 'limit' && limits?.maxOpenOrders && openOrders >= limits.maxOpenOrders) {
    problems.push(
      `You have ${openOrders} open order${openOrders === 1 ? '' : 's'}, the most your limit in Settings allows. Cancel one before placing another.`,
    );
  }
  return problems;
};

/**
 * The largest quantity a share of the free balance pays for, cut to the market's precision:
 * a buy spends the quote (at the limit price, or walking the asks for a market order), a sell
 * the base.
 */
export const quantityForShare = ({
  share,
  side,
  kind,
  free,
  price,
  book,
  quantityDecimals,
}: {
  share: number;
  side: Side;
  kind: OrderKind;
  free: Decimal;
  price: Decimal | null;
  book: BookView;
  quantityDecimals: number;
}): Decimal | null => {
  const budget = free.times(share).div(100);
  let quantity: Decimal;
  if (side === 'sell') quantity = budget;
  else if (kind === 'limit') {
    if (!price) return null;
    quantity = budget.div(price);
  } else {
    if (book.asks.length === 0) return null;
    quantity = affordable(book.asks, budget);
  }
  return quantity.toDecimalPlaces(quantityDecimals, Decimal.ROUND_DOWN);
};
