import type { OrderPreview, OrderRequest } from '../../../src-shared/contract';
import type { Balance, Market } from '../../../src-shared/domain';
import { Money } from '../../../src-shared/money';
import { slippageWithin, worstPriceOf } from '../../../src-shared/slippage';

/** What the checks need to know about the market and the account right now. */
export interface TradeContext {
  market: Market;
  balances: readonly Balance[];
  /** Last traded price of this market, when there is one. */
  lastPrice: Money | null;
  /** Best ask / best bid now (market orders lock and fill against them). */
  bestAsk: Money | null;
  bestBid: Money | null;
  /** ADA's price in the quote asset, to value an order in ADA (the minimum is 5 ADA). */
  adaPrice: Money | null;
  openOrders: number;
  priceBandBp: number | null;
  maxOpenOrdersExchange: number | null;
  limits: { maxOrderValue: string | null; maxOpenOrders: number | null };
}

const decimalsOf = (value: Money): number => value.decimalPlaces();

/** Figures in messages: what is needed rounds up, what there is (or is worth) rounds down. */
const fmt = (value: Money, decimals: number): string =>
  value.toDecimalPlaces(decimals, Money.ROUND_UP).toFixed(decimals);
const fmtDown = (value: Money, decimals: number): string =>
  value.toDecimalPlaces(decimals, Money.ROUND_DOWN).toFixed(decimals);

export interface PreTradeResult extends OrderPreview {
  /** Human units the order locks, exactly. */
  lockAmount: Money;
  lockUnit: string;
  /** For a market buy: the lock is at most this (the exchange may lock less). */
  lockIsUpperBound: boolean;
  /** The best price on the book the order takes from (ask for a buy, bid for a sell), if any. */
  bestPrice: Money | null;
  /** A market order's slippage limit as a price (the `worstPrice` the preview shows). */
  worst: Money | null;
}

/**
 * The checks a trader expects before anything is sent: precision, size, minimum, balance,
 * price band and their own limits. Each problem says what is wrong with figures.
 */
export const preTrade = (order: OrderRequest, context: TradeContext): PreTradeResult => {
  const { market } = context;
  const problems: string[] = [];
  const quantity = new Money(order.quantity);
  const price = order.price === undefined ? null : new Money(order.price);
  const free = (unit: string): Money =>
    context.balances.find((b) => b.unit === unit)?.free ?? new Money(0);
  const quoteDecimals = 6;

  if (quantity.lte(0)) problems.push('The quantity must be more than 0.');
  if (decimalsOf(quantity) > market.quantityDecimals) {
    problems.push(
      `The quantity has ${decimalsOf(quantity)} decimals; ${market.symbol} accepts at most ${market.quantityDecimals}.`,
    );
  }
  if (price !== null) {
    if (price.lte(0)) problems.push('The price must be more than 0.');
    if (decimalsOf(price) > market.priceDecimals) {
      problems.push(
        `The price has ${decimalsOf(price)} decimals; ${market.symbol} accepts at most ${market.priceDecimals}.`,
      );
    }
  }

  // The price the order is valued at: its limit, else the book.
  const reference =
    price ?? (order.side === 'buy' ? context.bestAsk : context.bestBid) ?? context.lastPrice;
  if (
    order.type === 'market' &&
    (order.side === 'buy' ? context.bestAsk : context.bestBid) === null
  ) {
    problems.push(
      `Nobody is ${order.side === 'buy' ? 'selling' : 'buying'} ${market.base} right now, so a market order cannot fill. Place a limit order instead.`,
    );
  }
  const value = reference ? quantity.times(reference) : null;

  // Minimum size in ADA equivalent.
  if (quantity.gt(0)) {
    const adaValue =
      market.base === 'ADA'
        ? quantity
        : value && context.adaPrice && context.adaPrice.gt(0)
          ? value.div(context.adaPrice)
          : null;
    if (adaValue && adaValue.lt(market.minOrderAdaEquivalent)) {
      problems.push(
        `The order is worth ${fmtDown(adaValue, 2)} ADA; the smallest order is ${market.minOrderAdaEquivalent.toFixed()} ADA's worth.`,
      );
    }
  }

  // Price band around the market.
  if (price !== null && price.gt(0) && context.lastPrice && context.priceBandBp !== null) {
    const band = context.lastPrice.times(context.priceBandBp).div(10_000);
    if (price.gt(context.lastPrice.plus(band))) {
      problems.push(
        `The price is more than ${context.priceBandBp / 100}% above the market (${context.lastPrice.toFixed()}); the exchange refuses it.`,
      );
    } else if (price.lt(context.lastPrice.minus(band))) {
      problems.push(
        `The price is more than ${context.priceBandBp / 100}% below the market (${context.lastPrice.toFixed()}); the exchange refuses it.`,
      );
    }
  }
  if (order.postOnly && price !== null) {
    const crosses =
      order.side === 'buy'
        ? context.bestAsk !== null && price.gte(context.bestAsk)
        : context.bestBid !== null && price.lte(context.bestBid);
    if (crosses) {
      problems.push(
        'A post-only order must not trade at once, and this price would. Move it away from the book.',
      );
    }
  }

  // What it locks and whether the balance covers it.
  let lockUnit: string;
  let lockAsset: string;
  let lockAmount: Money;
  let lockIsUpperBound = false;
  if (order.side === 'sell') {
    lockUnit = market.baseUnit;
    lockAsset = market.base;
    lockAmount = quantity;
  } else {
    lockUnit = market.quoteUnit;
    lockAsset = market.quote;
    if (order.type === 'limit') {
      lockAmount = price ? quantity.times(price) : new Money(0);
    } else if (order.slippageBp !== undefined && context.bestAsk) {
      lockAmount = quantity
        .times(context.bestAsk)
        .times(new Money(10_000 + order.slippageBp).div(10_000));
      lockIsUpperBound = true;
    } else {
      // No slippage limit: the whole free quote balance is locked while it fills.
      lockAmount = free(market.quoteUnit);
      lockIsUpperBound = true;
    }
  }
  lockAmount = lockAmount.toDecimalPlaces(quoteDecimals, Money.ROUND_UP);
  const freeOfLock = free(lockUnit);
  if (lockAmount.gt(freeOfLock)) {
    problems.push(
      `Not enough free ${lockAsset}: ${fmt(lockAmount, 2)} needed, ${fmtDown(freeOfLock, 2)} free.`,
    );
  } else if (order.side === 'buy' && order.type === 'market' && freeOfLock.lte(0)) {
    problems.push(`You have no free ${lockAsset} to buy with. Deposit some first.`);
  }

  // The trader's own limits.
  if (context.limits.maxOrderValue !== null && value) {
    const max = new Money(context.limits.maxOrderValue);
    if (value.gt(max)) {
      problems.push(
        `The order is worth ${fmtDown(value, 2)} ${market.quote}, above your limit of ${max.toFixed()} ${market.quote} (Settings).`,
      );
    }
  }
  const maxOpen = Math.min(
    context.limits.maxOpenOrders ?? Number.POSITIVE_INFINITY,
    context.maxOpenOrdersExchange ?? Number.POSITIVE_INFINITY,
  );
  if (order.type === 'limit' && context.openOrders >= maxOpen) {
    problems.push(
      `You already have ${context.openOrders} open order${context.openOrders === 1 ? '' : 's'}, the most ${maxOpen === context.limits.maxOpenOrders ? 'your limit in Settings allows' : 'the exchange allows'}. Cancel one first.`,
    );
  }

  // The fee, in the asset received.
  const rate = new Money(market.commissionRateBp).div(10_000);
  const fee =
    order.side === 'buy'
      ? { asset: market.base, amount: quantity.times(rate).toFixed() }
      : {
          asset: market.quote,
          amount: value ? value.times(rate).toDecimalPlaces(6).toFixed() : '0',
        };

  const bestPrice = order.side === 'buy' ? context.bestAsk : context.bestBid;
  const worst =
    order.type === 'market' ? worstPriceOf(order.side, order.slippageBp, bestPrice) : null;
  return {
    worstPrice: worst ? { asset: market.quote, amount: worst.toFixed() } : null,
    lock: { asset: lockAsset, amount: lockAmount.toFixed() },
    fee,
    free: { asset: lockAsset, amount: freeOfLock.toFixed() },
    value: { asset: market.quote, amount: value ? value.toDecimalPlaces(6).toFixed() : '0' },
    problems,
    lockAmount,
    lockUnit,
    lockIsUpperBound,
    bestPrice,
    worst,
  };
};

