import { describe, expect, it } from 'vitest';
import { ADA_USDM, depthOf, fakeApi, NIGHT_USDM } from './fake-api';
import type { Api } from '../../../../src-shared/contract';
import { MarketTrade } from '../../../../src-shared/domain';
import { MarketList } from '../shell/markets.svelte';
import { MarketFeed, mergeTrades } from './market-feed.svelte';

const memory = () => {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
};

/** A feed over the window's one market list (a new one per test: no other screen shares it). */
const feedOf = (api: Api, storage = memory()) =>
  new MarketFeed(api, { markets: new MarketList(api), connection: null }, storage);

const trade = (timestamp: string, price = '0.65', symbol = 'ADAUSDM') => ({
  timestamp,
  symbol,
  side: 'buy' as const,
  price,
  amount: '10',
});

const answers = () => ({
  'market:markets': () => [ADA_USDM, NIGHT_USDM],
  'market:watch': () => null,
  'market:depth': (r: unknown) => depthOf((r as { symbol: string }).symbol, 10),
  'market:ticker': (r: unknown) => ({
    symbol: (r as { symbol: string }).symbol,
    price: '0.65',
    change24h: '0.01',
  }),
  'market:trades': (r: unknown) => [
    trade('2025-03-01T12:00:01.000Z', '0.65', (r as { symbol: string }).symbol),
  ],
});

describe('MarketFeed', () => {
  it('loads the markets, watches the chosen one and reads its book, price and trades', async () => {
    const fake = fakeApi(answers());
    const feed = feedOf(fake.api, memory());
    await feed.start();
    expect(feed.markets.map((m) => m.symbol)).toEqual(['ADAUSDM', 'NIGHTUSDM']);
    expect(feed.market?.base).toBe('ADA');
    expect(fake.calls.find((c) => c.channel === 'market:watch')?.request).toEqual({
      symbol: 'ADAUSDM',
    });
    expect(feed.book.asks[0]?.price.toFixed()).toBe('0.6513');
    expect(feed.ticker?.price?.toFixed()).toBe('0.65');
    expect(feed.trades).toHaveLength(1);
  });

  it('follows depth events of its market and ignores stale or foreign ones', async () => {
    const fake = fakeApi(answers());
    const feed = feedOf(fake.api, memory());
    await feed.start();
    fake.emit('market:depth', depthOf('ADAUSDM', 20, [['0.7', '1']], [['0.6', '2']]));
    expect(feed.book.asks.map((r) => r.price.toFixed())).toEqual(['0.7']);
    fake.emit('market:depth', depthOf('ADAUSDM', 5, [['0.9', '1']], []));
    expect(feed.book.asks[0]?.price.toFixed()).toBe('0.7');
    fake.emit('market:depth', depthOf('NIGHTUSDM', 30, [['0.05', '1']], []));
    expect(feed.book.asks[0]?.price.toFixed()).toBe('0.7');
  });

  it('drops a payload that does not parse and keeps the last good book', async () => {
    const fake = fakeApi(answers());
    const feed = feedOf(fake.api, memory());
    await feed.start();
    fake.emit('market:depth', {
      ...depthOf('ADAUSDM', 99),
      asks: [{ price: '1e9', quantity: 'x' }],
    });
    expect(feed.book.asks[0]?.price.toFixed()).toBe('0.6513');
  });

  it('switches market, remembers the choice and clears the last market at once', async () => {
    const fake = fakeApi(answers());
    const storage = memory();
    const feed = feedOf(fake.api, storage);
    await feed.start();
    const switching = feed.select('NIGHTUSDM');
    expect(feed.depth).toBeNull();
    expect(feed.trades).toEqual([]);
    await switching;
    expect(feed.market?.base).toBe('NIGHT');
    expect(storage.getItem('countersign.trade.symbol')).toBe('NIGHTUSDM');
    expect(feedOf(fake.api, storage).symbol).toBe('NIGHTUSDM');
  });

  it("says what went wrong when main cannot give the market's data", async () => {
    const fake = fakeApi({
      'market:markets': () => [ADA_USDM],
      'market:watch': { error: 'The exchange did not answer. Check your connection.' },
    });
    const feed = feedOf(fake.api, memory());
    await feed.start();
    expect(feed.error).toBeNull();
    expect(feed.dataError).toBe('The exchange did not answer. Check your connection.');
  });

  it('stops listening when disposed', async () => {
    const fake = fakeApi(answers());
    const feed = feedOf(fake.api, memory());
    await feed.start();
    expect(fake.listeners('market:depth')).toBe(1);
    feed.dispose();
    expect(fake.listeners('market:depth')).toBe(0);
  });
});

describe('mergeTrades', () => {
  const parse = (t: ReturnType<typeof trade>) => MarketTrade.parse(t);

  it('keeps newest first and older trades a new batch does not cover', () => {
    const old = [parse(trade('2025-03-01T12:00:02Z')), parse(trade('2025-03-01T12:00:01Z'))];
    const merged = mergeTrades(old, [parse(trade('2025-03-01T12:00:03Z'))]);
    expect(merged.map((t) => t.timestamp)).toEqual([
      '2025-03-01T12:00:03Z',
      '2025-03-01T12:00:02Z',
      '2025-03-01T12:00:01Z',
    ]);
  });

  it('puts a batch listed oldest first newest first, keeping the order of one instant', () => {
    // A sweep of three levels in one millisecond, after an earlier trade; listed oldest first.
    const batch = [
      parse(trade('2025-03-01T12:00:01.000Z', '0.60')),
      parse(trade('2025-03-01T12:00:02.000Z', '0.61')),
      parse(trade('2025-03-01T12:00:02.000Z', '0.62')),
      parse(trade('2025-03-01T12:00:02.000Z', '0.63')),
    ];
    expect(mergeTrades([], batch).map((t) => t.price.toFixed())).toEqual([
      '0.63',
      '0.62',
      '0.61',
      '0.6',
    ]);
    // Listed newest first (as the sandbox and the seed's recent trades are), kept as it is.
    expect(mergeTrades([], [...batch].reverse()).map((t) => t.price.toFixed())).toEqual([
      '0.63',
      '0.62',
      '0.61',
      '0.6',
    ]);
  });

  it('orders times written with and without milliseconds by when they are', () => {
    const merged = mergeTrades(
      [],
      [parse(trade('2025-03-01T12:00:02Z')), parse(trade('2025-03-01T12:00:02.500Z'))],
    );
    expect(merged.map((t) => t.timestamp)).toEqual([
      '2025-03-01T12:00:02.500Z',
      '2025-03-01T12:00:02Z',
    ]);
  });

  it('a full list replaces what it covers without doubling it', () => {
    const list = [parse(trade('2025-03-01T12:00:02Z')), parse(trade('2025-03-01T12:00:01Z'))];
    expect(mergeTrades(list, list)).toHaveLength(2);
  });
});
