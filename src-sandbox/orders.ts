import type { Market } from './assets.js';

export type Side = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
export const ORDER_STATUSES = [
  'open',
  'partially_filled',
  'fully_filled',
  'cancelled',
  'partially_cancelled',
  'failed',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One fill seen from one order's side. */
export interface Execution {
  readonly id: string;
  readonly orderId: string;
  readonly accountId: string;
  readonly counterPartyOrderId: string;
  readonly priceTicks: bigint;
  readonly baseUnits: bigint;
  readonly quoteUnits: bigint;
  readonly commission: bigint;
  readonly commissionUnit: string;
  readonly role: 'maker' | 'taker';
  readonly at: number;
}

/** An order as the engine keeps it: amounts in smallest units, price in ticks of 10^-4. */
export interface Order {
  readonly id: string;
  readonly accountId: string;
  readonly market: Market;
  readonly side: Side;
  readonly type: OrderType;
  status: OrderStatus;
  /** Limit price in ticks; for market orders 0. */
  readonly priceTicks: bigint;
  readonly quantity: bigint;
  /** Quote value: limit orders quantity × price; market orders what they traded. */
  quoteQuantity: bigint;
  remaining: bigint;
  resting: boolean;
  lockedBase: bigint;
  lockedQuote: bigint;
  executedBase: bigint;
  executedQuote: bigint;
  commission: bigint;
  readonly commissionRateBp: number;
  readonly marketLimitTicks: bigint | null;
  readonly slippageBp: number;
  readonly postOnly: boolean;
  utxoId: string;
  readonly createdAt: number;
  updatedAt: number;
  readonly executions: Execution[];
  /** Its place among every order the engine took: later orders have larger numbers. */
  readonly seq: number;
}

export function isOpen(order: Order): boolean {
  return order.status === 'open' || order.status === 'partially_filled';
}
