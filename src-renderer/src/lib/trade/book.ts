import type Decimal from 'decimal.js';
import type { Depth, DepthLevel } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';

/** One price level as the book shows it, with the running total from the best price. */
export interface BookRow {
  /** Stable key: the price's exact text. */
  key: string;
  price: Decimal;
  quantity: Decimal;
  /** Base quantity from the best price up to and including this level. */
  cumulative: Decimal;
  /** Quote value from the best price up to and including this level. */
  cumulativeValue: Decimal;
}

export interface BookView {
  /** Lowest first (best first). */
  asks: BookRow[];
  /** Highest first (best first). */
  bids: BookRow[];
  spread: Decimal | null;
  /** Spread as a fraction of the mid price. */
  spreadFraction: Decimal | null;
}

const ZERO = new Money(0);

const runningTotals = (levels: readonly DepthLevel[]) => {
  let cumulative = ZERO;
  let value = ZERO;
  return levels.map((level) => {
    cumulative = cumulative.plus(level.quantity);
    value = value.plus(level.quantity.times(level.price));
    return { level, cumulative, value };
  });
};

/**
 * The book as a trader reads it: each side best first, with a running total per level. Levels with
 * nothing left are dropped; a side is sorted best first whatever order it came in. Every level is
 * kept (a market order's estimate walks them all); the screen shows the best of them.
 */
export const bookView = (depth: Depth | null, maxLevels = 200): BookView => {
  if (!depth) return { asks: [], bids: [], spread: null, spreadFraction: null };
  const live = (levels: readonly DepthLevel[]) => levels.filter((l) => l.quantity.greaterThan(0));
  const asks = runningTotals(
    live(depth.asks)
      .sort((a, b) => a.price.comparedTo(b.price))
      .slice(0, maxLevels),
  );
  const bids = runningTotals(
    live(depth.bids)
      .sort((a, b) => b.price.comparedTo(a.price))
      .slice(0, maxLevels),
  );
  const row = ({ level, cumulative, value }: (typeof asks)[number]): BookRow => ({
    key: level.price.toFixed(),
    price: level.price,
    quantity: level.quantity,
    cumulative,
    cumulativeValue: value,
  });
  const bestAsk = asks[0]?.level.price;
  const bestBid = bids[0]?.level.price;
  const spread = bestAsk && bestBid ? bestAsk.minus(bestBid) : null;
  const mid = bestAsk && bestBid ? bestAsk.plus(bestBid).div(2) : null;
  return {
    asks: asks.map(row),
    bids: bids.map(row),
    spread,
    spreadFraction: spread && mid && mid.greaterThan(0) ? spread.div(mid) : null,
  };
};

/**
 * The depth bars of the levels shown, best first on each side: a level's bar is its running total
 * as a share (0..1) of the deeper side's total as shown, so the bars of both sides compare and the
 * deepest level in view fills its row, however many levels lie beyond it.
 */
export const depthBars = (
  asks: readonly BookRow[],
  bids: readonly BookRow[],
): ((row: BookRow) => number) => {
  const deepest = Money.max(asks.at(-1)?.cumulative ?? ZERO, bids.at(-1)?.cumulative ?? ZERO);
  return (row) => (deepest.isZero() ? 0 : Math.min(1, row.cumulative.div(deepest).toNumber()));
};

/**
 * What a market order of `quantity` base would cost against these asks (a buy) or fetch against
 * these bids (a sell): the average price and whether the book is deep enough. Used to estimate a
 * market order before the exchange's own preview answers.
 */
export const sweep = (
  levels: readonly BookRow[],
  quantity: Decimal,
): { filled: Decimal; value: Decimal; average: Decimal | null; worst: Decimal | null } => {
  let left = quantity;
  let filled = ZERO;
  let value = ZERO;
  let worst: Decimal | null = null;
  for (const level of levels) {
    if (left.lte(0)) break;
    const take = Money.min(left, level.quantity);
    filled = filled.plus(take);
    value = value.plus(take.times(level.price));
    left = left.minus(take);
    worst = level.price;
  }
  return { filled, value, average: filled.greaterThan(0) ? value.div(filled) : null, worst };
};

/**
 * How much base a quote budget buys walking up the asks (a market buy by amount to spend), the
 * base quantity a trader can afford.
 */
export const affordable = (asks: readonly BookRow[], budget: Decimal): Decimal => {
  let left = budget;
  let quantity = ZERO;
  for (const level of asks) {
    if (left.lte(0)) break;
    const levelValue = level.quantity.times(level.price);
    if (levelValue.lte(left)) {
      quantity = quantity.plus(level.quantity);
      left = left.minus(levelValue);
    } else {
      quantity = quantity.plus(left.div(level.price));
      left = ZERO;
    }
  }
  return quantity;
};

/**
 * The price steps a book can be grouped by for `priceDecimals`: the market's own tick, then ten,
 * a hundred and a thousand ticks.
 */
export const groupSteps = (priceDecimals: number): Decimal[] =>
  [0, 1, 2, 3].map((k) => new Money(10).pow(k - priceDecimals));

/**
 * One side of the book (best first) grouped by a price step, as traders read a deep book in a
 * small panel: each group shows the total of its levels at the step's price on the far side of
 * them from the spread (asks rounded up, bids down), so a limit order at that price reaches every
 * level in the group. The running totals stay those of the levels. Stops after `limit` groups.
 */
export const groupLevels = (
  side: 'ask' | 'bid',
  rows: readonly BookRow[],
  step: Decimal,
  limit = Number.POSITIVE_INFINITY,
): BookRow[] => {
  const rounding = side === 'ask' ? Money.ROUND_CEIL : Money.ROUND_FLOOR;
  const groups: BookRow[] = [];
  for (const row of rows) {
    const price = row.price.div(step).toDecimalPlaces(0, rounding).times(step);
    const last = groups.at(-1);
    if (last?.price.equals(price)) {
      groups[groups.length - 1] = {
        ...last,
        quantity: last.quantity.plus(row.quantity),
        cumulative: row.cumulative,
        cumulativeValue: row.cumulativeValue,
      };
      continue;
    }
    if (groups.length === limit) break;
    groups.push({ ...row, key: price.toFixed(), price });
  }
  return groups;
};