/**
 * The worst price a market order may fill at, as the trader accepted it: the one the preview
 * showed them (`worstPrice`), or the one the book gives now, whichever is better for them, so a
 * market that moved against them before the build never widens what they agreed to. Null when
 * they set no limit (any price); 0 when no price was seen, which no order's limit can meet.
 */
export const worstAcceptedPrice = (order: OrderRequest, now: Money | null): Money | null => {
  if (order.slippageBp === undefined) return null;
  const seen = order.worstPrice === undefined ? null : new Money(order.worstPrice);
  if (seen === null || now === null) return seen ?? now ?? new Money(0);
  return order.side === 'buy' ? Money.min(seen, now) : Money.max(seen, now);
};

/**
 * The slippage limit main asks the exchange for. The exchange counts a market order's limit from
 * its best price when it builds the order, which may have moved against the trader since they
 * saw the worst price; the limit asked for is then narrowed so the exchange's stays within the
 * price they accepted (`accepted`, see `worstAcceptedPrice`), counted from `best`, the best
 * price on the order's side read just before the build. When the book has moved past that
 * price, no market order now would be one they agreed to: the message says so, with figures.
 */
export const slippageToAsk = (
  order: OrderRequest,
  accepted: Money | null,
  best: Money | null,
  market: Market,
): { ok: true; slippageBp: number | undefined } | { ok: false; message: string } => {
  const { slippageBp } = order;
  if (order.type !== 'market' || slippageBp === undefined || accepted === null || best === null) {
    return { ok: true, slippageBp };
  }
  const narrowed = slippageWithin(order.side, slippageBp, best, accepted);
  if (narrowed !== null) return { ok: true, slippageBp: narrowed };
  const price = (value: Money) => `${fmtDown(value, market.priceDecimals)} ${market.quote}`;
  const [which, moved] = order.side === 'buy' ? ['ask', 'risen'] : ['bid', 'fallen'];
  return {
    ok: false,
    message: `The best ${which} has ${moved} to ${price(best)}, past the worst price you accepted for this order (${price(accepted)}). Nothing was sent. Check the new worst price and send the order again.`,
  };
};
