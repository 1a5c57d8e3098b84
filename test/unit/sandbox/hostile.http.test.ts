import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  Trader,
  USDM_UNIT,
  call,
  readyCrypto,
  startTestSandbox,
  type TestSandbox,
} from './helpers.js';

/**
 * The sandbox as a hostile program or web page on the same machine would try it: requests to
 * every route and stream addressed by another name (DNS rebinding), sent by a web page (an
 * Origin, a cross-site fetch), admin routes without the per-run token, and every parameter of
 * every route set to the names of Object.prototype.
 */

let sandbox: TestSandbox;
let trader: Trader;
let port: number;

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox();
  port = Number(new URL(sandbox.url).port);
  trader = await new Trader(sandbox.url).register();
  await trader.fund(1000, 1000);
});
afterAll(() => sandbox.close());

interface RawReply {
  status: number;
  text: string;
}

/** One request with exactly the headers given (Host included), as a raw client can send. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Every route with a request that the sandbox would otherwise serve (or refuse on its merits). */
function sample(method: string, path: string): { path: string; body?: string } {
  const filled = path
    .replace(':id', '00000000-0000-4000-8000-000000000000')
    .replace(':symbol', 'ADAUSDM');
  const query: Record<string, string> = {
    '/market/market-price': '?symbol=ADAUSDM',
    '/market/depth': '?symbol=ADAUSDM',
    '/market/recent-trades': '?symbol=ADAUSDM',
    '/accounts/order-records': '?status=open',
    '/sandbox/utxos': `?address=${trader.address}`,
  };
  const bodies: Record<string, unknown> = {
    'POST /sandbox/accounts': { address: trader.address },
    'POST /sandbox/faucet': { address: trader.address },
    'POST /sandbox/trading-lock': { locked: true },
    'POST /sandbox/fail-next': { code: 5000, count: 1000 },
    'POST /sandbox/reset': {},
  };
  const body = bodies[`${method} ${path}`];
  return {
    path: filled + (query[path] ?? ''),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/** The trader's account is still there and trading is not locked: nothing was served. */
async function untouched(): Promise<void> {
  const lookup = await call(sandbox.url, 'GET', `/sandbox/accounts/${trader.accountId}`);
  expect(lookup.status).toBe(200);
  const balance = await trader.request('GET', '/accounts/balance');
  expect(balance.status).toBe(200);
  const order = await trader.request<{ code: number }>('POST', '/order/build', {
    symbol: 'ADAUSDM',
    side: 'buy',
    type: 'limit',
    quantity: 10,
    price: 0.5,
  });
  expect(order.status).toBe(200);
}

describe('no open door on loopback', () => {
  it('serves only its exact host: another name, port or a rebound DNS name gets 403 on every route', async () => {
    const hosts = [
      `localhost:${port}`,
      `attacker.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `127.0.0.1:${port}.attacker.example`,
      `[::1]:${port}`,
    ];
    let served = 0;
    for (const route of sandbox.routes) {
      const { path, body } = sample(route.method, route.path);
      for (const host of hosts) {
        const headers: Record<string, string> = {
          host,
          'x-api-key': trader.apiKey,
          'x-sandbox-token': sandbox.adminToken,
        };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const r = await raw(route.method, path, headers, body);
        if (r.status !== 403) served++;
        expect(r.status, `${route.method} ${path} Host ${host}`).toBe(403);
        expect(JSON.parse(r.text)).toMatchObject({ code: 4030 });
      }
    }
    expect(served).toBe(0);
    await untouched();
  });

  it('refuses anything a web page sends: an Origin (even "null"), a cross-site fetch, a text/plain form post', async () => {
    const host = `127.0.0.1:${port}`;
    const pages: Record<string, string>[] = [
      { origin: 'https://attacker.example' },
      { origin: 'null' },
      { origin: `http://${host}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-origin' },
    ];
    for (const route of sandbox.routes) {
      const { path, body } = sample(route.method, route.path);
      for (const page of pages) {
        for (const contentType of ['application/json', 'text/plain']) {
          const r = await raw(
            route.method,
            path,
            {
              host,
              'content-type': contentType,
              'x-api-key': trader.apiKey,
              'x-sandbox-token': sandbox.adminToken,
              ...page,
            },
            body,
          );
          expect(r.status, `${route.method} ${path} ${JSON.stringify(page)}`).toBe(403);
        }
      }
    }
    await untouched();
  });

  it('admin routes need the per-run token, however the path is spelled', async () => {
    const host = `127.0.0.1:${port}`;
    const admin = sandbox.routes.filter((r) => r.path.startsWith('/sandbox/'));
    expect(admin.length).toBeGreaterThanOrEqual(8);
    const wrong = [
      undefined,
      '',
      'x',
      sandbox.adminToken.slice(1),
      sandbox.adminToken.toUpperCase(),
    ];
    for (const route of admin) {
      const { path, body } = sample(route.method, route.path);
      for (const token of wrong) {
        const headers: Record<string, string> = { host };
        if (token !== undefined) headers['x-sandbox-token'] = token;
        if (body !== undefined) headers['content-type'] = 'application/json';
        const r = await raw(route.method, path, headers, body);
        expect(r.status, `${route.method} ${path} token ${String(token)}`).toBe(401);
      }
    }
    // Other spellings of an admin path are either refused or not routes at all: never served.
    for (const path of [
      '//sandbox/reset',
      '/SANDBOX/reset',
      '/%73andbox/reset',
      '/sandbox/./reset',
      '/sandbox%2freset',
      `/sandbox/reset?x-sandbox-token=${sandbox.adminToken}`,
    ]) {
      const r = await raw('POST', path, { host, 'content-type': 'application/json' }, '{}');
      expect([401, 404], path).toContain(r.status);
    }
    await untouched();
  });

  it('streams pass the same guard: another host, any Origin, a bad key are refused at the upgrade', async () => {
    const base = `ws://127.0.0.1:${port}`;
    const paths = [
      '/market/depth/ADAUSDM',
      '/market/market-price/ADAUSDM',
      '/market/recent-trades/ADAUSDM',
      `/accounts/stream?api_key=${trader.apiKey}`,
    ];
    const attempt = (url: string, options: ConstructorParameters<typeof WebSocket>[2]) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, options);
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        });
        ws.on('error', () => resolve(-1));
      });
    for (const path of paths) {
      expect(await attempt(base + path, {}), path).toBe(101);
      expect(await attempt(base + path, { headers: { host: `localhost:${port}` } }), path).toBe(
        403,
      );
      expect(await attempt(base + path, { origin: 'https://attacker.example' }), path).toBe(403);
      expect(await attempt(base + path, { headers: { 'sec-fetch-site': 'cross-site' } })).toBe(403);
    }
    for (const key of ['', 'x', '__proto__', 'constructor', trader.apiKey.toUpperCase() + '0']) {
      expect(await attempt(`${base}/accounts/stream?api_key=${key}`, {})).toBe(401);
    }
  });
});

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  '__lookupSetter__',
  'propertyIsEnumerable',
  'toLocaleString',
];

