import type { Handlers } from '../../../src-shared/contract';
import type { MarketService } from './service';

export const marketHandlers = (market: MarketService): Handlers['market'] => ({
  markets: () => market.markets(),
  ticker: ({ symbol }) => market.ticker(symbol),
  depth: ({ symbol }) => market.depth(symbol),
  candles: (request) => market.candles(request),
  trades: (request) => market.trades(request),
  watch: ({ symbol }) => market.watch(symbol),
});
