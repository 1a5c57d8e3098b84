import { z } from 'zod';
import { event, operation } from './define';
import type { Candle, Market } from '../domain';
import { CandleInterval, Depth, MarketSymbol, MarketTrade, Ticker } from '../domain';

export const market = {
  markets: operation<Market[]>().request(z.undefined()),
  ticker: operation<Ticker>().request(z.object({ symbol: MarketSymbol })),
  depth: operation<Depth>().request(z.object({ symbol: MarketSymbol })),
  candles: operation<Candle[]>().request(
    z.object({
      symbol: MarketSymbol,
      interval: CandleInterval,
      /** Unix seconds; default: the last 200 intervals. */
      start: z.number().int().nonnegative().optional(),
      end: z.number().int().nonnegative().optional(),
    }),
  ),
  trades: operation<MarketTrade[]>().request(
    z.object({ symbol: MarketSymbol, limit: z.number().int().min(1).max(200).default(50) }),
  ),
  /** Main pushes this market's book, price and trades as events until another is watched. */
  watch: operation<null>().request(z.object({ symbol: MarketSymbol })),
} as const;

export const ConnectionState = z.object({
  /** `live`: streams up; `polling`: streams down, reading every few seconds; `offline`: no answer. */
  state: z.enum(['connecting', 'live', 'polling', 'offline']),
  network: z.string(),
  /** In words, for the status bar and the full-width error state. */
  detail: z.string(),
  since: z.string(),
});
export type ConnectionState = z.infer<typeof ConnectionState>;

export const marketEvents = {
  'market:depth': event(Depth),
  'market:ticker': event(Ticker),
  'market:trades': event(z.object({ symbol: MarketSymbol, trades: z.array(MarketTrade) })),
  'exchange:connection': event(ConnectionState),
} as const;
