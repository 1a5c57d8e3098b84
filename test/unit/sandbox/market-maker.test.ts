import { describe, expect, it } from 'vitest';
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
  it('keeps five levels a side around a reference that walks, the same for the same seed', () => {
    const a = ticks(42, 50);
    const b = ticks(42, 50);
    const c = ticks(43, 50);
    for (const symbol of ['ADAUSDM', 'NIGHTUSDM']) {
      const [bids, asks] = ladder(a, symbol);
      expect(bids).toHaveLength(5);
      expect(asks).toHaveLength(5);
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
    expect(open).toHaveLength(20);
  });
});
