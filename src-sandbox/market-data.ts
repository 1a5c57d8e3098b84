import { fromUnits, type Market } from './assets.js';
import type { Exchange, OrderSummary } from './exchange.js';
import type { Order } from './orders.js';
import { executionRecord, orderRecord } from './records.js';

/** Prices on the wire: numbers of quote per base (the real service's market data). */
const price = (ticks: bigint) => Number(fromUnits(ticks, 4));

/** `{price}`: the last trade, else the market maker's reference, else the starting price. */
export function marketPrice(exchange: Exchange, market: Market): number {
  return price(exchange.markPrice(market));
}

/** The best `limit` price levels of each side, as the real depth endpoint and stream send. */
export function depthLevels(exchange: Exchange, market: Market, limit: number) {
  const book = exchange.engine.book(market.symbol);
  const levels = (side: typeof book.bids.levels) =>
    side.slice(0, limit).map((l) => ({
      price: price(l.price),
      quantity: Number(fromUnits(l.quantity, market.base.decimals)),
    }));
  return { bids: levels(book.bids.levels), asks: levels(book.asks.levels) };
}

/** The last `limit` trades, newest first; `side` is the taker's. */
export function recentTrades(exchange: Exchange, market: Market, limit: number) {
  return exchange.engine
    .trades(market.symbol)
    .slice(-limit)
    .reverse()
    .map((t) => ({
      timestamp: new Date(t.at).toISOString(),
      symbol: market.symbol,
      side: t.takerSide,
      price: price(t.priceTicks),
      amount: Number(fromUnits(t.baseUnits, market.base.decimals)),
    }));
}

/** Status filters of the order-record list: the seed's `open` and the real service's. */
export const STATUS_FILTERS: ReadonlyMap<string, (o: OrderSummary) => boolean> = new Map([
  ['open', (o: OrderSummary) => o.open],
  ['openOrder', (o: OrderSummary) => o.open],
  ['orderHistory', (o: OrderSummary) => !o.open],
  ['closed', (o: OrderSummary) => !o.open],
  ['tradingHistory', (o: OrderSummary) => o.traded],
]);

/**
 * One page of an account's order records, newest first, in the real service's paged shape:
 * `{data: [{orders, order_filling_records}], total_count, total_page}` (filling records only for
 * `tradingHistory`).
 */
export function orderPage(
  exchange: Exchange,
  accountId: string,
  status: string,
  filter: (o: OrderSummary) => boolean,
  page: number,
  limit: number,
  symbol?: string,
) {
  const first = (page - 1) * limit;
  const slice: Order[] = [];
  let count = 0;
  for (const o of exchange.newestFirst(accountId)) {
    if (!filter(o) || (symbol !== undefined && o.market.symbol !== symbol)) continue;
    if (count >= first && slice.length < limit) slice.push(o.read());
    count++;
  }
  return {
    data: [
      {
        orders: slice.map(orderRecord),
        order_filling_records:
          status === 'tradingHistory'
            ? slice.flatMap((o) => o.executions.map((e) => executionRecord(o, e)))
            : [],
      },
    ],
    total_count: count,
    total_page: Math.ceil(count / limit),
  };
}
