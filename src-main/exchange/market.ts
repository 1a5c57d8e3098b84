import {
  CandleInterval,
  MarketSymbol,
  type Candle,
  type Depth,
  type MarketTrade,
} from '../../src-shared/domain';
import type { Money } from '../../src-shared/money';
import type { ApiContext } from './context';
import { invalidInput as invalid } from './errors';
import { decodeCandles, decodeDepth, decodePrice, decodeTrades } from './wire';

/** The real service's public market data: price, book, candles, recent trades. */

const symbolOf = (symbol: string): string => {
  if (!MarketSymbol.safeParse(symbol).success) throw invalid(`Unknown market: ${symbol}.`);
  return symbol;
};

const read = (
  api: ApiContext,
  path: string,
  action: string,
  query: Record<string, string | number>,
  signal?: AbortSignal,
) =>
  api.http.request({
    method: 'GET',
    path,
    query,
    kind: 'read',
    action,
    ...(signal ? { signal } : {}),
  });

export const marketPrice = async (
  api: ApiContext,
  symbol: string,
  signal?: AbortSignal,
): Promise<Money> => {
  const action = `read the price of ${symbolOf(symbol)}`;
  const reply = await read(api, '/market/market-price', action, { symbol }, signal);
  return decodePrice(reply.body, { endpoint: reply.endpoint, action });
};

export const depth = async (
  api: ApiContext,
  symbol: string,
  signal?: AbortSignal,
): Promise<Depth> => {
  const action = `read the order book of ${symbolOf(symbol)}`;
  const reply = await read(api, '/market/depth', action, { symbol }, signal);
  return decodeDepth(reply.body, symbol, { endpoint: reply.endpoint, action }, api.now);
};

export const candles = async (
  api: ApiContext,
  symbol: string,
  interval: string,
  startSec: number,
  endSec: number,
  signal?: AbortSignal,
): Promise<Candle[]> => {
  symbolOf(symbol);
  if (!CandleInterval.safeParse(interval).success) {
    throw invalid(`The chart interval must be one of ${CandleInterval.options.join(', ')}.`);
  }
  for (const t of [startSec, endSec]) {
    if (!Number.isInteger(t) || t < 0 || t > 2 ** 40) {
      throw invalid('The chart range must be whole Unix seconds.');
    }
  }
  if (startSec > endSec) throw invalid('The chart range ends before it starts.');
  const action = `read the chart of ${symbol}`;
  const reply = await read(
    api,
    `/market/graph/${symbol}`,
    action,
    { interval, start: startSec, end: endSec },
    signal,
  );
  return decodeCandles(reply.body, { endpoint: reply.endpoint, action }, symbol);
};

export const recentTrades = async (
  api: ApiContext,
  symbol: string,
  limit: number,
  signal?: AbortSignal,
): Promise<MarketTrade[]> => {
  symbolOf(symbol);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw invalid('The number of recent trades must be a whole number from 1 to 500.');
  }
  const action = `read the recent trades of ${symbol}`;
  const reply = await read(api, '/market/recent-trades', action, { symbol, limit }, signal);
  return decodeTrades(reply.body, symbol, { endpoint: reply.endpoint, action });
};
