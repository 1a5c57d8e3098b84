import type { FastifyInstance } from 'fastify';
import { marketBySymbol } from '../assets.js';
import { ErrorCode, SandboxError } from '../errors.js';
import type { OrderRequest } from '../journal-entries.js';
import { STATUS_FILTERS, orderPage } from '../market-data.js';
import type { Order } from '../orders.js';
import { orderRecord } from '../records.js';
import type { SandboxCore } from '../sandbox-core.js';
import { checkSignatures, parseSignedTx } from '../transactions.js';
import { orderBuildBody, orderSubmitBody, signedTxBody } from './schemas.js';
import { authenticate } from './server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function orderIdParam(id: string): string {
  if (!UUID.test(id)) throw new SandboxError(ErrorCode.invalidRequest, 'order id is not a UUID');
  return id.toLowerCase();
}

/** Orders: build, submit, cancel, the record list and single records. */
export function orderRoutes(app: FastifyInstance, core: SandboxCore): void {
  const auth = authenticate(core);

  app.post('/order/build', { onRequest: auth, schema: { body: orderBuildBody } }, (request) => {
    const order = request.body as OrderRequest;
    return core.commit<{ order_id: string; tx_hex: string }>({
      t: 'orderBuild',
      at: core.now(),
      accountId: request.accountId,
      order,
    });
  });

  app.post(
    '/order/submit',
    { onRequest: auth, schema: { body: orderSubmitBody } },
    async (request) => {
      const body = request.body as { order_id: string; signed_tx: string };
      const orderId = body.order_id.toLowerCase();
      const signed = parseSignedTx(
        body.signed_tx,
        core.exchange.pending.builtOrder(request.accountId, orderId),
      );
      const at = core.now();
      const { signer } = core
        .current()
        .pendingFor('order', request.accountId, signed.txId, at, orderId);
      checkSignatures(signed, [signer]);
      const order = await core.commit<Order>({
        t: 'orderSubmit',
        at,
        orderId,
        txId: signed.txId,
      });
      return { order: orderRecord(order) };
    },
  );

  app.delete<{ Params: { id: string } }>('/order/:id/build', { onRequest: auth }, (request) => {
    return core.commit<{ tx_hex: string }>({
      t: 'cancelBuild',
      at: core.now(),
      accountId: request.accountId,
      orderId: orderIdParam(request.params.id),
    });
  });

  app.delete('/order/submit', { onRequest: auth, schema: { body: signedTxBody } }, (request) => {
    const signed = parseSignedTx((request.body as { signed_tx: string }).signed_tx);
    const at = core.now();
    const { signer } = core.current().pendingFor('cancel', request.accountId, signed.txId, at);
    checkSignatures(signed, [signer]);
    return core.commit<{ tx_hash: string }>({ t: 'cancelSubmit', at, txId: signed.txId });
  });

  app.get<{ Querystring: { status?: string; page?: string; limit?: string; symbol?: string } }>(
    '/accounts/order-records',
    { onRequest: auth },
    async (request) => {
      const q = request.query;
      const filter = q.status === undefined ? undefined : STATUS_FILTERS.get(q.status);
      if (!filter) {
        throw new SandboxError(
          ErrorCode.invalidStatus,
          `invalid status parameter (one of ${[...STATUS_FILTERS.keys()].join(', ')})`,
        );
      }
      const page = boundedInteger(q.page, 1, 1, 1000, 'page');
      const limit = boundedInteger(q.limit, 10, 1, 250, 'limit');
      if (q.symbol !== undefined && !marketBySymbol(q.symbol)) {
        throw new SandboxError(ErrorCode.invalidSymbol, 'invalid trading pair symbol');
      }
      await core.synced();
      return orderPage(
        core.current(),
        request.accountId,
        q.status ?? '',
        filter,
        page,
        limit,
        q.symbol,
      );
    },
  );

  app.get<{ Querystring: { id?: string } }>(
    '/account/order',
    { onRequest: auth },
    async (request) => {
      if (request.query.id === undefined) {
        throw new SandboxError(ErrorCode.invalidRequest, 'query parameter id is required');
      }
      await core.synced();
      return orderRecord(core.current().order(request.accountId, orderIdParam(request.query.id)));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/accounts/order/:id',
    { onRequest: auth },
    async (request) => {
      await core.synced();
      const order = core.current().order(request.accountId, orderIdParam(request.params.id));
      return { order_json: orderRecord(order) };
    },
  );
}

export function boundedInteger(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  name: string,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < min || n > max) {
    throw new SandboxError(
      ErrorCode.invalidRequest,
      `${name} must be an integer in ${min}..${max}`,
    );
  }
  return n;
}
