import { describe, expect, it } from 'vitest';
import { MarketTrade, type MarketTrade as MarketTradeT } from '../../../../src-shared/domain';
import { CandleFeed } from './candle-feed.svelte';
import { fakeApi } from './fake-api';

const memory = () => {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
};

const candle = (time: number, close: string) => ({
  time,
  open: '0.6',
  high: '0.7',
  low: '0.5',
  close,
  volume: '10',
});

describe('CandleFeed', () => {
  it('reads the candles of a market and interval', async () => {
    const fake = fakeApi({ 'market:candles': () => [candle(900, '0.65'), candle(0, '0.61')] });
    const feed = new CandleFeed(fake.api, () => [], memory());
    await feed.load('ADAUSDM');
    expect(fake.calls[0]).toEqual({
      channel: 'market:candles',
      request: { symbol: 'ADAUSDM', interval: '15m' },
    });
    expect(feed.shown.map((c) => c.time)).toEqual([0, 900]);
    expect(feed.error).toBeNull();
  });

  it('remembers the interval and reads again when it changes', async () => {
    const fake = fakeApi({ 'market:candles': () => [] });
    const storage = memory();
    const feed = new CandleFeed(fake.api, () => [], storage);
    await feed.choose('1h', 'ADAUSDM');
    expect(fake.calls.at(-1)?.request).toEqual({ symbol: 'ADAUSDM', interval: '1h' });
    expect(new CandleFeed(fake.api, () => [], storage).interval).toBe('1h');
  });

  it('keeps the last candle moving with new trades', async () => {
    let trades = $state<MarketTradeT[]>([]);
    const now = Math.floor(Date.now() / 1000);
    const start = now - (now % 900);
    const fake = fakeApi({ 'market:candles': () => [candle(start, '0.65')] });
    const feed = new CandleFeed(fake.api, () => trades, memory());
    await feed.load('ADAUSDM');
    expect(feed.shown.at(-1)?.close.toFixed()).toBe('0.65');
    trades = [
      MarketTrade.parse({
        timestamp: new Date(Date.now() + 1000).toISOString(),
        symbol: 'ADAUSDM',
        side: 'sell',
        price: '0.8',
        amount: '1',
      }),
    ];
    expect(feed.shown.at(-1)?.close.toFixed()).toBe('0.8');
  });

  it('drops the answer for an interval the trader already left', async () => {
    let release: (v: unknown) => void = () => undefined;
    const slow = new Promise((r) => (release = r));
    const fake = fakeApi({
      'market:candles': (r) =>
        (r as { interval: string }).interval === '5m' ? slow.then(() => [candle(0, '9')]) : [],
    });
    const feed = new CandleFeed(fake.api, () => [], memory());
    const first = feed.choose('5m', 'ADAUSDM');
    await feed.choose('1d', 'ADAUSDM');
    release(null);
    await first;
    expect(feed.interval).toBe('1d');
    expect(feed.candles).toEqual([]);
  });

  it("shows main's message when candles cannot be read", async () => {
    const fake = fakeApi({ 'market:candles': { error: 'The exchange did not answer.' } });
    const feed = new CandleFeed(fake.api, () => [], memory());
    await feed.load('ADAUSDM');
    expect(feed.error).toBe('The exchange did not answer.');
    expect(feed.loading).toBe(false);
  });
});
