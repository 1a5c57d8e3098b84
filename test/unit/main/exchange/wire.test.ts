import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Order, serialize, type Order as OrderT } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { ExchangeClient, ExchangeError } from '../../../../src-main/exchange';
import { decodeAccountEvent } from '../../../../src-main/exchange/wire';
import { json, startFakeServer, type FakeServer } from '../../../fixtures/exchange/fake-server';
import {
  balanceEntries,
  emptyPage,
  legacyOpenRecord,
  legacyRecord,
  legacyUnfilledRecord,
  pageOf,
  seedRecord,
} from '../../../fixtures/exchange/records';

/**
 * Every shape the exchange has sent, through the client, onto the app's domain types: both
 * order-record field sets, every wrapper, balances in their variants, exact decimals.
 */

let server: FakeServer;
let answers: Record<string, unknown> = {};
let client: ExchangeClient;

beforeAll(async () => {
  server = await startFakeServer((req, res) => {
    const key = `${req.method} ${req.path}`;
    if (!(key in answers)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    json(res, 200, answers[key]);
  });
  client = new ExchangeClient({ baseUrl: server.url, apiKey: '0123456789abcdef0123456789abcdef' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  answers = {};
  server.requests.length = 0;
});

const ORDER_ID = '7f5d2a8e-6c3b-4e1f-9a2d-0b1c2d3e4f50';

/** What the trader sees of an order, as text: the same whichever field set it came in. */
const view = (o: OrderT) => serialize(o);

describe('one order record, either field set, any wrapper', () => {
  it("maps the seed's fields exactly", async () => {
    answers['GET /account/order'] = seedRecord();
    const order = await client.order(ORDER_ID);
    expect(Order.safeParse(serialize(order)).success).toBe(true);
    expect(view(order)).toEqual({
      id: ORDER_ID,
      accountId: '3c1e9b7a-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      status: 'fully_filled',
      price: '0.67',
      baseQty: '80',
      quoteQty: '53.6',
      lockedBaseQty: '0',
      lockedQuoteQty: '0',
      executedBaseQty: '80',
      executedQuoteQty: '52.3',
      executedPrice: '0.65375',
      openBaseQty: '0',
      marketOrderLimitPrice: null,
      slippageBp: 0,
      commission: '0.08',
      commissionRateBp: 10,
      commissionUnit: 'lovelace',
      activeOrderUtxoId: '9b2f4c1d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c#0',
      createdAt: '2025-03-14T09:26:53.000Z',
      updatedAt: '2025-03-14T09:26:53.000Z',
      executions: [
        {
          id: '0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a00',
          orderId: ORDER_ID,
          accountId: '3c1e9b7a-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
          counterPartyOrderId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d',
          price: '0.65',
          baseQty: '50',
          quoteQty: '32.5',
          commission: '0.05',
          commissionUnit: 'lovelace',
          role: 'taker',
          createdAt: '2025-03-14T09:26:53.000Z',
        },
        {
          id: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a11',
          orderId: ORDER_ID,
          accountId: '3c1e9b7a-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
          counterPartyOrderId: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
          price: '0.66',
          baseQty: '30',
          quoteQty: '19.8',
          commission: '0.03',
          commissionUnit: 'lovelace',
          role: 'taker',
          createdAt: '2025-03-14T09:26:53.000Z',
        },
      ],
    });
  });

  it('maps the older field set onto the same order (what it lacks stays unknown)', async () => {
    answers['GET /account/order'] = seedRecord();
    const fromSeed = view(await client.order(ORDER_ID));
    answers['GET /account/order'] = legacyRecord();
    const fromLegacy = view(await client.order(ORDER_ID));
    expect(fromLegacy).toEqual({
      ...fromSeed,
      // the older records do not carry these
      accountId: null,
      activeOrderUtxoId: null,
      commissionRateBp: null,
      executions: fromSeed.executions.map((e) => ({ ...e, accountId: null })),
    });
  });

  it('derives what an open order of the older set locks, and treats executed_price 0 as no fill', async () => {
    answers['GET /account/order'] = legacyOpenRecord();
    const sell = view(await client.order(String(legacyOpenRecord().order_id)));
    expect(sell).toMatchObject({
      status: 'partially_filled',
      side: 'sell',
      price: '0.7803',
      baseQty: '120.5',
      quoteQty: '94.02615',
      executedBaseQty: '20.5',
      executedQuoteQty: '15.99615',
      executedPrice: '0.7803',
      lockedBaseQty: '100',
      lockedQuoteQty: '0',
      openBaseQty: '100',
      commission: '0.0159961',
      updatedAt: '2025-03-14T09:29:20.000Z',
      executions: [{ role: 'maker', baseQty: '20.5', price: '0.7803' }],
    });
    answers['GET /account/order'] = legacyUnfilledRecord();
    const buy = view(await client.order(String(legacyUnfilledRecord().order_id)));
    expect(buy).toMatchObject({
      price: '0.07',
      executedPrice: null,
      executedQuoteQty: '0',
      lockedQuoteQty: '7',
      lockedBaseQty: '0',
      openBaseQty: '100',
      executions: [],
    });
  });

  it.each([
    ['bare', (r: unknown) => r],
    ['{order}', (r: unknown) => ({ order: r })],
    ['{order_json} object', (r: unknown) => ({ order_json: r })],
    ['{order_json} text', (r: unknown) => ({ order_json: JSON.stringify(r) })],
  ])('unwraps %s, in both field sets', async (_name, wrap) => {
    for (const record of [seedRecord(), legacyRecord()]) {
      answers['POST /order/submit'] = wrap(record);
      const order = await client.submitOrder({ orderId: ORDER_ID, signedTx: '84a0a0f5f6' });
      expect(order.id).toBe(ORDER_ID);
      expect(order.executions).toHaveLength(2);
    }
  });

  it('reads one order at GET /accounts/order/<id> when the seed route is missing, then stays there', async () => {
    answers[`GET /accounts/order/${ORDER_ID}`] = { order_json: legacyRecord() };
    const other = new ExchangeClient({
      baseUrl: server.url,
      apiKey: '0123456789abcdef0123456789abcdef',
    });
    expect((await other.order(ORDER_ID)).baseQty.toFixed()).toBe('80');
    expect((await other.order(ORDER_ID)).baseQty.toFixed()).toBe('80');
    await other.close();
    expect(server.requests.map((r) => r.path)).toEqual([
      '/account/order',
      `/accounts/order/${ORDER_ID}`,
      `/accounts/order/${ORDER_ID}`,
    ]);
  });

  it('ignores unknown extra fields and accepts statuses written otherwise', async () => {
    answers['GET /account/order'] = {
      ...seedRecord(),
      status: 'PartiallyFilled',
      side: 'BUY',
      future_field: { nested: [1, 2, 3] },
      __proto__: { polluted: true },
    };
    const order = await client.order(ORDER_ID);
    expect(order.status).toBe('partially_filled');
    expect(order.side).toBe('buy');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a prototype name where a status, side or kind is expected', async () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const field of ['status', 'side', 'type']) {
        answers['GET /account/order'] = { ...seedRecord(), [field]: word };
        const error = await client.order(ORDER_ID).catch((e: unknown) => e);
        expect(error, `${field}=${word}`).toBeInstanceOf(ExchangeError);
        expect((error as ExchangeError).message).toMatch(new RegExp(`\`${field}\``));
      }
      expect(
        decodeAccountEvent({ sub_type: word }, { endpoint: 'stream', action: 'test' }),
      ).toBeNull();
    }
  });

  it('names the field and the endpoint when one is wrong or missing', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...seedRecord(), price: 'twelve' }, /`price`: not a decimal number \("twelve"\)/],
      [{ ...seedRecord(), executed_base_qty: '-1' }, /`executed_base_qty`: must not be negative/],
      [{ ...seedRecord(), status: 'exploded' }, /`status`/],
      [
        { ...seedRecord(), commission_rate_bp: -10 },
        /`commission_rate_bp`: not a whole number of basis points from 0 to 10000 \(-10\)/,
      ],
      [{ ...seedRecord(), slippage_bp: '10001' }, /`slippage_bp`: not a whole number of basis/],
      [{ ...seedRecord(), slippage_bp: 2.5 }, /`slippage_bp`: not a whole number of basis/],
      [{ ...seedRecord(), created_at: 'yesterday' }, /`created_at`: not a time/],
      [{ ...seedRecord(), price: undefined }, /`price` is missing \(a limit order has a price\)/],
      [
        {
          ...legacyRecord(),
          fills: [{ ...(legacyRecord().fills as object[])[0], filled_amount: undefined }],
        },
        /`fills\[0\]\.filled_amount` is missing/,
      ],
      [{ ...legacyRecord(), orig_qty: undefined, order_id: ORDER_ID }, /`orig_qty` is missing/],
    ];
    for (const [record, message] of cases) {
      answers['GET /account/order'] = record;
      const error = await client.order(ORDER_ID).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExchangeError);
      expect((error as ExchangeError).message).toMatch(message);
      expect((error as ExchangeError).message).toMatch(/\(GET \/account\/order\)/);
    }
  });
});

