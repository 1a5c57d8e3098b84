import type Decimal from 'decimal.js';
import type { Order, Role, Side } from '../../../../src-shared/domain';

/** One fill of one of the trader's orders, flattened for the fills list and the chart. */
export interface OwnFill {
  /** The execution record's id. */
  id: string;
  orderId: string;
  symbol: string;
  side: Side;
  price: Decimal;
  quantity: Decimal;
  value: Decimal;
  fee: Decimal;
  feeUnit: string;
  role: Role;
  at: string;
}

const KEEP_FILLS = 200;

export const fillsOf = (order: Order): OwnFill[] =>
  order.executions.map((e) => ({
    id: e.id,
    orderId: order.id,
    symbol: order.symbol,
    side: order.side,
    price: e.price,
    quantity: e.baseQty,
    value: e.quoteQty,
    fee: e.commission,
    feeUnit: e.commissionUnit,
    role: e.role,
    at: e.createdAt,
  }));

/** Newest first, one entry per execution id. */
export const mergeFills = (previous: readonly OwnFill[], added: readonly OwnFill[]): OwnFill[] => {
  const byId = new Map(previous.map((f) => [f.id, f]));
  for (const fill of added) byId.set(fill.id, fill);
  return [...byId.values()].sort((a, b) => b.at.localeCompare(a.at)).slice(0, KEEP_FILLS);
};
