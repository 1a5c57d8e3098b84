import {
  Execution,
  Order,
  type Execution as ExecutionT,
  type Order as OrderT,
  type OrderStatus,
  type OrderView,
} from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';

/** An order record as it crossed from main: exact decimal strings, parsed when shown. */
export type WireOrder = Serialized<OrderT>;
export type WireExecution = Serialized<ExecutionT>;

/** One line of the trading history: a fill, with the order it belongs to. */
export interface FillRow {
  key: string;
  order: WireOrder;
  execution: WireExecution;
}

/** Every fill of these orders, newest first. */
export const fillRows = (orders: readonly WireOrder[]): FillRow[] => {
  const rows: FillRow[] = [];
  for (const order of orders) {
    for (const execution of order.executions) {
      rows.push({ key: `${order.id}:${execution.id}`, order, execution });
    }
  }
  return rows.sort((a, b) =>
    a.execution.createdAt < b.execution.createdAt
      ? 1
      : a.execution.createdAt > b.execution.createdAt
        ? -1
        : 0,
  );
};

const parsedOrders = new WeakMap<object, OrderT | null>();
const parsedExecutions = new WeakMap<object, ExecutionT | null>();

/**
 * A record checked against the domain schema the first time it is shown (the table may hold
 * 100,000 of them; only the rows on screen are ever parsed). Null: it does not read as an order,
 * and the row says so instead of showing guesses.
 */
export const readOrder = (wire: WireOrder): OrderT | null => {
  let parsed = parsedOrders.get(wire);
  if (parsed === undefined) {
    const result = Order.safeParse(wire);
    parsed = result.success ? result.data : null;
    parsedOrders.set(wire, parsed);
  }
  return parsed;
};

export const readExecution = (wire: WireExecution): ExecutionT | null => {
  let parsed = parsedExecutions.get(wire);
  if (parsed === undefined) {
    const result = Execution.safeParse(wire);
    parsed = result.success ? result.data : null;
    parsedExecutions.set(wire, parsed);
  }
  return parsed;
};

/** Which statuses a view can hold, for its status filter. */
export const STATUSES_OF: Readonly<Record<OrderView, readonly OrderStatus[]>> = {
  open: ['open', 'partially_filled', 'processing', 'building'],
  history: ['fully_filled', 'partially_cancelled', 'cancelled', 'closed', 'failed'],
  trades: [],
};

export const VIEW_TEXT: Readonly<Record<OrderView, string>> = {
  open: 'Open orders',
  history: 'Order history',
  trades: 'Trading history',
};