describe('pages of order records', () => {
  it('reads the paged wrapper with both field sets and the totals', async () => {
    answers['GET /accounts/order-records'] = pageOf(5, 23, 5);
    const page = await client.orderRecords({
      status: 'openOrder',
      page: 2,
      limit: 5,
      symbol: 'ADAUSDM',
    });
    expect(page).toMatchObject({ page: 2, limit: 5, totalCount: 23, totalPages: 5 });
    expect(page.orders.map((o) => o.status)).toEqual([
      'fully_filled',
      'partially_filled',
      'fully_filled',
      'partially_filled',
      'fully_filled',
    ]);
    const query = server.requests[0]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({
      status: 'openOrder',
      page: '2',
      limit: '5',
      symbol: 'ADAUSDM',
    });
  });

  it('reads an empty page, a bare list, and names a bad record by its place', async () => {
    answers['GET /accounts/order-records'] = emptyPage();
    expect(await client.orderRecords({ status: 'open' })).toEqual({
      orders: [],
      page: 1,
      limit: 10,
      totalCount: 0,
      totalPages: 0,
    });
    answers['GET /accounts/order-records'] = [seedRecord(), legacyOpenRecord()];
    expect((await client.orderRecords({ status: 'open' })).orders).toHaveLength(2);
    const bad = pageOf(3);
    (bad.data[0]?.orders[2] as Record<string, unknown>).base_qty = undefined;
    answers['GET /accounts/order-records'] = bad;
    await expect(client.orderRecords({ status: 'open' })).rejects.toThrow(
      /`data\[0\]\.orders\[2\]\.base_qty` is missing/,
    );
  });
});

