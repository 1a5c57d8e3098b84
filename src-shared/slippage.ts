import type { Side } from './domain';
import { Money } from './money';

/**
 * The best price a market order on `side` takes from: the lowest ask for a buy, the highest bid
 * for a sell, from a book whose sides are best first. Null when that side is empty.
 */
export const bestTakenBy = (
  side: Side,
  book: { asks: ReadonlyArray<{ price: Money }>; bids: ReadonlyArray<{ price: Money }> },
): Money | null => (side === 'buy' ? book.asks[0]?.price : book.bids[0]?.price) ?? null;

/**
 * A market order's slippage limit as a price: the best price on its side of the book moved by
 * the limit against the trader (up for a buy, down for a sell). Null without a limit (any
 * price) or without a price on the book to count from. The order form, main's preview and the
 * limit main signs all use this one rule.
 */
export const worstPriceOf = (
  side: Side,
  slippageBp: number | undefined,
  best: Money | null,
): Money | null => {
  if (slippageBp === undefined || best === null) return null;
  const bp = new Money(slippageBp);
  return best.times(side === 'buy' ? bp.plus(10_000) : new Money(10_000).minus(bp)).div(10_000);
};

/**
 * The slippage limit to ask the exchange for, so that the limit it sets, counted from `best`
 * (the best price on the order's side now), is no worse than `accepted`: the worst price the
 * trader agreed to. That is the trader's own limit while the book is where they saw it; less when
 * the book has moved against them since; null when it has moved past `accepted`, so that no
 * limit the exchange could count from the book now would be one they agreed to.
 */
export const slippageWithin = (
  side: Side,
  slippageBp: number,
  best: Money,
  accepted: Money,
): number | null => {
  // No price to count from: nothing to narrow (the signer still holds the limit to `accepted`).
  if (best.lte(0)) return slippageBp;
  const room = accepted.times(10_000).div(best);
  const bp = (side === 'buy' ? room.minus(10_000) : new Money(10_000).minus(room)).floor();
  if (bp.isNegative()) return null;
  return Math.min(slippageBp, bp.toNumber());
};
