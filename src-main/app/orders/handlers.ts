import type { Handlers } from '../../../src-shared/contract';
import type { OrdersService } from './service';

export const ordersHandlers = (orders: OrdersService): Handlers['orders'] => ({
  list: (query) => orders.list(query),
  rows: (request) => orders.rows(request),
  all: (filters) => orders.all(filters),
  get: ({ orderId }) => orders.get(orderId),
  held: ({ orderId }) => orders.held(orderId),
  exportCsv: (request) => orders.exportCsv(request),
});
