import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  USDM_UNIT,
  call,
  readyCrypto,
  startTestSandbox,
  type TestSandbox,
} from './helpers.js';

let sandbox: TestSandbox;

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const MAINNET =
  'addr1qyy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sdn8p3d';
const TESTNET =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';

describe('sandbox-only endpoints', () => {
  it('registers accounts and refuses bad addresses and key hashes', async () => {
    const ok = await call<{ api_key: string; account_id: string }>(
      sandbox.url,
      'POST',
      '/sandbox/accounts',
      {
        body: { address: TESTNET, operation_key_hash: 'ab'.repeat(28) },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.api_key).toMatch(/^[0-9a-f]{32}$/);
    expect(ok.body.account_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const lookup = await call<{ address: string; operation_key_hash: string }>(
      sandbox.url,
      'GET',
      `/sandbox/accounts/${ok.body.account_id}`,
    );
    expect(lookup.body).toMatchObject({ address: TESTNET, operation_key_hash: 'ab'.repeat(28) });
    for (const body of [
      { address: MAINNET, operation_key_hash: 'ab'.repeat(28) },
      { address: 'not-an-address' },
      { address: TESTNET, operation_key_hash: 'ab' },
      {},
    ]) {
      const r = await call<{ code: number }>(sandbox.url, 'POST', '/sandbox/accounts', { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(4000);
    }
    const missing = await call<{ code: number }>(
      sandbox.url,
      'GET',
      '/sandbox/accounts/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.body.code).toBe(4400);
  });

  it('faucet pays test ADA and USDM as a new UTxO in the input-UTxO shape', async () => {
    const paid = await call<{
      input: { tx_hash: string; output_index: number };
      output: { address: string; amount: unknown[] };
    }>(sandbox.url, 'POST', '/sandbox/faucet', { body: { address: TESTNET } });
    expect(paid.status).toBe(200);
    expect(paid.body.input.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(paid.body.output).toEqual({
      address: TESTNET,
      amount: [
        { unit: 'lovelace', quantity: '10000000000' },
        { unit: USDM_UNIT, quantity: '10000000000' },
      ],
      data_hash: null,
      plutus_data: null,
      script_ref: null,
      script_hash: null,
    });
    const utxos = await call<unknown[]>(sandbox.url, 'GET', `/sandbox/utxos?address=${TESTNET}`);
    expect(utxos.body).toContainEqual(paid.body);
    for (const body of [
      { address: MAINNET },
      { address: TESTNET, amount: [{ unit: 'lovelace', quantity: '1000000000001' }] },
      { address: TESTNET, amount: [{ unit: 'abc', quantity: '1' }] },
      { address: TESTNET, amount: [{ unit: 'lovelace', quantity: '-1' }] },
    ]) {
      expect(
        (await call<{ code: number }>(sandbox.url, 'POST', '/sandbox/faucet', { body })).body.code,
      ).toBe(4000);
    }
    expect((await call<{ code: number }>(sandbox.url, 'GET', '/sandbox/utxos')).body.code).toBe(
      4000,
    );
  });

  it('describes the network', async () => {
    const r = await call<Record<string, unknown>>(sandbox.url, 'GET', '/sandbox/network');
    expect(r.body).toMatchObject({
      network_id: 0,
      commission_rate_bp: 10,
      markets: [{ symbol: 'ADAUSDM' }, { symbol: 'NIGHTUSDM' }],
      intent_policy_id: expect.stringMatching(/^[0-9a-f]{56}$/),
      addresses: {
        intent: expect.stringMatching(/^addr_test1w/),
        deposit: expect.stringMatching(/^addr_test1w/),
        treasury: expect.stringMatching(/^addr_test1w/),
      },
    });
  });

  it('locks trading (5002) and injects failures (5000, 5001)', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    const order = { symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 10, price: 0.6 };
    const built = await t.request<{ order_id: string; tx_hex: string }>(
      'POST',
      '/order/build',
      order,
    );
    await call(sandbox.url, 'POST', '/sandbox/trading-lock', { body: { locked: true } });
    const locked = await t.request<{ code: number }>('POST', '/order/build', order);
    expect(locked.body.code).toBe(5002);
    const lockedSubmit = await t.request<{ code: number }>('POST', '/order/submit', {
      order_id: built.body.order_id,
      signed_tx: t.operation.sign(built.body.tx_hex),
    });
    expect(lockedSubmit.body.code).toBe(5002);
    await call(sandbox.url, 'POST', '/sandbox/trading-lock', { body: { locked: false } });
    expect(
      (
        await t.request('POST', '/order/submit', {
          order_id: built.body.order_id,
          signed_tx: t.operation.sign(built.body.tx_hex),
        })
      ).status,
    ).toBe(200);

    await call(sandbox.url, 'POST', '/sandbox/fail-next', { body: { code: 5000, count: 1 } });
    const r5000 = await t.request<{ code: number }>('GET', '/accounts/balance');
    expect([r5000.status, r5000.body.code]).toEqual([500, 5000]);
    await call(sandbox.url, 'POST', '/sandbox/fail-next', { body: { code: 5001 } });
    const r5001 = await t.request<{ code: number }>('GET', '/accounts/balance');
    expect([r5001.status, r5001.body.code]).toEqual([503, 5001]);
    expect((await t.request('GET', '/accounts/balance')).status).toBe(200);
  });

  it('reset wipes every account', async () => {
    const own = await startTestSandbox();
    try {
      const t = await new Trader(own.url).register();
      expect((await t.request('GET', '/accounts/balance')).status).toBe(200);
      expect((await call(own.url, 'POST', '/sandbox/reset')).body).toEqual({});
      const after = await t.request<{ code: number }>('GET', '/accounts/balance');
      expect([after.status, after.body.code]).toEqual([401, 4010]);
      expect(
        (await call<unknown[]>(own.url, 'GET', `/sandbox/utxos?address=${t.address}`)).body,
      ).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('the HTTP shell', () => {
  it('accepts x-api-key in any letter case and refuses a missing or unknown key with 4010', async () => {
    const t = await new Trader(sandbox.url).register();
    for (const name of ['x-api-key', 'X-API-KEY', 'X-API-key']) {
      const r = await call(sandbox.url, 'GET', '/accounts/balance', {
        headers: { [name]: t.apiKey },
      });
      expect(r.status).toBe(200);
    }
    expect(
      (await call(sandbox.url, 'GET', '/accounts/balance', { key: t.apiKey.toUpperCase() })).status,
    ).toBe(200);
    for (const key of [undefined, '', '0'.repeat(32)]) {
      const r = await call<{ code: number; error: string }>(
        sandbox.url,
        'GET',
        '/accounts/balance',
        { key },
      );
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'unauthorized', code: 4010 });
    }
    expect(
      (await call<{ code: number }>(sandbox.url, 'POST', '/order/build', { body: {} })).body.code,
    ).toBe(4010);
  });

  it('answers unknown routes with the plain-text 404', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/order/build/x'],
      ['GET', '/accounts/order-records/1'],
    ]) {
      const r = await call(sandbox.url, method as string, path as string);
      expect(r.status).toBe(404);
      expect(r.text).toBe('404 page not found');
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    }
  });

  it('maps malformed JSON and schema errors to 4000', async () => {
    const t = await new Trader(sandbox.url).register();
    const bad = await fetch(`${sandbox.url}/order/build`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: '{"symbol":',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: number }).code).toBe(4000);
    const extra = await t.request<{ code: number; error: string }>('POST', '/order/build', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: 10,
      price: 0.6,
      colour: 'red',
    });
    expect(extra.body.code).toBe(4000);
    expect(extra.body.error).toMatch(/invalid request data/);
  });

  it('balance lists every asset with free and locked as numbers; ADA unit empty', async () => {
    const t = await new Trader(sandbox.url).register();
    const r = await t.request('GET', '/accounts/balance');
    expect(r.body).toEqual([
      { asset: 'ADA', asset_unit: '', free: 0, locked: 0 },
      { asset: 'USDM', asset_unit: USDM_UNIT, free: 0, locked: 0 },
      { asset: 'NIGHT', asset_unit: expect.stringMatching(/^[0-9a-f]+$/), free: 0, locked: 0 },
    ]);
  });

  it('limits the request rate per key with the X-Ratelimit headers and 429 / 4290', async () => {
    const limited = await startTestSandbox({ rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const t = await new Trader(limited.url).register();
      const other = await new Trader(limited.url).register();
      const seen: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await t.request('GET', '/accounts/balance');
        expect(r.status).toBe(200);
        expect(r.headers.get('x-ratelimit-limit')).toBe('3');
        seen.push(Number(r.headers.get('x-ratelimit-remaining')));
        expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      }
      expect(seen).toEqual([2, 1, 0]);
      const over = await t.request<{ code: number }>('GET', '/accounts/balance');
      expect([over.status, over.body.code]).toEqual([429, 4290]);
      expect((await other.request('GET', '/accounts/balance')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('market data', () => {
  it('serves market price, depth, candles and recent trades', async () => {
    const own = await startTestSandbox();
    try {
      const maker = await new Trader(own.url).register();
      const taker = await new Trader(own.url).register();
      await maker.fund(1000, 1000);
      await taker.fund(1000, 1000);
      const price0 = await call<{ price: number }>(
        own.url,
        'GET',
        '/market/market-price?symbol=ADAUSDM',
      );
      expect(price0.body).toEqual({ price: 0.65 });
      await maker.place({
        symbol: 'ADAUSDM',
        side: 'sell',
        type: 'limit',
        quantity: 100,
        price: 0.66,
      });
      await maker.place({
        symbol: 'ADAUSDM',
        side: 'sell',
        type: 'limit',
        quantity: 50,
        price: 0.66,
      });
      await maker.place({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: 20,
        price: 0.6,
      });
      const depth = await call<{ timestamp: number; bids: unknown[]; asks: unknown[] }>(
        own.url,
        'GET',
        '/market/depth?symbol=ADAUSDM',
      );
      expect(depth.body.bids).toEqual([{ price: 0.6, quantity: 20 }]);
      expect(depth.body.asks).toEqual([{ price: 0.66, quantity: 150 }]);
      expect(depth.body.timestamp).toBeGreaterThan(1_700_000_000_000);
      await taker.place({ symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: 30 });
      expect((await call(own.url, 'GET', '/market/market-price?symbol=ADAUSDM')).body).toEqual({
        price: 0.66,
      });
      const trades = await call(own.url, 'GET', '/market/recent-trades?symbol=ADAUSDM');
      expect(trades.body).toEqual([
        { timestamp: expect.any(String), symbol: 'ADAUSDM', side: 'buy', price: 0.66, amount: 30 },
      ]);
      const candles = await call<{ t: number }[]>(
        own.url,
        'GET',
        '/market/graph/ADAUSDM?interval=5m',
      );
      expect(candles.body).toEqual([
        { t: expect.any(Number), s: 'ADAUSDM', o: 0.66, h: 0.66, l: 0.66, c: 0.66, v: 30 },
      ]);
      expect((candles.body[0]?.t ?? 1) % 300).toBe(0);
      expect(
        (await call<{ code: number }>(own.url, 'GET', '/market/graph/ADAUSDM?interval=7m')).body
          .code,
      ).toBe(4000);
      for (const path of [
        '/market/depth?symbol=X',
        '/market/market-price',
        '/market/recent-trades?symbol=ada',
        '/market/graph/X',
      ]) {
        expect((await call<{ code: number }>(own.url, 'GET', path)).body.code).toBe(4106);
      }
    } finally {
      await own.close();
    }
  });

  it('the market maker requotes often while traders are active and once a minute when idle', async () => {
    const own = await startTestSandbox({ marketMaker: true, marketMakerIntervalMs: 20 });
    const requotes = () =>
      readFileSync(join(own.dataDir, 'journal.ndjson'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"t":"marketMaker"')).length;
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(requotes()).toBe(1);
      await new Trader(own.url).register();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(requotes()).toBeGreaterThan(5);
    } finally {
      await own.close();
    }
  });

  it('the market maker keeps a book on both markets', async () => {
    const own = await startTestSandbox({ marketMaker: true, marketMakerIntervalMs: 50 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const symbol of ['ADAUSDM', 'NIGHTUSDM']) {
        const depth = await call<{ bids: { price: number }[]; asks: { price: number }[] }>(
          own.url,
          'GET',
          `/market/depth?symbol=${symbol}`,
        );
        expect(depth.body.bids).toHaveLength(30);
        expect(depth.body.asks).toHaveLength(30);
        expect((depth.body.bids[0]?.price ?? 1) < (depth.body.asks[0]?.price ?? 0)).toBe(true);
      }
      const t = await new Trader(own.url).register();
      await t.fund(100, 100);
      const r = await t.place({ symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: 10 });
      expect(r.body.order.status).toBe('fully_filled');
      expect(r.body.order.order_execution_records[0]?.role).toBe('taker');
    } finally {
      await own.close();
    }
  });
});
