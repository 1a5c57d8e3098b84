import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  readyCrypto,
  startTestSandbox,
  type OrderRecord,
  type TestSandbox,
} from './helpers.js';

let sandbox: TestSandbox;
let trader: Trader;

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox({ rules: { maxOpenOrders: 3 } });
  trader = await new Trader(sandbox.url).register();
  await trader.fund(2000, 2000);
});
afterAll(() => sandbox.close());

const limit = (over: Record<string, unknown>) => ({
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  quantity: 10,
  price: 0.6,
  ...over,
});

async function buildError(body: Record<string, unknown>, who = trader) {
  const r = await who.request<{ error: string; code: number }>('POST', '/order/build', body);
  return { status: r.status, code: r.body.code, error: r.body.error };
}

describe('order build refusals carry the real codes', () => {
  it.each([
    ['4000 missing field', { symbol: 'ADAUSDM', side: 'buy', type: 'limit' }, 4000],
    ['4000 unknown side', limit({ side: 'hold' }), 4000],
    ['4000 quantity as string', limit({ quantity: '10' }), 4000],
    ['4000 limit without price', limit({ price: undefined }), 4000],
    ['4050 insufficient balance', limit({ quantity: 100000, price: 0.6 }), 4050],
    ['4100 below 5 ADA', limit({ quantity: 4.9999 }), 4100],
    ['4101 price zero', limit({ price: 0 }), 4101],
    ['4101 price negative', limit({ price: -1 }), 4101],
    ['4102 price precision', limit({ price: 0.60001 }), 4102],
    ['4103 quantity precision', limit({ quantity: 10.00001 }), 4103],
    [
      '4105 post-only market',
      { symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: 10, post_only: true },
      4105,
    ],
    ['4106 unknown symbol', limit({ symbol: 'BTCUSDM' }), 4106],
    ['4107 quantity zero', limit({ quantity: 0 }), 4107],
    [
      '4109 no liquidity',
      { symbol: 'NIGHTUSDM', side: 'buy', type: 'market', quantity: 1000 },
      4109,
    ],
    ['4111 above band', limit({ price: 0.99 }), 4111],
    ['4112 below band', limit({ price: 0.3 }), 4112],
  ])('%s', async (_name, body, code) => {
    const r = await buildError(body);
    expect(r.code).toBe(code);
    expect(r.status).toBe(400);
    expect(typeof r.error).toBe('string');
  });

  it('4104 post-only that would match, 4108 slippage out of range', async () => {
    const maker = await new Trader(sandbox.url).register();
    await maker.fund(100, 0);
    const ask = await maker.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 10,
      price: 0.62,
    });
    expect(ask.status).toBe(200);
    expect((await buildError(limit({ price: 0.62, post_only: true }))).code).toBe(4104);
    const ok = await trader.request(
      'POST',
      '/order/build',
      limit({ price: 0.61, post_only: true }),
    );
    expect(ok.status).toBe(200);
    const market = {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: 10,
      limit_slippage: true,
    };
    expect((await buildError({ ...market, max_slippage_basis_point: 10001 })).code).toBe(4108);
    expect((await buildError({ ...market, max_slippage_basis_point: -1 })).code).toBe(4108);
    expect((await buildError(market)).code).toBe(4000);
    await maker.cancel(ask.body.order.id);
  });

  it('4110 too many open orders', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    for (let i = 0; i < 3; i++) expect((await t.place(limit({ price: 0.5 }))).status).toBe(200);
    expect((await buildError(limit({ price: 0.5 }), t)).code).toBe(4110);
  });

  it('4406 account without an operation key', async () => {
    const t = await new Trader(sandbox.url).register(false);
    expect((await buildError(limit({}), t)).code).toBe(4406);
  });
});

describe('order lookups and cancels', () => {
  it('4200 unknown order, 4000 malformed id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/account/order?id=${unknown}`, `/accounts/order/${unknown}`]) {
      const r = await trader.request<{ code: number }>('GET', path);
      expect(r.body.code).toBe(4200);
    }
    expect(
      (await trader.request<{ code: number }>('DELETE', `/order/${unknown}/build`)).body.code,
    ).toBe(4200);
    expect(
      (await trader.request<{ code: number }>('GET', '/account/order?id=nope')).body.code,
    ).toBe(4000);
    expect((await trader.request<{ code: number }>('GET', '/account/order')).body.code).toBe(4000);
  });

  it("4200 for another account's order", async () => {
    const other = await new Trader(sandbox.url).register();
    await other.fund(100, 100);
    const placed = await other.place(limit({ price: 0.5 }));
    const r = await trader.request<{ code: number }>(
      'GET',
      `/account/order?id=${placed.body.order.id}`,
    );
    expect(r.body.code).toBe(4200);
  });

  it('4201 cancel of an order that is not open; 4202 when it closed after the cancel was built', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    const placed = await t.place(limit({ price: 0.5 }));
    expect((await t.cancel(placed.body.order.id)).status).toBe(200);
    const again = await t.request<{ code: number }>(
      'DELETE',
      `/order/${placed.body.order.id}/build`,
    );
    expect(again.body.code).toBe(4201);

    const resting = await t.place(limit({ price: 0.64, quantity: 10 }));
    const cancelBuilt = await t.request<{ tx_hex: string }>(
      'DELETE',
      `/order/${resting.body.order.id}/build`,
    );
    const taker = await new Trader(sandbox.url).register();
    await taker.fund(100, 0);
    const hit = await taker.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'market',
      quantity: 10,
    });
    expect(hit.body.order.status).toBe('fully_filled');
    const late = await t.request<{ code: number }>('DELETE', '/order/submit', {
      signed_tx: t.operation.sign(cancelBuilt.body.tx_hex),
    });
    expect(late.body.code).toBe(4202);
    const record = await t.request<OrderRecord>(
      'GET',
      `/account/order?id=${resting.body.order.id}`,
    );
    expect(record.body.status).toBe('fully_filled');
  });

  it('4404 invalid status filter, 4000 bad page, 4106 bad symbol', async () => {
    for (const q of ['status=bogus', '']) {
      expect(
        (await trader.request<{ code: number }>('GET', `/accounts/order-records?${q}`)).body.code,
      ).toBe(4404);
    }
    expect(
      (await trader.request<{ code: number }>('GET', '/accounts/order-records?status=open&page=0'))
        .body.code,
    ).toBe(4000);
    expect(
      (
        await trader.request<{ code: number }>(
          'GET',
          '/accounts/order-records?status=open&limit=251',
        )
      ).body.code,
    ).toBe(4000);
    expect(
      (
        await trader.request<{ code: number }>(
          'GET',
          '/accounts/order-records?status=open&symbol=X',
        )
      ).body.code,
    ).toBe(4106);
  });
});
