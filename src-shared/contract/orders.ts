import { z } from 'zod';
import { event, operation } from './define';
import type { Execution, OrderPage } from '../domain';
import { MarketSymbol, Order, OrderStatus, OrderView, Side } from '../domain';

export const OrderQuery = z.object({
  view: OrderView,
  symbol: MarketSymbol.optional(),
  side: Side.optional(),
  status: OrderStatus.optional(),
  page: z.number().int().min(1).max(1000).default(1),
  limit: z.number().int().min(1).max(250).default(50),
});
export type OrderQuery = z.input<typeof OrderQuery>;

/** Which of the trader's lists, and the filters on it. */
export const OrderFilters = OrderQuery.pick({ view: true, symbol: true, side: true, status: true });
export type OrderFilters = z.output<typeof OrderFilters>;

/** The most rows one read of a list returns: many screens, never a whole history. */
export const MAX_ORDER_ROWS = 500;

/**
 * Whether main reads the list from the exchange again before answering:
 * - `held`: the list as main last read it (read only if it holds none), so the rows a trader is
 *   scrolling through do not shift under them;
 * - `current` (a view opened, a filter chosen): read again if main has learned it changed since;
 * - `fresh` (the trader asked to refresh): always read again.
 */
export const OrderListRead = z.enum(['held', 'current', 'fresh']);
export type OrderListRead = z.infer<typeof OrderListRead>;

export const OrderRowsRequest = OrderFilters.extend({
  /** Index of the first row wanted, in the filtered list. */
  offset: z.number().int().min(0).max(100_000_000),
  limit: z.number().int().min(1).max(MAX_ORDER_ROWS),
  read: OrderListRead.default('current'),
});
export type OrderRowsRequest = z.input<typeof OrderRowsRequest>;

/**
 * The fields of an order, and of a fill, that a line of the Orders table shows: a row carries
 * these and no more. A history of 100,000 orders is scrolled through a screen at a time, and
 * whatever else a row held (an order's executions above all) would be garbage in the page as soon
 * as the row scrolled by. The order's detail reads the whole record (`held`, then `get`).
 */
export const ORDER_SUMMARY_FIELDS = {
  id: true,
  symbol: true,
  side: true,
  type: true,
  status: true,
  createdAt: true,
  price: true,
  baseQty: true,
  executedBaseQty: true,
  executedPrice: true,
  commission: true,
  commissionUnit: true,
} as const satisfies { readonly [K in keyof Order]?: true };
export const FILL_SUMMARY_FIELDS = {
  id: true,
  createdAt: true,
  price: true,
  baseQty: true,
  quoteQty: true,
  commission: true,
  commissionUnit: true,
  role: true,
} as const satisfies { readonly [K in keyof Execution]?: true };
export type OrderSummary = Pick<Order, keyof typeof ORDER_SUMMARY_FIELDS>;
export type FillSummary = Pick<Execution, keyof typeof FILL_SUMMARY_FIELDS>;

/** `record`'s fields named in `fields`, and no others. */
const picked = <T extends object, K extends keyof T>(
  record: T,
  fields: { readonly [P in K]: true },
): Pick<T, K> => {
  const out = {} as Pick<T, K>;
  for (const key of Object.keys(fields) as K[]) out[key] = record[key];
  return out;
};

/**
 * One line of a list: an order (open orders, order history), or one fill of an order (trading
 * history, where `execution` is that fill). `key` is unique in the list.
 */
export interface OrderRow {
  key: string;
  order: OrderSummary;
  execution: FillSummary | null;
}

/** The row of a list for an order, or for one fill of it: the fields its line shows. */
export const orderRowOf = (key: string, order: Order, execution: Execution | null): OrderRow => ({
  key,
  order: picked(order, ORDER_SUMMARY_FIELDS),
  execution: execution && picked(execution, FILL_SUMMARY_FIELDS),
});

/** A slice of one filtered list, with how long the whole list is. */
export interface OrderRows {
  /** Rows in the whole filtered list. */
  total: number;
  offset: number;
  /** The list read these rows come from; a higher number is a newer read. */
  version: number;
  rows: OrderRow[];
}

const OrderIdRequest = z.object({ orderId: z.string().min(1).max(100) });

/** A fill of one of the trader's orders, for toasts and notifications. */
export const Fill = z.object({ order: Order, executionId: z.string() });

export const orders = {
  /** One page as the exchange pages it (the Trade screen's recent fills). */
  list: operation<OrderPage>().request(OrderQuery),
  /**
   * The rows of a list that the screen shows (main holds the whole list): for tables of any
   * length, a window at a time.
   */
  rows: operation<OrderRows>().request(OrderRowsRequest),
  /** Every open order (the Trade screen's panel). Longer lists are read with `rows`. */
  all: operation<Order[]>().request(OrderFilters.extend({ view: z.literal('open') })),
  /** One order, with every execution, as the exchange has it now. */
  get: operation<Order>().request(OrderIdRequest),
  /**
   * One order as main's lists last read it, without asking the exchange (null when no list
   * holds it): what the detail shows at once, and still shows if the exchange cannot be reached.
   */
  held: operation<Order | null>().request(OrderIdRequest),
  /** Writes orders or fills as CSV through the system's save dialog; null when cancelled. */
  exportCsv: operation<{ fileName: string; rows: number } | null>().request(
    OrderFilters.extend({ what: z.enum(['orders', 'fills']) }),
  ),
} as const;

export const orderEvents = {
  /** The trader's open orders changed (placed, filled, cancelled): the full open list. */
  'orders:open': event(z.array(Order)),
  /** One of the trader's orders traded. */
  'orders:filled': event(Fill),
  /**
   * These lists changed: main already holds the new open list (read its rows again); the
   * history lists are out of date until they are read again.
   */
  'orders:changed': event(z.object({ views: z.array(OrderView) })),
} as const;