describe('balances', () => {
  it('takes numbers or strings, any letter case, and gives ADA the unit lovelace', async () => {
    answers['GET /accounts/balance'] = balanceEntries();
    expect(serialize(await client.balances())).toEqual([
      { asset: 'ADA', unit: 'lovelace', free: '1000.123456', locked: '0.1' },
      {
        asset: 'USDM',
        unit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
        free: '12.5',
        locked: '3.2',
      },
    ]);
  });

  it('keeps JSON numbers exact: their shortest decimal, never the float behind them', async () => {
    answers['GET /accounts/balance'] =
      '[{"asset":"ADA","asset_unit":"","free":0.1,"locked":1e-7},{"asset":"USDM","asset_unit":"ab","free":123456789.123456,"locked":0.30000000000000004}]';
    const [ada, usdm] = await client.balances();
    expect(ada?.free.toFixed()).toBe('0.1');
    expect(ada?.locked.toFixed()).toBe('0.0000001');
    expect(usdm?.free.toFixed()).toBe('123456789.123456');
    expect(usdm?.locked.toFixed()).toBe('0.30000000000000004');
    expect(ada?.free.plus(new Money('0.2')).toFixed()).toBe('0.3');
  });
});

describe('market data and builds', () => {
  it('reads price, depth (best first), candles and trades', async () => {
    answers['GET /market/market-price'] = { price: 0.6388 };
    answers['GET /market/depth'] = {
      timestamp: 1741944413000,
      bids: [
        { price: 0.195, quantity: 30 },
        { price: 0.2, quantity: 1 },
      ],
      asks: [
        { price: 0.31, quantity: '2.5' },
        { price: 0.3, quantity: 4 },
      ],
    };
    answers['GET /market/graph/ADAUSDM'] = [
      { t: 1741944600, s: 'ADAUSDM', o: 0.65, h: 0.7, l: 0.6, c: 0.68, v: 1200.5 },
      { t: 1741944300, s: 'ADAUSDM', o: 0.6, h: 0.66, l: 0.59, c: 0.65, v: 10 },
    ];
    answers['GET /market/recent-trades'] = [
      {
        timestamp: '2025-03-14T09:26:53Z',
        symbol: 'ADAUSDM',
        side: 'sell',
        price: 0.7803,
        amount: 4.6,
      },
    ];
    expect((await client.marketPrice('ADAUSDM')).toFixed()).toBe('0.6388');
    expect(serialize(await client.depth('ADAUSDM'))).toEqual({
      symbol: 'ADAUSDM',
      timestamp: 1741944413000,
      bids: [
        { price: '0.2', quantity: '1' },
        { price: '0.195', quantity: '30' },
      ],
      asks: [
        { price: '0.3', quantity: '4' },
        { price: '0.31', quantity: '2.5' },
      ],
    });
    const candles = serialize(await client.candles('ADAUSDM', '5m', 1741944000, 1741945000));
    expect(candles.map((c) => c.time)).toEqual([1741944300, 1741944600]);
    expect(candles[1]).toEqual({
      time: 1741944600,
      open: '0.65',
      high: '0.7',
      low: '0.6',
      close: '0.68',
      volume: '1200.5',
    });
    expect(Object.fromEntries(server.hits('/market/graph/ADAUSDM')[0]?.query ?? [])).toEqual({
      interval: '5m',
      start: '1741944000',
      end: '1741945000',
    });
    expect(serialize(await client.recentTrades('ADAUSDM', 50))).toEqual([
      {
        timestamp: '2025-03-14T09:26:53.000Z',
        symbol: 'ADAUSDM',
        side: 'sell',
        price: '0.7803',
        amount: '4.6',
      },
    ]);
  });

  it('writes the order request with exact number literals, never through a float', async () => {
    answers['POST /order/build'] = { order_id: ORDER_ID, tx_hex: '84A400' };
    const built = await client.buildOrder({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: new Money('0.1').plus(new Money('0.2')),
      price: new Money('123456789.123456789123456789'),
      postOnly: true,
    });
    expect(built).toEqual({ orderId: ORDER_ID, txHex: '84a400' });
    expect(server.requests[0]?.body).toBe(
      '{"symbol":"ADAUSDM","side":"buy","type":"limit","quantity":0.3,"price":123456789.123456789123456789,"post_only":true}',
    );
    await client.buildOrder({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'market',
      quantity: new Money('5'),
      slippageBp: 150,
    });
    expect(JSON.parse(server.requests[1]?.body ?? '')).toEqual({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'market',
      quantity: 5,
      limit_slippage: true,
      max_slippage_basis_point: 150,
    });
    await client.buildOrder({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: new Money('5'),
    });
    expect(JSON.parse(server.requests[2]?.body ?? '')).toMatchObject({ limit_slippage: false });
    expect(server.requests[0]?.headers['x-api-key']).toBe('0123456789abcdef0123456789abcdef');
  });

  it('refuses a bad request before sending it', async () => {
    const q = new Money('1');
    await expect(
      client.buildOrder({ symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: q }),
    ).rejects.toThrow(/price must be a number greater than 0/);
    await expect(
      client.buildOrder({ symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: new Money(0) }),
    ).rejects.toThrow(/quantity must be a number greater than 0/);
    await expect(
      client.buildOrder({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'market',
        quantity: q,
        slippageBp: 10_001,
      }),
    ).rejects.toThrow(/0 to 10000/);
    await expect(client.buildCancel('../accounts/balance')).rejects.toThrow(/not a valid order id/);
    await expect(client.submitCancel('not hex')).rejects.toThrow(/not hexadecimal/);
    await expect(
      client.buildDeposit({ amounts: [{ unit: 'lovelace', quantity: 0n }], inputUtxos: [] }),
    ).rejects.toThrow(/positive whole number/);
    expect(server.requests).toHaveLength(0);
  });

  it('sends deposit and withdrawal amounts as integer strings in the smallest unit', async () => {
    answers['POST /accounts/deposit/build'] = { tx_hex: 'aa' };
    answers['POST /accounts/withdrawal/build'] = { tx_hex: 'bb' };
    answers['DELETE /order/submit'] = {};
    const utxo = {
      input: { tx_hash: 'ab'.repeat(32), output_index: 1 },
      output: {
        address:
          'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj',
        amount: [{ unit: 'lovelace', quantity: '12000000000000000000' }],
        data_hash: null,
        plutus_data: null,
        script_ref: null,
        script_hash: null,
      },
    };
    await client.buildDeposit({
      amounts: [{ unit: 'lovelace', quantity: 9_007_199_254_740_993n }],
      inputUtxos: [utxo],
    });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      deposit_amount: [{ unit: 'lovelace', quantity: '9007199254740993' }],
      input_utxos: [utxo],
    });
    await client.buildWithdrawal({ amounts: [{ unit: 'lovelace', quantity: 2_000_000n }] });
    expect(JSON.parse(server.requests[1]?.body ?? '')).toEqual({
      withdrawal_amount: [{ unit: 'lovelace', quantity: '2000000' }],
    });
    expect(await client.submitCancel('84a0')).toEqual({ txHash: null });
  });

  it('operation key: the encrypted blob, or a clear word that the account has none', async () => {
    answers['GET /accounts/operation-key'] = {
      encrypted_operation_key: '{"iv":"AAAA","salt":"BBBB","ciphertext":"CCCC"}',
      operation_key_hash: 'AB'.repeat(28),
    };
    expect(await client.operationKey()).toEqual({
      encryptedOperationKey: '{"iv":"AAAA","salt":"BBBB","ciphertext":"CCCC"}',
      operationKeyHash: 'ab'.repeat(28),
    });
    answers['GET /accounts/operation-key'] = {
      encrypted_operation_key: '',
      operation_key_hash: '',
    };
    await expect(client.operationKey()).rejects.toMatchObject({
      exchangeCode: 4406,
      message: expect.stringMatching(/^This account has no operation key: /),
    });
  });
});