/**
 * Every parameter of every route, as a request with that parameter set to `name`. A route
 * missing here fails the test, so a new route gets fuzzed too.
 */
function fuzzCases(name: string): Record<string, { path: string; body?: unknown }[]> {
  const n = encodeURIComponent(name);
  const amount = (unit: string, quantity = '1000000') => [{ unit, quantity }];
  const utxo = (field: string) => ({
    input: { tx_hash: 'ab'.repeat(32), output_index: 0 },
    output: {
      address: field === 'address' ? name : trader.address,
      amount: amount(field === 'unit' ? name : 'lovelace', field === 'quantity' ? name : '1'),
    },
  });
  const keyed = { [name]: 1 };
  const protoKeyed = JSON.parse(`{"${name}": {"polluted": true}}`) as unknown;
  return {
    'POST /order/build': [
      ...['symbol', 'side', 'type'].map((field) => ({
        path: '/order/build',
        body: {
          symbol: 'ADAUSDM',
          side: 'buy',
          type: 'limit',
          quantity: 10,
          price: 0.5,
          [field]: name,
        },
      })),
      { path: '/order/build', body: protoKeyed },
      {
        path: '/order/build',
        body: { symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 10, price: 0.5, ...keyed },
      },
    ],
    'POST /order/submit': [
      { path: '/order/submit', body: { order_id: name, signed_tx: 'aa' } },
      {
        path: '/order/submit',
        body: { order_id: '00000000-0000-4000-8000-000000000000', signed_tx: name },
      },
      { path: '/order/submit', body: protoKeyed },
    ],
    'DELETE /order/:id/build': [{ path: `/order/${n}/build` }],
    'DELETE /order/submit': [
      { path: '/order/submit', body: { signed_tx: name } },
      { path: '/order/submit', body: protoKeyed },
    ],
    'GET /accounts/order-records': [
      { path: `/accounts/order-records?status=${n}` },
      { path: `/accounts/order-records?status=open&symbol=${n}` },
      { path: `/accounts/order-records?status=open&page=${n}` },
      { path: `/accounts/order-records?status=open&limit=${n}` },
    ],
    'GET /account/order': [{ path: `/account/order?id=${n}` }],
    'GET /accounts/order/:id': [{ path: `/accounts/order/${n}` }],
    'GET /accounts/balance': [],
    'POST /accounts/deposit/build': [
      {
        path: '/accounts/deposit/build',
        body: { deposit_amount: amount(name), input_utxos: [utxo('')] },
      },
      {
        path: '/accounts/deposit/build',
        body: { deposit_amount: amount('lovelace', name), input_utxos: [utxo('')] },
      },
      ...['address', 'unit', 'quantity'].map((field) => ({
        path: '/accounts/deposit/build',
        body: { deposit_amount: amount('lovelace', '2000000'), input_utxos: [utxo(field)] },
      })),
      { path: '/accounts/deposit/build', body: protoKeyed },
    ],
    'POST /accounts/deposit/submit': [
      { path: '/accounts/deposit/submit', body: { signed_tx: name } },
      { path: '/accounts/deposit/submit', body: protoKeyed },
    ],
    'POST /accounts/withdrawal/build': [
      { path: '/accounts/withdrawal/build', body: { withdrawal_amount: amount(name) } },
      { path: '/accounts/withdrawal/build', body: { withdrawal_amount: amount('lovelace', name) } },
      { path: '/accounts/withdrawal/build', body: protoKeyed },
    ],
    'POST /accounts/withdrawal/submit': [
      { path: '/accounts/withdrawal/submit', body: { signed_tx: name } },
      { path: '/accounts/withdrawal/submit', body: protoKeyed },
    ],
    'GET /market/market-price': [{ path: `/market/market-price?symbol=${n}` }],
    'GET /market/depth': [
      { path: `/market/depth?symbol=${n}` },
      { path: `/market/depth?symbol=ADAUSDM&limit=${n}` },
    ],
    'GET /market/graph/:symbol': [
      { path: `/market/graph/${n}` },
      { path: `/market/graph/ADAUSDM?interval=${n}` },
      { path: `/market/graph/ADAUSDM?start=${n}` },
      { path: `/market/graph/ADAUSDM?end=${n}` },
    ],
    'GET /market/recent-trades': [
      { path: `/market/recent-trades?symbol=${n}` },
      { path: `/market/recent-trades?symbol=ADAUSDM&limit=${n}` },
    ],
    'POST /sandbox/accounts': [
      { path: '/sandbox/accounts', body: { address: name } },
      { path: '/sandbox/accounts', body: { address: trader.address, operation_key_hash: name } },
      { path: '/sandbox/accounts', body: protoKeyed },
    ],
    'GET /sandbox/accounts/:id': [{ path: `/sandbox/accounts/${n}` }],
    'POST /sandbox/faucet': [
      { path: '/sandbox/faucet', body: { address: name } },
      { path: '/sandbox/faucet', body: { address: trader.address, amount: amount(name) } },
      {
        path: '/sandbox/faucet',
        body: { address: trader.address, amount: amount(USDM_UNIT, name) },
      },
      { path: '/sandbox/faucet', body: protoKeyed },
    ],
    'GET /sandbox/utxos': [
      { path: `/sandbox/utxos?address=${n}` },
      { path: `/sandbox/utxos?refs=${n}` },
      { path: `/sandbox/utxos?refs=${'0'.repeat(64)}%230,${n}` },
    ],
    'GET /sandbox/network': [],
    'GET /sandbox/totals': [],
    'POST /sandbox/reset': [],
    'POST /sandbox/trading-lock': [
      { path: '/sandbox/trading-lock', body: { locked: name } },
      { path: '/sandbox/trading-lock', body: protoKeyed },
    ],
    'POST /sandbox/fail-next': [
      { path: '/sandbox/fail-next', body: { code: name } },
      { path: '/sandbox/fail-next', body: { code: 5000, count: name } },
      { path: '/sandbox/fail-next', body: protoKeyed },
    ],
  };
}

