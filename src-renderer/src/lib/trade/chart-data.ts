import type Decimal from 'decimal.js';
import type { Candle, CandleInterval, MarketTrade } from '../../../../src-shared/domain';
import type { OwnFill } from './fills';
import { trimmed } from './format';

export const INTERVALS: ReadonlyArray<{ id: CandleInterval; label: string; seconds: number }> = [
  { id: '5m', label: '5m', seconds: 300 },
  { id: '15m', label: '15m', seconds: 900 },
  { id: '30m', label: '30m', seconds: 1800 },
  { id: '1h', label: '1h', seconds: 3600 },
  { id: '1d', label: '1D', seconds: 86_400 },
];

export const secondsOf = (interval: CandleInterval): number =>
  INTERVALS.find((i) => i.id === interval)?.seconds ?? 900;

const bucket = (iso: string, seconds: number): number | null => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const s = Math.floor(ms / 1000);
  return s - (s % seconds);
};

/**
 * Where a read of the exchange's candles stands on the market's trade tape: the time of the
 * newest trade the window had seen when the read was sent (on the exchange's clock, as its trades
 * carry it) and the trades of that same instant. The candles hold those trades; any later one is
 * drawn on top of them. Marked on the exchange's timestamps rather than this computer's clock: a
 * clock a few seconds off would otherwise leave the trades of those seconds off the chart until
 * the next read, or count them twice.
 */
export interface TapeMark {
  /** Milliseconds since the epoch; -Infinity when the window had seen no trade. */
  at: number;
  /** The trades at `at` (`tapeKey`): a trade at the same instant that is not among them is new. */
  seen: ReadonlySet<string>;
}

export const NO_TRADES_SEEN: TapeMark = { at: -Infinity, seen: new Set() };

/** A trade on the tape: the exchange gives them no identifier, so their time and terms. */
const tapeKey = (t: MarketTrade): string =>
  `${t.timestamp}|${t.side}|${t.price.toFixed()}|${t.amount.toFixed()}`;

/** The mark of a read sent now, from the trades the window has seen. */
export const tapeMark = (trades: readonly MarketTrade[]): TapeMark => {
  let at = -Infinity;
  for (const t of trades) at = Math.max(at, Date.parse(t.timestamp) || -Infinity);
  return { at, seen: new Set(trades.filter((t) => Date.parse(t.timestamp) === at).map(tapeKey)) };
};

/**
 * The exchange's candles brought up to date with the trades after their read (`mark`): a trade
 * in the last candle's interval moves its high, low, close and volume; one in a later interval
 * opens a new candle. Sorted by time, one candle per interval.
 *
 * `trades` are newest first, as the market's feed keeps them. Trades of the same millisecond (a
 * taker's order sweeping several levels) are taken in that order, oldest first, so the close is
 * the price the last of them traded at: the last price the market shows.
 */
