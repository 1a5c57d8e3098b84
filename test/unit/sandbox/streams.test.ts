import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ExchangeStreams,
  type AccountEvent,
  type StreamStatus,
} from '../../../src-main/exchange/streams';
import type { Depth, MarketTrade } from '../../../src-shared/domain';
import type { Money } from '../../../src-shared/money';
import { Trader, call, readyCrypto, startTestSandbox, type TestSandbox } from './helpers.js';

/**
 * The sandbox's WebSocket streams, read by the very client the app uses
 * (src-main/exchange/streams.ts): same paths, same shapes as the real service, on its own port.
 */

beforeAll(readyCrypto);

const open: { close(): void | Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox(options);
  open.push(sandbox);
  return sandbox;
}

function streamsOf(sandbox: TestSandbox, apiKey?: string): ExchangeStreams {
  const streams = new ExchangeStreams(
    { streamUrl: sandbox.url.replace(/^http/, 'ws'), ...(apiKey ? { apiKey } : {}) },
    { reconnectBaseMs: 50, reconnectMaxMs: 200 },
  );
  open.push(streams);
  return streams;
}

/** Resolves with the first value `received` holds that `ok` accepts, or fails after `ms`. */
function eventually<T>(received: T[], ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      const found = received.find(ok);
      if (found !== undefined) return resolve(found);
      if (Date.now() - started > ms) return reject(new Error('not received in time'));
      setTimeout(look, 20);
    };
    look();
  });
}

const buy = (price: number, quantity = 10) => ({
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  quantity,
  price,
});

describe('streams', () => {
  it('the app client receives depth, price and trades as they change', async () => {
    const sandbox = await start();
    const maker = await new Trader(sandbox.url).register();
    const taker = await new Trader(sandbox.url).register();
    await maker.fund(500, 500);
    await taker.fund(500, 500);
    const streams = streamsOf(sandbox);
    const depths: Depth[] = [];
    const prices: Money[] = [];
    const trades: MarketTrade[][] = [];
    const states: StreamStatus[] = [];
    streams.onState((s) => states.push(s));
    streams.depth('ADAUSDM', (d) => depths.push(d));
    streams.price('ADAUSDM', (p) => prices.push(p));
    streams.trades('ADAUSDM', (t) => trades.push(t));
    // Everything is sent on connect.
    await eventually(depths, () => true);
    await eventually(prices, () => true);
    await eventually(trades, () => true);
    expect(
      states
        .filter((s) => s.state === 'live')
        .map((s) => s.stream)
        .sort(),
    ).toEqual(['depth ADAUSDM', 'price ADAUSDM', 'trades ADAUSDM']);

    await maker.place({ ...buy(0.61, 20) });
    const withBid = await eventually(depths, (d) =>
      d.bids.some((l) => l.price.eq(0.61) && l.quantity.eq(20)),
    );
    expect(withBid.symbol).toBe('ADAUSDM');
    expect(withBid.timestamp).toBeGreaterThan(0);

    await taker.place({ ...buy(0.61, 5), side: 'sell' });
    const tape = await eventually(trades, (t) => t.length > 0);
    expect(tape[0]).toMatchObject({ symbol: 'ADAUSDM', side: 'sell' });
    expect(tape[0]?.price.eq(0.61)).toBe(true);
    expect(tape[0]?.amount.eq(5)).toBe(true);
    await eventually(prices, (p) => p.eq(0.61));
    await eventually(depths, (d) => d.bids.some((l) => l.price.eq(0.61) && l.quantity.eq(15)));
  });

  it("the account stream pushes the trader's balance, open orders and history; a reset ends it", async () => {
    const sandbox = await start();
    const maker = await new Trader(sandbox.url).register();
    const taker = await new Trader(sandbox.url).register();
    await maker.fund(500, 500);
    await taker.fund(500, 500);
    const streams = streamsOf(sandbox, maker.apiKey);
    const events: AccountEvent[] = [];
    const states: StreamStatus[] = [];
    streams.onState((s) => states.push(s));
    streams.account((e) => events.push(e));
    await eventually(events, (e) => e.kind === 'balances');

    const placed = await maker.place(buy(0.6, 20));
    const id = placed.body.order.id;
    await eventually(events, (e) => e.kind === 'openOrders' && e.orders.some((o) => o.id === id));
    await eventually(
      events,
      (e) => e.kind === 'balances' && e.balances.some((b) => b.asset === 'USDM' && b.locked.eq(12)),
    );
    await taker.place({ ...buy(0.6, 20), side: 'sell' });
    await eventually(
      events,
      (e) => e.kind === 'tradingHistory' && e.orders.some((o) => o.id === id),
    );
    await eventually(events, (e) => e.kind === 'openOrders' && e.orders.length === 0);
    // Nothing of another account ever shows.
    const foreign = events.flatMap((e) => (e.kind === 'balances' ? [] : e.orders));
    expect(foreign.every((o) => o.accountId === maker.accountId)).toBe(true);

    expect((await call(sandbox.url, 'POST', '/sandbox/reset')).status).toBe(200);
    await eventually(states, (s) => s.stream === 'account' && s.state === 'down');
  });

  it('an API key in a stream URL is refused when unknown, and the client says so without the key', async () => {
    const sandbox = await start();
    const key = 'ab'.repeat(16);
    const streams = streamsOf(sandbox, key);
    const states: StreamStatus[] = [];
    streams.onState((s) => states.push(s));
    streams.account(() => undefined);
    const down = await eventually(states, (s) => s.state === 'down');
    expect(down.detail).toMatch(/refused the API key \(HTTP 401\)/);
    expect(JSON.stringify(states)).not.toContain(key);
  });
});

