import { z } from 'zod';
import { Amount, Timestamp } from './amount';
import { MarketSymbol, Side } from './market';

export const OrderType = z.enum(['limit', 'market']);
export type OrderType = z.infer<typeof OrderType>;

/** Every status the real service uses (real-service.md); the seed names only `open`. */
export const OrderStatus = z.enum([
  'building',
  'processing',
  'open',
  'partially_filled',
  'fully_filled',
  'closed',
  'cancelled',
  'partially_cancelled',
  'failed',
]);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** Statuses in which an order still rests in the book and can be cancelled. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['open', 'partially_filled'];

/** Statuses of an order that is done: it rests in the book no more and needs no cancel. */
export const FINISHED_STATUSES: readonly OrderStatus[] = [
  'fully_filled',
  'partially_cancelled',
  'cancelled',
  'closed',
  'failed',
];

export const Role = z.enum(['maker', 'taker']);
export type Role = z.infer<typeof Role>;

/** One fill of an order (seed 2.2). */
export const Execution = z.object({
  id: z.string(),
  orderId: z.string(),
  accountId: z.string().nullable(),
  counterPartyOrderId: z.string().nullable(),
  price: Amount,
  baseQty: Amount,
  quoteQty: Amount,
  commission: Amount,
  commissionUnit: z.string(),
  role: Role,
  createdAt: Timestamp,
});
export type Execution = z.output<typeof Execution>;

/** An order record (seed 2.1), whichever field set the exchange sent it in. */
export const Order = z.object({
  id: z.string(),
  accountId: z.string().nullable(),
  symbol: MarketSymbol,
  side: Side,
  type: OrderType,
  status: OrderStatus,
  /** Limit price; null for a market order. */
  price: Amount.nullable(),
  baseQty: Amount,
  quoteQty: Amount.nullable(),
  lockedBaseQty: Amount,
  lockedQuoteQty: Amount,
  executedBaseQty: Amount,
  executedQuoteQty: Amount,
  /** Average fill price; null before the first fill. */
  executedPrice: Amount.nullable(),
  openBaseQty: Amount,
  /** A market order's worst acceptable price; null when it has none. */
  marketOrderLimitPrice: Amount.nullable(),
  slippageBp: z.number().int().nullable(),
  commission: Amount,
  commissionRateBp: z.number().int().nullable(),
  commissionUnit: z.string(),
  activeOrderUtxoId: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  executions: z.array(Execution),
});
export type Order = z.output<typeof Order>;

/** One page of order records. */
export const OrderPage = z.object({
  orders: z.array(Order),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  totalCount: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
});
export type OrderPage = z.output<typeof OrderPage>;

/** Which list of the trader's orders: resting, finished, or every order that traded. */
export const OrderView = z.enum(['open', 'history', 'trades']);
export type OrderView = z.infer<typeof OrderView>;