export const liveCandles = (
  candles: readonly Candle[],
  trades: readonly MarketTrade[],
  interval: CandleInterval,
  mark: TapeMark,
): Candle[] => {
  const seconds = secondsOf(interval);
  const byTime = new Map<number, Candle>();
  for (const c of candles) byTime.set(c.time, c);
  const fresh = trades
    .filter((t) => {
      const at = Date.parse(t.timestamp);
      return at > mark.at || (at === mark.at && !mark.seen.has(tapeKey(t)));
    })
    .reverse()
    // Stable: trades of one instant stay oldest first.
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  for (const trade of fresh) {
    const time = bucket(trade.timestamp, seconds);
    if (time === null) continue;
    const c = byTime.get(time);
    byTime.set(
      time,
      c
        ? {
            ...c,
            high: c.high.greaterThan(trade.price) ? c.high : trade.price,
            low: c.low.lessThan(trade.price) ? c.low : trade.price,
            close: trade.price,
            volume: c.volume.plus(trade.amount),
          }
        : {
            time,
            open: trade.price,
            high: trade.price,
            low: trade.price,
            close: trade.price,
            volume: trade.amount,
          },
    );
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
};

/**
 * Plotting is the one place an amount becomes a float: the chart library draws numbers. The
 * figures a trader reads (axis labels, the summary) are formatted from the exact values.
 */
const plot = (value: Decimal): number => Number(value.toFixed());

export interface CandlePoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The same candle: the same object, or one with the same time and figures. */
const sameCandle = (a: Candle | undefined, b: Candle | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.time === b.time &&
    a.open.equals(b.open) &&
    a.high.equals(b.high) &&
    a.low.equals(b.low) &&
    a.close.equals(b.close) &&
    a.volume.equals(b.volume));

/**
 * Where `next` differs from the candles the chart draws (`drawn`), when the chart can follow by
 * updating its last candle and adding later ones, as a trade does: the index of the first candle
 * to hand it (`next.length` when nothing changed). Null when it must be given all of them again
 * (another market or interval, a read of the exchange's candles that changed older ones).
 */
export const updateFrom = (drawn: readonly Candle[], next: readonly Candle[]): number | null => {
  const last = drawn.length - 1;
  if (last < 0 || next.length < drawn.length) return null;
  for (let i = 0; i < last; i++) if (!sameCandle(drawn[i], next[i])) return null;
  if (next[last]?.time !== drawn[last]?.time) return null;
  return sameCandle(drawn[last], next[last]) ? drawn.length : last;
};

export const candlePoints = (candles: readonly Candle[]): CandlePoint[] =>
  candles.map((c) => ({
    time: c.time,
    open: plot(c.open),
    high: plot(c.high),
    low: plot(c.low),
    close: plot(c.close),
  }));

export const volumePoints = (candles: readonly Candle[]) =>
  candles.map((c) => ({ time: c.time, value: plot(c.volume), up: !c.close.lessThan(c.open) }));

export interface FillMarker {
  time: number;
  side: 'buy' | 'sell';
  text: string;
  /** Average price of the fills it stands for (for the text alternative). */
  price: string;
}

const NO_MARKERS: readonly FillMarker[] = [];

/**
 * The markers that stand on the candles shown: a fill older than the first candle (the history
 * reaches further back than the chart) or newer than the last has no candle to stand on, and the
 * chart would pin it to its nearest edge, where it marks a trade at a time it did not happen.
 */
export const markersOnCandles = (
  markers: readonly FillMarker[],
  candles: readonly Candle[],
): readonly FillMarker[] => {
  const first = candles[0]?.time;
  const last = candles.at(-1)?.time;
  if (first === undefined || last === undefined) return NO_MARKERS;
  const within = markers.filter((m) => m.time >= first && m.time <= last);
  return within.length === markers.length ? markers : within;
};

/** More markers than this only clutter the candles: the most recent are kept. */
export const MAX_MARKERS = 60;

/**
 * The trader's own fills as chart markers: one per candle and side, with the quantity they add up
 * to (`B 150` under the candle for buys, `S 40` above it for sells).
 */
export const fillMarkers = (
  fills: readonly OwnFill[],
  symbol: string,
  interval: CandleInterval,
  quantityDecimals: number,
): FillMarker[] => {
  const seconds = secondsOf(interval);
  const groups = new Map<
    string,
    { time: number; side: 'buy' | 'sell'; qty: Decimal; value: Decimal }
  >();
  for (const fill of fills) {
    if (fill.symbol !== symbol) continue;
    const time = bucket(fill.at, seconds);
    if (time === null) continue;
    const key = `${time}:${fill.side}`;
    const group = groups.get(key);
    if (group) {
      group.qty = group.qty.plus(fill.quantity);
      group.value = group.value.plus(fill.value);
    } else {
      groups.set(key, { time, side: fill.side, qty: fill.quantity, value: fill.value });
    }
  }
  return [...groups.values()]
    .sort((a, b) => a.time - b.time || a.side.localeCompare(b.side))
    .slice(-MAX_MARKERS)
    .map((g) => ({
      time: g.time,
      side: g.side,
      text: `${g.side === 'buy' ? 'B' : 'S'} ${trimmed(g.qty, quantityDecimals)}`,
      price: g.qty.greaterThan(0) ? g.value.div(g.qty).toFixed() : '0',
    }));
};

/** The chart's colours, as CSS colours the canvas can draw with. */
export interface ChartColors {
  text: string;
  grid: string;
  background: string;
  border: string;
  /** A rising candle's body, its outline and wick; a falling one's. */
  up: string;
  upLine: string;
  down: string;
  downLine: string;
  /** Whether the candles are outlined (only where the bodies alone would not tell them apart). */
  outlined: boolean;
  upVolume: string;
  downVolume: string;
  buyMarker: string;
  sellMarker: string;
}

/**
 * The chart's colours: the theme's, read by `themeColor` (a custom property's value); or, when the
 * system forces its own colours (a high-contrast theme), the system's, read by `systemColor`
 * (a system colour keyword resolved to a colour). There the theme's greens and reds are gone, as
 * they are from the page's text: a rising candle is hollow (the background inside an outline in
 * the text's colour) and a falling one filled in the text's colour, as charts printed in one
 * colour draw them; a fill's arrow points up for a buy and down for a sell.
 */
export const chartColors = (
  forced: boolean,
  themeColor: (name: string) => string,
  systemColor: (keyword: 'Canvas' | 'CanvasText' | 'GrayText') => string,
): ChartColors => {
  if (forced) {
    const canvas = systemColor('Canvas');
    const text = systemColor('CanvasText');
    const gray = systemColor('GrayText');
    return {
      text,
      grid: gray,
      background: canvas,
      border: text,
      up: canvas,
      upLine: text,
      down: text,
      downLine: text,
      outlined: true,
      upVolume: gray,
      downVolume: gray,
      buyMarker: text,
      sellMarker: text,
    };
  }
  const buy = themeColor('--buy');
  const sell = themeColor('--sell');
  return {
    text: themeColor('--text-muted'),
    grid: themeColor('--border'),
    background: themeColor('--bg-panel'),
    border: themeColor('--border-strong'),
    up: buy,
    upLine: buy,
    down: sell,
    downLine: sell,
    outlined: false,
    upVolume: themeColor('--buy-soft'),
    downVolume: themeColor('--sell-soft'),
    buyMarker: buy,
    sellMarker: sell,
  };
};
