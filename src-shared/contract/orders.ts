import { z } from 'zod';
import { event, operation } from './define';
import type { OrderPage } from '../domain';
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

/** A fill of one of the trader's orders, for toasts and notifications. */
export const Fill = z.object({ order: Order, executionId: z.string() });

export const orders = {
  list: operation<OrderPage>().request(OrderQuery),
  /** Every record of a view (all pages), for the table and the CSV export. */
  all: operation<Order[]>().request(
    OrderQuery.pick({ view: true, symbol: true, side: true, status: true }),
  ),
  get: operation<Order>().request(z.object({ orderId: z.string().min(1).max(100) })),
  /** Writes orders or fills as CSV through the system's save dialog; null when cancelled. */
  exportCsv: operation<{ fileName: string; rows: number } | null>().request(
    z.object({
      what: z.enum(['orders', 'fills']),
      view: OrderView,
      symbol: MarketSymbol.optional(),
      side: Side.optional(),
      status: OrderStatus.optional(),
    }),
  ),
} as const;

export const orderEvents = {
  /** The trader's open orders changed (placed, filled, cancelled): the full open list. */
  'orders:open': event(z.array(Order)),
  /** One of the trader's orders traded. */
  'orders:filled': event(Fill),
} as const;
