import Decimal from 'decimal.js';
import type { Order, OrderPage, OrderType, Side } from '../../src-shared/domain';
import { MarketSymbol } from '../../src-shared/domain';
import type { Money } from '../../src-shared/money';
import type { ApiContext } from './context';
import { ExchangeError, invalidInput as invalid } from './errors';
import {
  decodeBuiltOrder,
  decodeOptionalTxHash,
  decodeOrderPage,
  decodeOrderReply,
  decodeTxHex,
  exactJson,
} from './wire';

/** Orders: build, submit, cancel, the record list and one record (seed 4.1 #1, 2, 3, 9, 10, 11). */

export interface OrderRequest {
  symbol: string;
  side: Side;
  type: OrderType;
  /** In base-asset units (ADA, not lovelace). */
  quantity: Money;
  /** Limit orders only. */
  price?: Money;
  /** Market orders: the worst acceptable price as basis points from the best price (0..10000). */
  slippageBp?: number;
  postOnly?: boolean;
}

const positive = (value: unknown, what: string): Decimal => {
  if (!Decimal.isDecimal(value) || !(value as Decimal).isFinite() || !(value as Decimal).gt(0)) {
    throw invalid(`The ${what} must be a number greater than 0.`);
  }
  return value as Decimal;
};

/** Ids go into paths: only the characters an id can have. */
export const safeId = (id: string, what = 'order id'): string => {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) {
    throw invalid(`That is not a valid ${what}.`);
  }
  return id;
};

export const signedTxText = (signedTx: string): string => {
  if (typeof signedTx !== 'string' || !/^(?:[0-9a-fA-F]{2}){1,200000}$/.test(signedTx)) {
    throw invalid('The signed transaction is not hexadecimal CBOR.');
  }
  return signedTx;
};

export const orderBuildBody = (req: OrderRequest): string => {
  if (!MarketSymbol.safeParse(req.symbol).success) throw invalid(`Unknown market: ${req.symbol}.`);
  if (req.side !== 'buy' && req.side !== 'sell') throw invalid('The side must be buy or sell.');
  if (req.type !== 'limit' && req.type !== 'market') {
    throw invalid('The order type must be limit or market.');
  }
  const quantity = positive(req.quantity, 'quantity');
  const price = req.type === 'limit' ? positive(req.price, 'price') : undefined;
  if (
    req.slippageBp !== undefined &&
    (!Number.isInteger(req.slippageBp) || req.slippageBp < 0 || req.slippageBp > 10_000)
  ) {
    throw invalid('The slippage limit must be a whole number of basis points from 0 to 10000.');
  }
  const limited = req.type === 'market' && req.slippageBp !== undefined;
  return exactJson({
    symbol: req.symbol,
    side: req.side,
    type: req.type,
    quantity,
    price,
    limit_slippage: req.type === 'market' ? limited : undefined,
    max_slippage_basis_point: limited ? req.slippageBp : undefined,
    post_only: req.postOnly ? true : undefined,
  });
};

