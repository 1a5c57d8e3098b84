import { MARKETS, toUnits } from './assets.js';
import type { MatchingEngine, Trade } from './engine.js';
import { nextRandom } from './ids.js';

/** How far back a new exchange's tape reaches, and how often a trade shows in it. */
export const HISTORY_MS = 24 * 3_600_000;
const TRADE_EVERY_MS = 5 * 60_000;
const MAX_STEP_BP = 25;

/**
 * A new exchange's past day: a tape of trades every five minutes on each market, a seeded
 * random walk that ends at the market maker's starting reference, so the chart, the recent
 * trades and the 24 h figures have something to show on a fresh install, and the market price
 * is where the market maker starts quoting. The same seed and end time give the same tape, so a
 * replay rebuilds it exactly.
 */
export function fillPastDay(engine: MatchingEngine, endAt: number, seed: number): void {
  const random = { seed: (seed ^ 0x24a0d4e1) | 0 };
  const count = HISTORY_MS / TRADE_EVERY_MS;
  for (const market of MARKETS) {
    // Walk backwards from the reference: the last trade is at the reference itself.
    const prices: bigint[] = [toUnits(market.referencePrice, 4)];
    for (let i = 1; i < count; i++) {
      const step = BigInt(Math.round((nextRandom(random) * 2 - 1) * MAX_STEP_BP));
      const next = ((prices[i - 1] as bigint) * (10_000n - step)) / 10_000n;
      prices.push(next < 100n ? 100n : next);
    }
    prices.reverse();
    const lot = market.base.unit === 'lovelace' ? 10 : 100;
    const trades: Trade[] = prices.map((priceTicks, i) => ({
      at: endAt - (count - i) * TRADE_EVERY_MS + Math.floor(nextRandom(random) * TRADE_EVERY_MS),
      priceTicks,
      baseUnits: toUnits(lot * (1 + Math.floor(nextRandom(random) * 40)), market.base.decimals),
      takerSide: nextRandom(random) < 0.5 ? 'buy' : 'sell',
    }));
    engine.addHistory(market.symbol, trades);
  }
}
