import { MARKETS, toUnits, type Market } from './assets.js';
import type { MatchingEngine } from './engine.js';
import { nextRandom, type IdSequence } from './ids.js';
import { big, int, list, str, unbig, type Big } from './snapshot-codec.js';

/** The market maker's internal account id. */
export const MARKET_MAKER_ACCOUNT = '00000000-0000-4000-8000-00000000a11c';
const LEVELS = 30;
const SPACING_BP = 20n;
const MAX_STEP_BP = 30;
const MM_UTXO = `${'0'.repeat(64)}#0`;

/**
 * The built-in market maker: an internal account that keeps thirty bids and thirty asks around a
 * reference price moving as a seeded random walk. Each tick replaces its ladder, so resting
 * orders of traders get hit as the reference moves.
 */
export class MarketMaker {
  private readonly random: { seed: number };
  private readonly references = new Map<string, bigint>();
  private readonly orderIds = new Map<string, string[]>();

  constructor(seed: number) {
    this.random = { seed: seed | 0 };
  }

  reference(symbol: string): bigint | undefined {
    return this.references.get(symbol);
  }

  snapshot(ids: IdSequence): MarketMakerSnapshot {
    return {
      random: this.random.seed,
      references: [...this.references].map(([symbol, p]) => [symbol, big(p)]),
      orders: [...this.orderIds].map(([symbol, orderIds]) => [
        symbol,
        orderIds.map((id) => ids.compact(id)),
      ]),
    };
  }

  restore(s: MarketMakerSnapshot, ids: IdSequence): void {
    this.random.seed = int(s.random);
    for (const row of list(s.references)) {
      const [symbol, p] = list(row);
      this.references.set(str(symbol), unbig(p));
    }
    for (const row of list(s.orders)) {
      const [symbol, orderIds] = list(row);
      this.orderIds.set(
        str(symbol),
        list(orderIds).map((id) => ids.expand(id as number | string)),
      );
    }
  }

  tick(engine: MatchingEngine, ids: IdSequence, at: number): void {
    for (const market of MARKETS) this.requote(engine, ids, market, at);
  }

  private requote(engine: MatchingEngine, ids: IdSequence, market: Market, at: number): void {
    let reference = this.references.get(market.symbol) ?? toUnits(market.referencePrice, 4);
    const stepBp = BigInt(Math.round((nextRandom(this.random) * 2 - 1) * MAX_STEP_BP));
    reference = (reference * (10_000n + stepBp)) / 10_000n;
    if (reference < 100n) reference = 100n;
    this.references.set(market.symbol, reference);

    for (const id of this.orderIds.get(market.symbol) ?? []) {
      if (engine.orders.get(id)?.resting) engine.cancelOrder(id, at);
      engine.orders.delete(id);
    }
    const placed: string[] = [];
    const baseSize = market.base.unit === 'lovelace' ? 50 : 500;
    for (let i = 1n; i <= BigInt(LEVELS); i++) {
      for (const side of ['buy', 'sell'] as const) {
        const offset = side === 'buy' ? 10_000n - SPACING_BP * i : 10_000n + SPACING_BP * i;
        const priceTicks = (reference * offset + (side === 'buy' ? 0n : 9_999n)) / 10_000n;
        const size = baseSize * (1 + Math.floor(nextRandom(this.random) * 9));
        const id = ids.uuid();
        engine.placeOrder({
          id,
          accountId: MARKET_MAKER_ACCOUNT,
          market,
          side,
          type: 'limit',
          quantity: toUnits(size, market.base.decimals),
          priceTicks,
          marketLimitTicks: null,
          slippageBp: 0,
          postOnly: false,
          commissionRateBp: 0,
          utxoId: MM_UTXO,
          at,
        });
        placed.push(id);
      }
    }
    this.orderIds.set(market.symbol, placed);
  }
}

export interface MarketMakerSnapshot {
  random: number;
  references: [string, Big][];
  orders: [string, (number | string)[]][];
}