export const buildOrder = async (
  api: ApiContext,
  req: OrderRequest,
  signal?: AbortSignal,
): Promise<{ orderId: string; txHex: string }> => {
  const body = orderBuildBody(req);
  const action = 'build the order';
  const path = '/order/build';
  const reply = await api.http.request({
    method: 'POST',
    path,
    body,
    kind: 'build',
    action,
    headers: api.auth(action, `POST ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeBuiltOrder(reply.body, { endpoint: reply.endpoint, action });
};

export const submitOrder = async (
  api: ApiContext,
  req: { orderId: string; signedTx: string },
  signal?: AbortSignal,
): Promise<Order> => {
  const orderId = safeId(req.orderId);
  const body = JSON.stringify({ order_id: orderId, signed_tx: signedTxText(req.signedTx) });
  const action = 'submit the order';
  const path = '/order/submit';
  const reply = await api.http.request({
    method: 'POST',
    path,
    body,
    kind: 'submit',
    action,
    headers: api.auth(action, `POST ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeOrderReply(reply.body, orderId, {
    endpoint: reply.endpoint,
    action,
    ambiguous: true,
  });
};

export interface OrderRecordsQuery {
  /** `open` (the seed's), or the real service's `openOrder`, `orderHistory`, `tradingHistory`, `closed`. */
  status: string;
  page?: number;
  limit?: number;
  symbol?: string;
}

export const orderRecords = async (
  api: ApiContext,
  query: OrderRecordsQuery,
  signal?: AbortSignal,
): Promise<OrderPage> => {
  if (!/^[A-Za-z_]{1,40}$/.test(query.status)) throw invalid('That is not an order-list filter.');
  const page = query.page ?? 1;
  const limit = query.limit ?? 10;
  if (!Number.isInteger(page) || page < 1 || page > 1000) {
    throw invalid('The page must be a whole number from 1 to 1000.');
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 250) {
    throw invalid('The page size must be a whole number from 1 to 250.');
  }
  if (query.symbol !== undefined && !MarketSymbol.safeParse(query.symbol).success) {
    throw invalid(`Unknown market: ${query.symbol}.`);
  }
  const action = 'read your order records';
  const path = '/accounts/order-records';
  const reply = await api.http.request({
    method: 'GET',
    path,
    query: { status: query.status, page, limit, symbol: query.symbol },
    kind: 'read',
    action,
    headers: api.auth(action, `GET ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeOrderPage(reply.body, { endpoint: reply.endpoint, action }, { page, limit });
};

/**
 * One order with its executions: the seed's `GET /account/order?id=`; deployments without it
 * (a plain 404) serve `GET /accounts/order/<id>` as `{order_json}`. The route that works is
 * remembered per client.
 */
export class OrderLookup {
  #route: 'seed' | 'path' = 'seed';

  async order(api: ApiContext, orderId: string, signal?: AbortSignal): Promise<Order> {
    const id = safeId(orderId);
    const action = 'read the order';
    if (this.#route === 'seed') {
      try {
        const path = '/account/order';
        const reply = await api.http.request({
          method: 'GET',
          path,
          query: { id },
          kind: 'read',
          action,
          headers: api.auth(action, `GET ${path}`),
          ...(signal ? { signal } : {}),
        });
        return decodeOrderReply(reply.body, id, { endpoint: reply.endpoint, action });
      } catch (error) {
        if (!(error instanceof ExchangeError) || error.failure !== 'no-such-route') throw error;
        this.#route = 'path';
      }
    }
    const path = `/accounts/order/${encodeURIComponent(id)}`;
    const reply = await api.http.request({
      method: 'GET',
      path,
      kind: 'read',
      action,
      headers: api.auth(action, 'GET /accounts/order/<id>'),
      ...(signal ? { signal } : {}),
    });
    return decodeOrderReply(reply.body, id, { endpoint: 'GET /accounts/order/<id>', action });
  }
}

export const buildCancel = async (
  api: ApiContext,
  orderId: string,
  signal?: AbortSignal,
): Promise<{ txHex: string }> => {
  const action = 'build the cancel';
  const path = `/order/${encodeURIComponent(safeId(orderId))}/build`;
  const reply = await api.http.request({
    method: 'DELETE',
    path,
    kind: 'build',
    action,
    headers: api.auth(action, 'DELETE /order/<id>/build'),
    ...(signal ? { signal } : {}),
  });
  return decodeTxHex(reply.body, { endpoint: 'DELETE /order/<id>/build', action });
};

export const submitCancel = async (
  api: ApiContext,
  signedTx: string,
  signal?: AbortSignal,
): Promise<{ txHash: string | null }> => {
  const action = 'submit the cancel';
  const path = '/order/submit';
  const reply = await api.http.request({
    method: 'DELETE',
    path,
    body: JSON.stringify({ signed_tx: signedTxText(signedTx) }),
    kind: 'submit',
    action,
    headers: api.auth(action, `DELETE ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeOptionalTxHash(reply.body, { endpoint: reply.endpoint, action, ambiguous: true });
};
