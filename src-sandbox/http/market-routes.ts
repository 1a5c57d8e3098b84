import type { FastifyInstance } from 'fastify';
import { fromUnits, marketBySymbol, type Market } from '../assets.js';
import { depthLevels, marketPrice, recentTrades } from '../market-data.js';
import { ErrorCode, SandboxError } from '../errors.js';
import type { SandboxCore } from '../sandbox-core.js';
import { boundedInteger } from './order-routes.js';

const INTERVALS: ReadonlyMap<string, number> = new Map([
  ['5m', 300],
  ['15m', 900],
  ['30m', 1800],
  ['1h', 3600],
  ['1d', 86400],
]);

export function market(symbol: string | undefined): Market {
  const m = symbol === undefined ? undefined : marketBySymbol(symbol);
  if (!m) throw new SandboxError(ErrorCode.invalidSymbol, 'invalid trading pair symbol');
  return m;
}

const price = (ticks: bigint) => Number(fromUnits(ticks, 4));

/** Public market data of the real service: market price, depth, candles, recent trades. */
export function marketRoutes(app: FastifyInstance, core: SandboxCore): void {
  app.get<{ Querystring: { symbol?: string } }>('/market/market-price', async (request) => {
    return { price: marketPrice(core.current(), market(request.query.symbol)) };
  });

  app.get<{ Querystring: { symbol?: string; limit?: string } }>(
    '/market/depth',
    async (request) => {
      const m = market(request.query.symbol);
      const limit = boundedInteger(request.query.limit, 50, 1, 500, 'limit');
      return { timestamp: core.now(), ...depthLevels(core.current(), m, limit) };
    },
  );

  app.get<{
    Params: { symbol: string };
    Querystring: { interval?: string; start?: string; end?: string };
  }>('/market/graph/:symbol', async (request) => {
    const m = market(request.params.symbol);
    const interval = INTERVALS.get(request.query.interval ?? '15m');
    if (interval === undefined) {
      throw new SandboxError(
        ErrorCode.invalidRequest,
        `interval must be one of ${[...INTERVALS.keys()].join(', ')}`,
      );
    }
    const nowSeconds = Math.floor(core.now() / 1000);
    const end = boundedInteger(request.query.end, nowSeconds, 0, 2 ** 40, 'end');
    const start = boundedInteger(request.query.start, end - interval * 100, 0, 2 ** 40, 'start');
    const candles = new Map<
      number,
      { t: number; s: string; o: bigint; h: bigint; l: bigint; c: bigint; v: bigint }
    >();
    for (const trade of core.current().engine.trades(m.symbol)) {
      const seconds = Math.floor(trade.at / 1000);
      if (seconds < start || seconds > end) continue;
      const t = seconds - (seconds % interval);
      const c = candles.get(t);
      if (!c) {
        candles.set(t, {
          t,
          s: m.symbol,
          o: trade.priceTicks,
          h: trade.priceTicks,
          l: trade.priceTicks,
          c: trade.priceTicks,
          v: trade.baseUnits,
        });
        continue;
      }
      if (trade.priceTicks > c.h) c.h = trade.priceTicks;
      if (trade.priceTicks < c.l) c.l = trade.priceTicks;
      c.c = trade.priceTicks;
      c.v += trade.baseUnits;
    }
    return [...candles.values()].map((c) => ({
      t: c.t,
      s: c.s,
      o: price(c.o),
      h: price(c.h),
      l: price(c.l),
      c: price(c.c),
      v: Number(fromUnits(c.v, m.base.decimals)),
    }));
  });

  app.get<{ Querystring: { symbol?: string; limit?: string } }>(
    '/market/recent-trades',
    async (request) => {
      const m = market(request.query.symbol);
      const limit = boundedInteger(request.query.limit, 50, 1, 500, 'limit');
      return recentTrades(core.current(), m, limit);
    },
  );
}