describe('no request value indexes a plain object', () => {
  it('every parameter of every route set to a prototype name is refused in words: no 5xx, no answer', async () => {
    const routes = sandbox.routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(fuzzCases('x')).sort()).toEqual(routes);
    const failures: string[] = [];
    for (const name of PROTOTYPE_NAMES) {
      for (const [route, cases] of Object.entries(fuzzCases(name))) {
        const method = route.split(' ')[0] as string;
        for (const c of cases) {
          const r = await call<{ code?: number; error?: string }>(sandbox.url, method, c.path, {
            key: trader.apiKey,
            ...(c.body === undefined ? {} : { body: c.body }),
          });
          // Refused on its merits: a 4xx with the real error shape, or the plain 404.
          const refused =
            r.status >= 400 &&
            r.status < 500 &&
            (r.status === 404 ||
              (typeof r.body?.code === 'number' && typeof r.body.error === 'string'));
          if (!refused)
            failures.push(`${route} ${c.path} ${JSON.stringify(c.body)}: ${r.status} ${r.text}`);
        }
      }
      // A prototype name as the API key is no key.
      const r = await call(sandbox.url, 'GET', '/accounts/balance', { key: name });
      if (r.status !== 401) failures.push(`x-api-key ${name}: ${r.status}`);
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // Nothing changed for the trader: trading is not locked, no failure is queued.
    await untouched();
  });

  it('stream paths and parameters set to prototype names are refused, never a 5xx', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const n = encodeURIComponent(name);
      for (const path of [
        `/market/depth/${n}`,
        `/market/market-price/${n}`,
        `/market/recent-trades/${n}`,
        `/market/${n}/ADAUSDM`,
        `/market/depth/ADAUSDM?limit=${n}`,
        `/accounts/stream?api_key=${n}`,
        `/${n}`,
      ]) {
        const r = await raw('GET', path, {
          host: `127.0.0.1:${port}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        });
        expect(r.status, path).toBeGreaterThanOrEqual(400);
        expect(r.status, path).toBeLessThan(500);
      }
    }
  });
});
