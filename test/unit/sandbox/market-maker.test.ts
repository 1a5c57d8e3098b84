import { describe, expect, it } from 'vitest';
import { MARKETS, type Market } from '../../../src-sandbox/assets.js';
import { DEFAULT_RULES, Exchange } from '../../../src-sandbox/exchange.js';
import { IdSequence } from '../../../src-sandbox/ids.js';

function ticks(seed: number, n: number): Exchange {
  const exchange = new Exchange(DEFAULT_RULES, new IdSequence('mm'), seed);
  for (let i = 0; i < n; i++)
    exchange.apply({ t: 'marketMaker', at: 1_800_000_000_000 + i * 1000 });
  return exchange;
}

const ladder = (exchange: Exchange, symbol: string): [bigint[][], bigint[][]] => {
  const book = exchange.engine.book(symbol);
  return [
    book.bids.levels.map((l) => [l.price, l.quantity]),
    book.asks.levels.map((l) => [l.price, l.quantity]),
  ];
};

describe('market maker', () => {
  it('keeps thirty levels a side around a reference that walks, the same for the same seed', () => {
    const a = ticks(42, 50);
    const b = ticks(42, 50);
    const c = ticks(43, 50);
    for (const symbol of ['ADAUSDM', 'NIGHTUSDM']) {
      const [bids, asks] = ladder(a, symbol);
      expect(bids).toHaveLength(30);
      expect(asks).toHaveLength(30);
      expect(ladder(b, symbol)).toEqual(ladder(a, symbol));
      expect(ladder(c, symbol)).not.toEqual(ladder(a, symbol));
      const reference = a.marketMaker.reference(symbol) ?? 0n;
      expect((bids[0]?.[0] ?? 0n) < reference && reference < (asks[0]?.[0] ?? 0n)).toBe(true);
    }
    expect(a.marketMaker.reference('ADAUSDM')).not.toBe(
      ticks(42, 1).marketMaker.reference('ADAUSDM'),
    );
  });

  it('replaces its own orders each tick instead of piling them up', () => {
    const exchange = ticks(1, 30);
    const open = [...exchange.engine.orders.values()].filter((o) => o.resting);
    // Thirty a side on each of the two markets, however many ticks went by.
    expect(open).toHaveLength(120);
  });

  it("hits a trader's resting order as the reference walks onto it", () => {
    const exchange = new Exchange(DEFAULT_RULES, new IdSequence('mm'), 5);
    const at = 1_800_000_000_000;
    exchange.apply({ t: 'marketMaker', at });
    const market = MARKETS[0] as Market;
    exchange.engine.balance('trader', market.quote.unit).free = 1_000_000_000n;
    const bestBid = exchange.engine.book('ADAUSDM').bids.best()?.price ?? 0n;
    const order = exchange.engine.placeOrder({
      id: 'resting-bid',
      accountId: 'trader',
      market,
      side: 'buy',
      type: 'limit',
      quantity: 10_000_000n,
      priceTicks: (bestBid * 995n) / 1000n,
      marketLimitTicks: null,
      slippageBp: 0,
      postOnly: false,
      commissionRateBp: 10,
      utxoId: 'x#0',
      at,
    });
    expect(order.status).toBe('open');
    for (let i = 1; i <= 300 && order.status === 'open'; i++) {
      exchange.apply({ t: 'marketMaker', at: at + i * 2000 });
    }
    expect(order.executions.length).toBeGreaterThan(0);
    expect(order.executions[0]?.role).toBe('maker');
    expect(order.executions[0]?.priceTicks).toBe(order.priceTicks);
  });
});
