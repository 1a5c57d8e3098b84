import { MARKETS, toUnits, type Market } from './assets.js';
import type { MatchingEngine } from './engine.js';
import { nextRandom, type IdSequence } from './ids.js';
import { int } from './snapshot-codec.js';

/** The simulated takers' internal account id. */
export const TAKERS_ACCOUNT = '00000000-0000-4000-8000-000000007a1e';
const TAKERS_UTXO = `${'0'.repeat(63)}1#0`;
/** A taker accepts at most this much worse than the best price: it never sweeps the book. */
const SLIPPAGE_BP = 50;

/**
 * Simulated takers: now and then someone sends a small market order (with a slippage limit) to
 * one of the markets, so trades, candles and the book move even when nobody else trades, and a
 * trader's order resting near the market gets filled. Which market, which side and how much
 * come from a generator seeded by the data folder's seed and kept in its state, so replaying the
 * journal replays the same trades.
 */
export class Takers {
  private readonly random: { seed: number };

  constructor(seed: number) {
    // A stream of its own, apart from the market maker's walk.
    this.random = { seed: (seed ^ 0x7a4e5eed) | 0 };
  }

  /** One taker's market order; nothing if the side it would hit is empty. */
  trade(engine: MatchingEngine, ids: IdSequence, at: number): void {
    const market = MARKETS[nextRandom(this.random) < 0.7 ? 0 : 1] as Market;
    const side = nextRandom(this.random) < 0.5 ? 'buy' : 'sell';
    const size = nextRandom(this.random);
    const book = engine.book(market.symbol);
    const best = (side === 'buy' ? book.asks : book.bids).best();
    if (!best) return;
    // ADA 10..400, NIGHT 100..4000: whole units, a few levels of the market maker at most.
    const units = (market.base.unit === 'lovelace' ? 10 : 100) * (1 + Math.floor(size * 40));
    const limit = best.price * BigInt(side === 'buy' ? 10_000 + SLIPPAGE_BP : 10_000 - SLIPPAGE_BP);
    const id = ids.uuid();
    engine.placeOrder({
      id,
      accountId: TAKERS_ACCOUNT,
      market,
      side,
      type: 'market',
      quantity: toUnits(units, market.base.decimals),
      priceTicks: 0n,
      marketLimitTicks: side === 'buy' ? limit / 10_000n : (limit + 9_999n) / 10_000n,
      slippageBp: SLIPPAGE_BP,
      postOnly: false,
      commissionRateBp: 0,
      utxoId: TAKERS_UTXO,
      at,
    });
    // A market order never rests: its fills live on in the makers' records and on the tape.
    engine.orders.delete(id);
  }

  snapshot(): number {
    return this.random.seed;
  }

  restore(seed: unknown): void {
    this.random.seed = int(seed);
  }
}
