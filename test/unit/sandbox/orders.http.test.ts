import { Cardano } from '@cardano-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_ADDRESSES } from '../../../src-sandbox/addresses.js';
import {
  Trader,
  USDM_UNIT,
  call,
  decodeTx,
  readyCrypto,
  startTestSandbox,
  txId,
  type OrderRecord,
  type TestSandbox,
} from './helpers.js';

let sandbox: TestSandbox;

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function funded(ada = 1000, usdm = 1000): Promise<Trader> {
  const t = await new Trader(sandbox.url).register();
  await t.fund(ada, usdm);
  return t;
}

describe('placing orders', () => {
  it('builds a real Conway transaction locking the order amount at the order address', async () => {
    const t = await funded();
    const built = await t.request<{ order_id: string; tx_hex: string }>('POST', '/order/build', {
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 100,
      price: 0.7,
    });
    expect(built.status).toBe(200);
    expect(built.body.order_id).toMatch(/^[0-9a-f-]{36}$/);
    const tx = decodeTx(built.body.tx_hex);
    expect(tx.body.fee).toBe(0n);
    expect(tx.body.requiredExtraSignatures).toEqual([t.operation.hash]);
    expect(tx.body.inputs).toHaveLength(1);
    expect(tx.body.outputs[0]?.value.coins).toBe(100_000_000n);
    expect(tx.body.outputs[0]?.datum).toBeDefined();
    expect(tx.body.outputs[1]?.value.coins).toBe(900_000_000n);
    // expires five minutes after the build (slot = unix seconds - 1654041600)
    const nowSlot = Math.floor(Date.now() / 1000) - 1_654_041_600;
    const ttl = Number(tx.body.validityInterval?.invalidHereafter);
    expect(ttl - nowSlot).toBeGreaterThan(250);
    expect(ttl - nowSlot).toBeLessThanOrEqual(300);
    const account = await call<{ exchange_address: string }>(
      sandbox.url,
      'GET',
      `/sandbox/accounts/${t.accountId}`,
    );
    expect(tx.body.outputs[1]?.address).toBe(account.body.exchange_address);
    expect(tx.witness.signatures.size).toBe(0);

    const submitted = await t.request<{ order: OrderRecord }>('POST', '/order/submit', {
      order_id: built.body.order_id,
      signed_tx: t.operation.sign(built.body.tx_hex),
    });
    expect(submitted.status).toBe(200);
    const order = submitted.body.order;
    expect(order).toMatchObject({
      id: built.body.order_id,
      account_id: t.accountId,
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      status: 'open',
      price: '0.7',
      base_qty: '100',
      quote_qty: '70',
      locked_base_qty: '100',
      locked_quote_qty: '0',
      executed_base_qty: '0',
      executed_quote_qty: '0',
      executed_price: '0',
      ob_open_order_base_qty: '100',
      market_order_limit_price: '0',
      slippage_bp: 0,
      commission: '0',
      commission_rate_bp: 10,
      commission_unit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
      active_order_utxo_id: `${txId(built.body.tx_hex)}#0`,
      order_execution_records: [],
    });
    expect(new Date(order.created_at).toISOString()).toBe(order.created_at);
    expect(await t.balances()).toMatchObject({
      ADA: { free: 900, locked: 100 },
      USDM: { free: 1000, locked: 0 },
    });
  });

  it('matches at the resting price with price-time priority, partial fills and commission', async () => {
    const maker1 = await funded();
    const maker2 = await funded();
    const taker = await funded();
    const a = await maker1.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 50,
      price: 0.66,
    });
    const b = await maker2.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 50,
      price: 0.66,
    });
    const c = await maker1.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 50,
      price: 0.65,
    });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const buy = await taker.place({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: 80,
      price: 0.67,
    });
    expect(buy.status).toBe(200);
    const order = buy.body.order;
    expect(order.status).toBe('fully_filled');
    // best price first (0.65), then the older order at 0.66 (a), partially
    expect(
      order.order_execution_records.map((e) => [
        e.counter_party_order_id,
        e.execution_price,
        e.filled_base_qty,
        e.role,
      ]),
    ).toEqual([
      [c.body.order.id, '0.65', '50', 'taker'],
      [a.body.order.id, '0.66', '30', 'taker'],
    ]);
    expect(order.executed_base_qty).toBe('80');
    expect(order.executed_quote_qty).toBe('52.3');
    expect(order.executed_price).toBe('0.65375');
    expect(order.commission).toBe('0.08');
    expect(order.commission_unit).toBe('lovelace');
    expect(order.locked_quote_qty).toBe('0');

    const makerView = await maker1.request<OrderRecord>(
      'GET',
      `/account/order?id=${a.body.order.id}`,
    );
    expect(makerView.body.status).toBe('partially_filled');
    expect(makerView.body.ob_open_order_base_qty).toBe('20');
    expect(makerView.body.order_execution_records[0]).toMatchObject({
      role: 'maker',
      counter_party_order_id: order.id,
      filled_quote_qty: '19.8',
      commission: '0.0198',
    });
    expect(await taker.balances()).toMatchObject({
      ADA: { free: 1079.92, locked: 0 },
      USDM: { free: 947.7, locked: 0 },
    });
    const untouched = await maker2.request<OrderRecord>(
      'GET',
      `/account/order?id=${b.body.order.id}`,
    );
    expect(untouched.body.status).toBe('open');
  });

  it('fills a market order with a slippage limit and cancels the rest', async () => {
    const maker = await funded();
    const taker = await funded();
    await maker.place({ symbol: 'ADAUSDM', side: 'sell', type: 'limit', quantity: 10, price: 0.6 });
    await maker.place({ symbol: 'ADAUSDM', side: 'sell', type: 'limit', quantity: 10, price: 0.7 });
    const r = await taker.place({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: 30,
      limit_slippage: true,
      max_slippage_basis_point: 100,
    });
    expect(r.status).toBe(200);
    expect(r.body.order).toMatchObject({
      type: 'market',
      status: 'partially_cancelled',
      executed_base_qty: '10',
      market_order_limit_price: '0.606',
      slippage_bp: 100,
      locked_quote_qty: '0',
    });
  });

  it('fills a market order without limit while the balance allows', async () => {
    const maker = await funded();
    const taker = await funded(100, 10);
    await maker.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 100,
      price: 0.5,
    });
    const r = await taker.place({ symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: 100 });
    expect(r.status).toBe(200);
    expect(r.body.order.status).toBe('partially_cancelled');
    expect(r.body.order.executed_base_qty).toBe('20');
    expect(r.body.order.executed_quote_qty).toBe('10');
    expect(r.body.order.quote_qty).toBe('10');
    expect((await taker.balances()).USDM).toEqual({ free: 0, locked: 0 });
    await maker.cancel(
      (
        await maker.request<{ data: { orders: OrderRecord[] }[] }>(
          'GET',
          '/accounts/order-records?status=open',
        )
      ).body.data[0]?.orders[0]?.id ?? '',
    );
  });

  it('cancels an open order back to the account', async () => {
    const t = await funded();
    const placed = await t.place({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: 100,
      price: 0.5,
    });
    expect((await t.balances()).USDM).toEqual({ free: 950, locked: 50 });
    const built = await t.request<{ tx_hex: string }>(
      'DELETE',
      `/order/${placed.body.order.id}/build`,
    );
    expect(built.status).toBe(200);
    const tx = decodeTx(built.body.tx_hex);
    expect(tx.body.inputs[0]).toMatchObject({
      txId: placed.body.order.active_order_utxo_id.split('#')[0],
      index: 0,
    });
    expect(tx.body.requiredExtraSignatures).toEqual([t.operation.hash]);
    const account = await call<{ exchange_address: string }>(
      sandbox.url,
      'GET',
      `/sandbox/accounts/${t.accountId}`,
    );
    // The order's token moves to the intent address under CancelOrderIntent; its funds go back.
    expect(tx.body.outputs).toHaveLength(2);
    expect(tx.body.outputs[0]?.address).toBe(EXCHANGE_ADDRESSES.intent);
    expect(tx.body.outputs[0]?.datum).toBeDefined();
    expect(tx.body.outputs[1]?.address).toBe(account.body.exchange_address);
    expect(tx.body.outputs[1]?.value.assets?.get(Cardano.AssetId(USDM_UNIT))).toBe(50_000_000n);
    expect(tx.body.mint).toBeUndefined();
    expect(tx.body.fee).toBe(0n);
    const submitted = await t.request<{ tx_hash: string }>('DELETE', '/order/submit', {
      signed_tx: t.operation.sign(built.body.tx_hex),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.tx_hash).toBe(txId(built.body.tx_hex));
    expect((await t.balances()).USDM).toEqual({ free: 1000, locked: 0 });
    const record = await t.request<{ order_json: OrderRecord }>(
      'GET',
      `/accounts/order/${placed.body.order.id}`,
    );
    expect(record.body.order_json.status).toBe('cancelled');
  });

  it('accepts a cancel build sent with a JSON content type and no body', async () => {
    const t = await funded();
    const placed = await t.place({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: 10,
      price: 0.5,
    });
    const response = await fetch(`${sandbox.url}/order/${placed.body.order.id}/build`, {
      method: 'DELETE',
      headers: { 'X-API-KEY': t.apiKey, 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { tx_hex: string }).tx_hex).toMatch(/^84a6/);
  });

  it('lists order records by status with the real page wrapper', async () => {
    const t = await funded();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.place({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: 10,
        price: 0.5 + i / 100,
      });
      ids.push(r.body.order.id);
    }
    await t.cancel(ids[0] as string);
    const open = await t.request<{
      data: { orders: OrderRecord[]; order_filling_records: unknown[] }[];
      total_count: number;
      total_page: number;
    }>('GET', '/accounts/order-records?status=open&limit=1&page=2');
    expect(open.status).toBe(200);
    expect(open.body.total_count).toBe(2);
    expect(open.body.total_page).toBe(2);
    expect(open.body.data[0]?.orders).toHaveLength(1);
    expect(open.body.data[0]?.order_filling_records).toEqual([]);
    const history = await t.request<{ data: { orders: OrderRecord[] }[]; total_count: number }>(
      'GET',
      '/accounts/order-records?status=orderHistory&symbol=ADAUSDM',
    );
    expect(history.body.data[0]?.orders.map((o) => o.id)).toEqual([ids[0]]);
    for (const status of ['openOrder', 'closed', 'tradingHistory']) {
      expect((await t.request('GET', `/accounts/order-records?status=${status}`)).status).toBe(200);
    }
  });

  it('records a market order as failed when the book emptied between build and submit', async () => {
    const own = await startTestSandbox();
    const funded = async () => {
      const t = await new Trader(own.url).register();
      await t.fund(1000, 1000);
      return t;
    };
    const maker = await funded();
    const taker = await funded();
    const ask = await maker.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 10,
      price: 0.64,
    });
    const built = await taker.request<{ order_id: string; tx_hex: string }>(
      'POST',
      '/order/build',
      {
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'market',
        quantity: 10,
      },
    );
    expect(built.status).toBe(200);
    await maker.cancel(ask.body.order.id);
    const submitted = await taker.request<{ order: OrderRecord }>('POST', '/order/submit', {
      order_id: built.body.order_id,
      signed_tx: taker.operation.sign(built.body.tx_hex),
    });
    expect(submitted.body.order.status).toBe('failed');
    expect(submitted.body.order.executed_base_qty).toBe('0');
    expect((await taker.balances()).USDM).toEqual({ free: 1000, locked: 0 });
    await own.close();
  });

  it('trades NIGHTUSDM with the 5 ADA equivalent minimum', async () => {
    const t = await new Trader(sandbox.url).register();
    const night = '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854';
    await call(sandbox.url, 'POST', '/sandbox/faucet', {
      body: {
        address: t.address,
        amount: [
          { unit: 'lovelace', quantity: '20000000' },
          { unit: night, quantity: '1000000000' },
        ],
      },
    });
    const built = await t.request<{ tx_hex: string }>('POST', '/accounts/deposit/build', {
      deposit_amount: [
        { unit: 'lovelace', quantity: '10000000' },
        { unit: night, quantity: '1000000000' },
      ],
      input_utxos: await t.utxos(),
    });
    await t.request('POST', '/accounts/deposit/submit', {
      signed_tx: t.wallet.sign(built.body.tx_hex),
    });
    // 40 NIGHT × 0.05 = 2 USDM: 4 ADA at most (ADA trades at 0.5 to 0.66 here), below the minimum
    const small = await t.request<{ code: number }>('POST', '/order/build', {
      symbol: 'NIGHTUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 40,
      price: 0.05,
    });
    expect(small.body.code).toBe(4100);
    const ok = await t.place({
      symbol: 'NIGHTUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 100,
      price: 0.05,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.order).toMatchObject({
      symbol: 'NIGHTUSDM',
      locked_base_qty: '100',
      quote_qty: '5',
    });
    expect((await t.balances()).NIGHT).toEqual({ free: 900, locked: 100 });
  });
});
