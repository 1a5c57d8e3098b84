import { describe, expect, it } from 'vitest';
import { Candle, MarketTrade } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { candlePoints, fillMarkers, liveCandles, updateFrom } from './chart-data';
import type { OwnFill } from './fills';

const T0 = 1_740_830_400; // 2025-03-01T12:00:00Z, a 15-minute boundary
const candle = (time: number, o: string, h: string, l: string, c: string, v = '10') =>
  Candle.parse({ time, open: o, high: h, low: l, close: c, volume: v });
const trade = (secondsAfter: number, price: string, amount = '5') =>
  MarketTrade.parse({
    timestamp: new Date((T0 + secondsAfter) * 1000).toISOString(),
    symbol: 'ADAUSDM',
    side: 'buy',
    price,
    amount,
  });

describe('liveCandles', () => {
  const candles = [candle(T0, '0.60', '0.62', '0.59', '0.61')];
  const readAt = T0 * 1000 + 60_000;

  it('moves the last candle with trades seen after it was read', () => {
    const [c] = liveCandles(candles, [trade(120, '0.63'), trade(180, '0.58')], '15m', readAt);
    expect(c?.high.toFixed()).toBe('0.63');
    expect(c?.low.toFixed()).toBe('0.58');
    expect(c?.close.toFixed()).toBe('0.58');
    expect(c?.open.toFixed()).toBe('0.6');
    expect(c?.volume.toFixed()).toBe('20');
  });

  it('opens a new candle for a trade in a later interval', () => {
    const out = liveCandles(candles, [trade(900 + 5, '0.64')], '15m', readAt);
    expect(out.map((c) => c.time)).toEqual([T0, T0 + 900]);
    expect(out[1]?.open.toFixed()).toBe('0.64');
  });

  it('ignores trades the exchange already counted', () => {
    const out = liveCandles(candles, [trade(30, '0.99')], '15m', readAt);
    expect(out[0]?.high.toFixed()).toBe('0.62');
  });
});

describe('fillMarkers', () => {
  const fill = (secondsAfter: number, side: 'buy' | 'sell', qty: string, price: string) =>
    ({
      id: `${secondsAfter}${side}`,
      orderId: 'o',
      symbol: 'ADAUSDM',
      side,
      price: new Money(price),
      quantity: new Money(qty),
      value: new Money(qty).times(price),
      fee: new Money(0),
      feeUnit: 'lovelace',
      role: 'maker',
      at: new Date((T0 + secondsAfter) * 1000).toISOString(),
    }) satisfies OwnFill;

  it('adds up fills per candle and side, buys and sells apart', () => {
    const markers = fillMarkers(
      [
        fill(10, 'buy', '100', '0.60'),
        fill(20, 'buy', '50', '0.66'),
        fill(30, 'sell', '40', '0.61'),
        { ...fill(40, 'sell', '1', '1'), symbol: 'NIGHTUSDM' },
      ],
      'ADAUSDM',
      '15m',
      4,
    );
    expect(markers).toEqual([
      { time: T0, side: 'buy', text: 'B 150', price: '0.62' },
      { time: T0, side: 'sell', text: 'S 40', price: '0.61' },
    ]);
  });
});

describe('candlePoints', () => {
  it('hands the chart numbers equal to the exact values', () => {
    expect(candlePoints([candle(T0, '0.6513', '0.66', '0.6', '0.65')])).toEqual([
      { time: T0, open: 0.6513, high: 0.66, low: 0.6, close: 0.65 },
    ]);
  });
});

describe('updateFrom (what a trade hands the chart)', () => {
  const read = [
    candle(T0 - 1800, '0.58', '0.60', '0.57', '0.59'),
    candle(T0 - 900, '0.59', '0.61', '0.58', '0.60'),
    candle(T0, '0.60', '0.62', '0.59', '0.61'),
  ];
  const readAt = T0 * 1000 + 60_000;

  it('is the last candle when a trade moves it, and the new ones when a trade opens one', () => {
    const moved = liveCandles(read, [trade(120, '0.63')], '15m', readAt);
    expect(updateFrom(read, moved)).toBe(2);
    const opened = liveCandles(read, [trade(120, '0.63'), trade(960, '0.64')], '15m', readAt);
    // The last candle is as it was: only the new one.
    expect(updateFrom(moved, opened)).toBe(3);
    // Computed again from the same trades: new objects, the same figures, nothing to hand over.
    expect(
      updateFrom(
        opened,
        liveCandles(read, [trade(120, '0.63'), trade(960, '0.64')], '15m', readAt),
      ),
    ).toBe(4);
  });

  it('asks for every candle again when an older one changed or the series is another', () => {
    const reread = [read[0], candle(T0 - 900, '0.59', '0.65', '0.58', '0.60'), read[2]].filter(
      (c): c is Candle => c !== undefined,
    );
    expect(updateFrom(read, reread)).toBeNull();
    expect(updateFrom(read, read.slice(1))).toBeNull();
    expect(
      updateFrom(read, [...read.slice(0, 2), candle(T0 + 900, '0.6', '0.6', '0.6', '0.6')]),
    ).toBeNull();
    expect(updateFrom([], read)).toBeNull();
  });
});