describe('a market with life', () => {
  it('simulated takers trade on their own: trades, candles and a resting order near the market fills', async () => {
    const sandbox = await start({ marketMaker: true, takers: true, marketMakerIntervalMs: 100 });
    const trader = await new Trader(sandbox.url).register();
    await trader.fund(2000, 2000);
    // A bid at the market maker's best bid is next in line for a taker's sell.
    const depth = await call<{ bids: { price: number }[] }>(
      sandbox.url,
      'GET',
      '/market/depth?symbol=ADAUSDM',
    );
    const best = depth.body.bids[0]?.price ?? 0.6;
    const placed = await trader.place(buy(Math.round((best + 0.0001) * 10_000) / 10_000, 10));
    expect(placed.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let trades: unknown[] = [];
    let status = 'open';
    while (Date.now() < deadline && (trades.length < 3 || status === 'open')) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      trades = (await call<unknown[]>(sandbox.url, 'GET', '/market/recent-trades?symbol=ADAUSDM'))
        .body;
      const order = await trader.request<{ status: string }>(
        'GET',
        `/account/order?id=${placed.body.order.id}`,
      );
      status = order.body.status;
    }
    expect(trades.length).toBeGreaterThanOrEqual(3);
    expect(['partially_filled', 'fully_filled']).toContain(status);
    const candles = await call<{ v: number }[]>(
      sandbox.url,
      'GET',
      '/market/graph/ADAUSDM?interval=5m',
    );
    expect(candles.body.length).toBeGreaterThan(0);
    expect(candles.body.reduce((sum, c) => sum + c.v, 0)).toBeGreaterThan(0);
  }, 30_000);

  it('a new exchange has a past day on its tape: hourly candles back 24 h, recent trades, the price where quoting starts; a restart keeps it', async () => {
    const sandbox = await start({ history: true });
    const now = Math.floor(Date.now() / 1000);
    const read = async (url: string) => ({
      candles: (
        await call<{ t: number; o: number; v: number }[]>(
          url,
          'GET',
          `/market/graph/ADAUSDM?interval=1h&start=${now - 25 * 3600}&end=${now}`,
        )
      ).body,
      trades: (await call<unknown[]>(url, 'GET', '/market/recent-trades?symbol=ADAUSDM&limit=500'))
        .body,
      night: (await call<unknown[]>(url, 'GET', '/market/recent-trades?symbol=NIGHTUSDM')).body,
      price: (await call<{ price: number }>(url, 'GET', '/market/market-price?symbol=ADAUSDM')).body
        .price,
    });
    const before = await read(sandbox.url);
    expect(before.candles.length).toBeGreaterThanOrEqual(24);
    expect(before.candles[0]?.t).toBeLessThanOrEqual(now - 23 * 3600);
    expect(before.candles.every((c) => c.v > 0 && c.o > 0)).toBe(true);
    expect(before.trades).toHaveLength(288);
    expect(before.night.length).toBeGreaterThan(0);
    expect(before.price).toBe(0.65);
    await sandbox.close();
    open.splice(open.indexOf(sandbox), 1);
    const again = await start({ dataDir: sandbox.dataDir, history: true });
    expect(await read(again.url)).toEqual(before);
  });

  it('without takers nobody trades: a test sees only its own trades', async () => {
    const sandbox = await start({ marketMaker: true, takers: false, marketMakerIntervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const trades = await call<unknown[]>(
      sandbox.url,
      'GET',
      '/market/recent-trades?symbol=ADAUSDM',
    );
    expect(trades.body).toEqual([]);
    const night = await call<unknown[]>(
      sandbox.url,
      'GET',
      '/market/recent-trades?symbol=NIGHTUSDM',
    );
    expect(night.body).toEqual([]);
  });
});
