import { z } from 'zod';
import { Amount, Timestamp } from './amount';

/** A trading pair's name: base + quote with no separator (`ADAUSDM`). */
export const MarketSymbol = z.string().regex(/^[A-Z0-9]{2,24}$/, 'a market such as ADAUSDM');
export type MarketSymbol = z.infer<typeof MarketSymbol>;

export const Side = z.enum(['buy', 'sell']);
export type Side = z.infer<typeof Side>;

/** A market as the app trades it: its assets and the precision the exchange accepts. */
export const Market = z.object({
  symbol: MarketSymbol,
  base: z.string(),
  quote: z.string(),
  baseUnit: z.string(),
  quoteUnit: z.string(),
  priceDecimals: z.number().int().min(0).max(18),
  quantityDecimals: z.number().int().min(0).max(18),
  /** Smallest order, in ADA equivalent (5 on the real service). */
  minOrderAdaEquivalent: Amount,
  commissionRateBp: z.number().int().min(0).max(10_000),
});
export type Market = z.output<typeof Market>;

export const DepthLevel = z.object({ price: Amount, quantity: Amount });
export type DepthLevel = z.output<typeof DepthLevel>;

/** The order book of one market: bids best first (highest), asks best first (lowest). */
export const Depth = z.object({
  symbol: MarketSymbol,
  /** Epoch milliseconds of the snapshot. */
  timestamp: z.number().int().nonnegative(),
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
});
export type Depth = z.output<typeof Depth>;

export const CandleInterval = z.enum(['5m', '15m', '30m', '1h', '1d']);
export type CandleInterval = z.infer<typeof CandleInterval>;

export const Candle = z.object({
  /** Start of the interval, unix seconds. */
  time: z.number().int().nonnegative(),
  open: Amount,
  high: Amount,
  low: Amount,
  close: Amount,
  volume: Amount,
});
export type Candle = z.output<typeof Candle>;

/** A trade in the market (anyone's); `side` is the taker's. */
export const MarketTrade = z.object({
  timestamp: Timestamp,
  symbol: MarketSymbol,
  side: Side,
  price: Amount,
  amount: Amount,
});
export type MarketTrade = z.output<typeof MarketTrade>;

/** Last price and its change over 24 hours (null when the exchange has no price a day ago). */
export const Ticker = z.object({
  symbol: MarketSymbol,
  price: Amount.nullable(),
  change24h: Amount.nullable(),
});
export type Ticker = z.output<typeof Ticker>;
