import { describe, expect, it } from 'vitest';
import { Candle, MarketTrade } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import {
  chartColors,
  candlePoints,
  fillMarkers,
  liveCandles,
  markersOnCandles,
  tapeMark,
  updateFrom,
} from './chart-data';
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
  /** The candles were read when the newest trade the window had seen was a minute in. */
  const readAt = tapeMark([trade(60, '0.61')]);

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
    const out = liveCandles(candles, [trade(60, '0.61'), trade(30, '0.99')], '15m', readAt);
    expect(out[0]?.high.toFixed()).toBe('0.62');
    expect(out[0]?.volume.toFixed()).toBe('10');
  });

  it("closes at the last of the trades one taker's order made in the same instant", () => {
    // Newest first, as the feed keeps them: the sweep traded 0.63, then 0.64, then 0.65.
    const sweep = [trade(120, '0.65', '1'), trade(120, '0.64', '2'), trade(120, '0.63', '3')];
    const [c] = liveCandles(candles, sweep, '15m', readAt);
    expect(c?.close.toFixed()).toBe('0.65');
    expect(c?.high.toFixed()).toBe('0.65');
    expect(c?.volume.toFixed()).toBe('16');
  });

  it("marks the read on the exchange's clock, not this computer's", () => {
    // The exchange's trades are stamped hours before this computer's time: the ones after the
    // read still move the chart, and those it had seen are not counted again.
    const seen = [trade(60, '0.61', '4'), trade(60, '0.60', '6')];
    const mark = tapeMark(seen);
    const later = [trade(61, '0.64'), ...seen];
    const [c] = liveCandles(candles, later, '15m', mark);
    expect(c?.close.toFixed()).toBe('0.64');
    expect(c?.volume.toFixed()).toBe('15');
    // Another trade of the instant the read was marked at, not among those seen: new.
    const [same] = liveCandles(candles, [trade(60, '0.58', '1'), ...seen], '15m', mark);
    expect(same?.low.toFixed()).toBe('0.58');
    expect(same?.volume.toFixed()).toBe('11');
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

describe('markersOnCandles', () => {
  const marker = (time: number) => ({ time, side: 'buy' as const, text: 'B 1', price: '0.6' });
  const candles = [T0, T0 + 900, T0 + 1800].map((t) => candle(t, '0.6', '0.6', '0.6', '0.6'));

  it('keeps only the fills that have a candle shown to stand on', () => {
    // A fill from before the chart's first candle, and one from a candle not read yet.
    const markers = [marker(T0 - 900), marker(T0), marker(T0 + 1800), marker(T0 + 2700)];
    expect(markersOnCandles(markers, candles).map((m) => m.time)).toEqual([T0, T0 + 1800]);
    expect(markersOnCandles(markers, [])).toEqual([]);
  });

  it('hands back the same list when every fill is on a candle (the chart is not redrawn)', () => {
    const markers = [marker(T0), marker(T0 + 900)];
    expect(markersOnCandles(markers, candles)).toBe(markers);
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
  const readAt = tapeMark([trade(60, '0.61')]);

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

describe('chartColors', () => {
  const THEME: Record<string, string> = {
    '--buy': '#0a0',
    '--sell': '#a00',
    '--buy-soft': '#0a03',
    '--sell-soft': '#a003',
    '--text-muted': '#888',
    '--border': '#333',
    '--border-strong': '#444',
    '--bg-panel': '#111',
  };
  const SYSTEM = {
    Canvas: 'rgb(0, 0, 0)',
    CanvasText: 'rgb(255, 255, 255)',
    GrayText: 'rgb(128, 128, 128)',
  };

  it('draws rising candles and buys in the theme’s buy colour, falling ones and sells in its sell colour', () => {
    const c = chartColors(
      false,
      (name) => THEME[name] ?? '',
      (keyword) => SYSTEM[keyword],
    );
    expect([c.up, c.upLine, c.buyMarker]).toEqual(['#0a0', '#0a0', '#0a0']);
    expect([c.down, c.downLine, c.sellMarker]).toEqual(['#a00', '#a00', '#a00']);
    expect([c.upVolume, c.downVolume, c.background]).toEqual(['#0a03', '#a003', '#111']);
    expect(c.outlined).toBe(false);
  });

  it('in forced colours uses only the system’s, and tells rising from falling candles by fill, not hue', () => {
    const read: string[] = [];
    const c = chartColors(
      true,
      (name) => {
        read.push(name);
        return THEME[name] ?? '';
      },
      (keyword) => SYSTEM[keyword],
    );
    expect(read).toEqual([]);
    const system = new Set(Object.values(SYSTEM));
    for (const color of Object.values(c))
      if (typeof color === 'string') expect(system).toContain(color);
    // A rising candle is hollow: the background inside an outline in the text's colour.
    expect(c.outlined).toBe(true);
    expect(c.up).toBe(c.background);
    expect(c.upLine).toBe(c.text);
    // A falling one is filled in the text's colour.
    expect(c.down).toBe(c.text);
    expect(c.up).not.toBe(c.down);
  });
});
