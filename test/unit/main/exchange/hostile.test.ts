import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import type { ExchangeError } from '../../../../src-main/exchange';
import { parseJsonExact } from '../../../../src-main/exchange/json';
import { FakeClock } from '../../../fixtures/exchange/fake-clock';
import { json, type FakeHandler } from '../../../fixtures/exchange/fake-server';
import {
  exchangeFailure,
  LIMIT_BUY,
  routedExchange,
} from '../../../fixtures/exchange/routed-exchange';
import { legacyOpenRecord, pageOf, seedRecord } from '../../../fixtures/exchange/records';

/**
 * The client against an exchange that answers in the right shape with the wrong content: digits
 * a float cannot hold, absurd or repeated records, another order or market than asked, a
 * redirect, a page that says it is not JSON, a rate limit "for years". Each is refused with a
 * message that names what is wrong, or read exactly; none becomes a wrong number.
 */

const ORDER_ID = '7f5d2a8e-6c3b-4e1f-9a2d-0b1c2d3e4f50';
const OTHER_ID = 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f';

const exchange = routedExchange();
const { route } = exchange;
const client = exchange.client;

/** Answers JSON text exactly as written (numbers and all). */
const answer =
  (text: string, status = 200, headers: Record<string, string> = {}): FakeHandler =>
  (_q, res) =>
    json(res, status, text, headers);
const answerJson = (body: unknown): FakeHandler => answer(JSON.stringify(body));

/** The error a call fails with; it must be an ExchangeError written for people. */
const failure = async (call: Promise<unknown>): Promise<ExchangeError> => {
  const e = await exchangeFailure(call);
  expect(e.message).not.toMatch(/\n\s+at |node_modules|\/work\//);
  expect(e.advice.length).toBeGreaterThan(0);
  return e;
};

const balancesWith = (ada: string) =>
  `[{"asset":"ADA","asset_unit":"","free":${ada},"locked":0},{"asset":"USDM","asset_unit":"ab","free":"1","locked":"0"}]`;

describe('numbers', () => {
  it('keeps every digit of a JSON number a float cannot hold', async () => {
    route['GET /accounts/balance'] = answer(balancesWith('12345678901234.56789'));
    const [ada] = await client().balances();
    expect(ada?.free.toFixed()).toBe('12345678901234.56789');
    route['GET /market/depth'] = answer(
      '{"timestamp":1741944413000,"bids":[{"price":0.123456789012345678,"quantity":1}],"asks":[]}',
    );
    const book = await client().depth('ADAUSDM');
    expect(book.bids[0]?.price.toFixed()).toBe('0.123456789012345678');
  });

  it.each([
    ['an absurd number', '1e300', /`\[0\]\.free`: is larger than any real amount/],
    ['an absurd string', '"1E+16"', /`\[0\]\.free`: is larger than any real amount/],
    ['an absurd amount', '"9999999999999999999"', /`\[0\]\.free`: is larger than any real amount/],
    ['an amount past float range', '1'.padEnd(400, '0'), /`\[0\]\.free`: has too many digits/],
    ['a fraction below float range', `0.${'0'.padEnd(400, '0')}1`, /`\[0\]\.free`: has too many/],
    ['a huge decimal string', `"${'9'.repeat(100_000)}"`, /`\[0\]\.free`: has too many digits/],
    ['a negative amount', '-5', /`\[0\]\.free`: must not be negative/],
    ['NaN as text', '"NaN"', /`\[0\]\.free`: not a decimal number/],
    ['Infinity as text', '"Infinity"', /`\[0\]\.free`: not a decimal number/],
    ['a boolean', 'true', /`\[0\]\.free`: not a decimal number/],
    ['an object', '{"value":"1"}', /`\[0\]\.free`: not a decimal number/],
  ])('refuses %s in an amount, naming the field', async (_name, value, message) => {
    route['GET /accounts/balance'] = answer(balancesWith(value));
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'unexpected-answer', code: ErrorCode.Network });
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/GET \/accounts\/balance/);
    expect(e.message.length).toBeLessThan(600);
  });

  it('reads a number written with an exponent exactly, as JSON writers put small ones', async () => {
    route['GET /accounts/balance'] = answer(balancesWith('5.551115123125783e-17'));
    const [dust] = await client().balances();
    expect(dust?.free.toFixed()).toBe('0.00000000000000005551115123125783');
    route['GET /accounts/balance'] = answer(balancesWith('"1E-7"'));
    const [small] = await client().balances();
    expect(small?.free.toFixed()).toBe('0.0000001');
  });

  it('refuses such numbers in an order record too, by the field', async () => {
    route['GET /account/order'] = answerJson({ ...seedRecord(), base_qty: '1e20' });
    expect((await failure(client().order(ORDER_ID))).message).toMatch(
      /`base_qty`: is larger than any real amount/,
    );
    route['GET /account/order'] = answer(
      JSON.stringify({ ...seedRecord(), base_qty: 'X' }).replace('"X"', '8e100'),
    );
    expect((await failure(client().order(ORDER_ID))).message).toMatch(
      /`base_qty`: is larger than any real amount/,
    );
    route['GET /account/order'] = answerJson({ ...seedRecord(), slippage_bp: 2 ** 60 });
    expect((await failure(client().order(ORDER_ID))).message).toMatch(/`slippage_bp`/);
  });

  it('reads JSON text exactly: only numbers a float cannot hold are kept as text', () => {
    expect(parseJsonExact('{"a":0.1,"b":"1e5","c":1700000000000,"d":-12.5}')).toEqual({
      a: 0.1,
      b: '1e5',
      c: 1700000000000,
      d: -12.5,
    });
    expect(
      parseJsonExact('[1e21, 0.30000000000000004, "9007199254740993", 9007199254740993]'),
    ).toEqual(['1e21', '0.30000000000000004', '9007199254740993', '9007199254740993']);
    expect(parseJsonExact('{"k\\"1234567890123456789":"x\\\\","n":1234567890123456789}')).toEqual({
      'k"1234567890123456789': 'x\\',
      n: '1234567890123456789',
    });
    // After whitespace, negative, or the whole text: still found.
    expect(parseJsonExact('{"a":\n  5e-7, "b": [ -1.5E3 ]}')).toEqual({ a: '5e-7', b: ['-1.5E3'] });
    expect(parseJsonExact(' 12345678901234567')).toBe('12345678901234567');
    // An id that reads like an exponent is a string, as it was.
    expect(parseJsonExact('{"id":"7f5d2a8e-6c3b","n":2}')).toEqual({ id: '7f5d2a8e-6c3b', n: 2 });
    expect(() => parseJsonExact('{1e25: 1}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('[1234567890123456789')).toThrow(SyntaxError);
  });
});

describe('times', () => {
  it.each([
    ['2025-03-14T09:26:53Z', '2025-03-14T09:26:53.000Z'],
    ['2025-03-14T09:26:53.123456Z', '2025-03-14T09:26:53.123Z'],
    ['2025-03-14T11:26:53.5+02:00', '2025-03-14T09:26:53.500Z'],
    ['2025-03-14T04:56:53-0430', '2025-03-14T09:26:53.000Z'],
    // No zone: UTC, as the seed says, whatever the computer's own zone.
    ['2025-03-14 09:26:53', '2025-03-14T09:26:53.000Z'],
    ['Fri, 14 Mar 2025 09:26:53 GMT', '2025-03-14T09:26:53.000Z'],
    [1741944413, '2025-03-14T09:26:53.000Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
  ])('reads %s', async (created, expected) => {
    route['GET /account/order'] = answerJson({ ...seedRecord(), created_at: created });
    expect((await client().order(ORDER_ID)).createdAt).toBe(expected);
  });

  it.each([
    'foo 2020',
    '1 Jan',
    '2025-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-03-14T24:00:00Z',
    '2025-03-14T09:60:00Z',
    '0070-01-01T00:00:00Z',
    'Mar 14 2025',
  ])('refuses %s instead of guessing a date', async (created) => {
    route['GET /account/order'] = answerJson({ ...seedRecord(), created_at: created });
    expect((await failure(client().order(ORDER_ID))).message).toMatch(/`created_at`: not a time/);
  });
});

describe('keys that are not data', () => {
  it('a `__proto__` or `constructor` key neither supplies a field nor changes an object', async () => {
    route['GET /accounts/balance'] = answer(
      '[{"asset":"ADA","asset_unit":"","__proto__":{"free":5},"locked":0}]',
    );
    expect((await failure(client().balances())).message).toMatch(/`\[0\]\.free` is missing/);
    route['GET /accounts/balance'] = answer(
      '{"__proto__":{"balance":[]},"constructor":{"prototype":{"polluted":1}},"balance":[{"asset":"ADA","free":1}]}',
    );
    const list = await client().balances();
    expect(list).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    route['GET /account/order'] = answerJson({ ...seedRecord(), status: 'constructor' });
    expect((await failure(client().order(ORDER_ID))).message).toMatch(
      /`status`: “constructor” is not one of/,
    );
  });
});

describe('depth', () => {
  it('a deeply nested value where an amount belongs is refused in words, not a stack overflow', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    route['GET /accounts/balance'] = answer(balancesWith(deep));
    const e = await failure(client().balances());
    expect(e.message).toMatch(/`\[0\]\.free`: not a decimal number \(a list\)/);
    route['GET /account/order'] = answer(
      JSON.stringify({ ...seedRecord(), status: 'X' }).replace('"X"', deep),
    );
    expect((await failure(client().order(ORDER_ID))).message).toMatch(/`status`/);
  });
});

describe('records repeated, or about something else than asked', () => {
  it('refuses a page that lists one order twice', async () => {
    const page = pageOf(3);
    page.data[0]?.orders.push(page.data[0].orders[0] as (typeof page.data)[0]['orders'][0]);
    route['GET /accounts/order-records'] = answerJson(page);
    expect((await failure(client().orderRecords({ status: 'open' }))).message).toMatch(
      /`data\[0\]\.orders\[3\]` repeats order "7f5d2a8e-6c3b-4e1f-9a2d-000000000000"/,
    );
  });

  it('reads a page with other markets than the one asked for (the filter is not in the seed)', async () => {
    // The seed's order-records endpoint takes a status only: an exchange may ignore the market
    // asked for, and those who read the list filter it themselves.
    const page = pageOf(2);
    (page.data[0]?.orders[1] as Record<string, unknown>).symbol = 'NIGHTUSDM';
    route['GET /accounts/order-records'] = answerJson(page);
    const read = await client().orderRecords({ status: 'open', symbol: 'ADAUSDM' });
    expect(read.orders.map((o) => o.symbol)).toEqual(['ADAUSDM', 'NIGHTUSDM']);
  });

  it('refuses an execution listed twice, or one of another order', async () => {
    const twice = seedRecord();
    const executions = twice.order_execution_records as unknown[];
    executions.push(executions[0]);
    route['GET /account/order'] = answerJson(twice);
    expect((await failure(client().order(ORDER_ID))).message).toMatch(
      /`order_execution_records\[2\]` repeats execution/,
    );
    const foreign = legacyOpenRecord();
    const fills = foreign.fills as Array<Record<string, unknown>>;
    foreign.fills = [{ ...fills[0], order_id: ORDER_ID }];
    route['GET /account/order'] = answerJson(foreign);
    expect((await failure(client().order(OTHER_ID))).message).toMatch(
      /`fills\[0\]` is an execution of another order/,
    );
  });

  it('refuses a lookup answered with another order', async () => {
    route['GET /account/order'] = answerJson(legacyOpenRecord());
    const e = await failure(client().order(ORDER_ID));
    expect(e.message).toMatch(/it is about order "c4d5e6f7-[^"]+", not "7f5d2a8e-/);
    expect(e.ambiguous).toBe(false);
  });

  it('refuses a submit answered with another order, as ambiguous, and sends it once', async () => {
    route['POST /order/submit'] = answerJson({ order: legacyOpenRecord() });
    const e = await failure(client().submitOrder({ orderId: ORDER_ID, signedTx: '84a0a0f5f6' }));
    expect(e).toMatchObject({ failure: 'unexpected-answer', ambiguous: true });
    expect(e.message).toMatch(/not "7f5d2a8e-/);
    expect(e.message).toMatch(/check your orders and balances before trying again/);
    expect(exchange.server.hits('/order/submit')).toHaveLength(1);
  });

  it('refuses a balance listed twice', async () => {
    route['GET /accounts/balance'] = answerJson([
      { asset: 'ADA', asset_unit: '', free: 10, locked: 0 },
      { asset: 'ada', asset_unit: 'lovelace', free: 99, locked: 0 },
    ]);
    expect((await failure(client().balances())).message).toMatch(
      /`\[1\]` repeats the balance of "ADA"/,
    );
  });

  it('refuses trades or candles of another market, repeated levels or candles, and a candle that does not hold together', async () => {
    route['GET /market/recent-trades'] = answerJson([
      { timestamp: '2025-03-14T09:26:53Z', symbol: 'NIGHTUSDM', side: 'sell', price: 1, amount: 2 },
    ]);
    expect((await failure(client().recentTrades('ADAUSDM', 10))).message).toMatch(
      /`\[0\]` is about "NIGHTUSDM", not ADAUSDM as asked/,
    );
    route['GET /market/graph/ADAUSDM'] = answerJson([
      { t: 1741944600, s: 'NIGHTUSDM', o: 1, h: 1, l: 1, c: 1, v: 1 },
    ]);
    const chart = () => client().candles('ADAUSDM', '5m', 1741944000, 1741945000);
    expect((await failure(chart())).message).toMatch(/`\[0\]` is about "NIGHTUSDM"/);
    route['GET /market/graph/ADAUSDM'] = answerJson([
      { t: 1741944600, o: 1, h: 1, l: 1, c: 1, v: 1 },
      { t: 1741944600, o: 2, h: 2, l: 2, c: 2, v: 2 },
    ]);
    expect((await failure(chart())).message).toMatch(/`\[1\]` repeats the candle of time/);
    for (const bad of [
      { o: 1, h: 0.9, l: 0.8, c: 0.85 },
      { o: 1, h: 1.2, l: 0.8, c: 1.3 },
      { o: 1, h: 1.2, l: 1.1, c: 1.15 },
      { o: 1, h: 0.8, l: 1.2, c: 1 },
    ]) {
      route['GET /market/graph/ADAUSDM'] = answerJson([
        { t: 1741944300, o: 1, h: 1, l: 1, c: 1, v: 1 },
        { t: 1741944600, ...bad, v: 1 },
      ]);
      expect((await failure(chart())).message).toMatch(
        /`\[1\]` is a candle whose low .* and high .* do not enclose its open .* and close/,
      );
    }
    route['GET /market/depth'] = answerJson({
      timestamp: 1741944413000,
      bids: [
        { price: 0.2, quantity: 1 },
        { price: '0.20', quantity: 5 },
      ],
      asks: [],
    });
    expect((await failure(client().depth('ADAUSDM'))).message).toMatch(
      /`bids\[1\]` repeats the price level "0.2"/,
    );
  });

  it('refuses lists longer than any the exchange sends, before reading their items', async () => {
    const many = Array.from({ length: 1_001 }, (_, i) => ({ asset: `A${i}`, free: 1 }));
    route['GET /accounts/balance'] = answerJson(many);
    expect((await failure(client().balances())).message).toMatch(/`the answer`.*1000/);
    const page = pageOf(1_001);
    route['GET /accounts/order-records'] = answerJson(page);
    expect((await failure(client().orderRecords({ status: 'open' }))).message).toMatch(
      /lists 1001 orders/,
    );
  });
});

describe('answers that are not the exchange answering', () => {
  it('refuses a built order whose id could not be sent back, and reads a null tx_hash as none', async () => {
    route['POST /order/build'] = answerJson({ order_id: '../accounts/withdrawal', tx_hex: '84a0' });
    const e = await failure(client().buildOrder(LIMIT_BUY));
    expect(e.message).toMatch(/`order_id`: not an order id/);
    route['DELETE /order/submit'] = answerJson({ tx_hash: null });
    expect(await client().submitCancel('84a0a0f5f6')).toEqual({ txHash: null });
  });

  it('refuses the book of another market', async () => {
    route['GET /market/depth'] = answerJson({ symbol: 'NIGHTUSDM', bids: [], asks: [] });
    expect((await failure(client().depth('ADAUSDM'))).message).toMatch(
      /it is the book of "NIGHTUSDM", not of ADAUSDM as asked/,
    );
  });

  it('does not follow a redirect, and a redirected submit is ambiguous', async () => {
    route['DELETE /order/submit'] = answer('{}', 307, {
      location: `${exchange.server.url}/elsewhere`,
    });
    const e = await failure(client().submitCancel('84a0a0f5f6'));
    expect(e).toMatchObject({ failure: 'http-status', httpStatus: 307, ambiguous: true });
    expect(e.message).toMatch(/redirect to another address \(HTTP 307\)/);
    route['GET /accounts/balance'] = answer('[]', 301, { location: 'https://evil.example/' });
    const read = await failure(client().balances());
    expect(read).toMatchObject({ httpStatus: 301, ambiguous: false });
    expect(read.message).toMatch(/Check the address of the exchange in Settings/);
    expect(read.message).not.toMatch(/evil/);
    expect(exchange.server.requests.map((r) => r.path)).toEqual([
      '/order/submit',
      '/accounts/balance',
    ]);
  });

  it('does not read as JSON an answer that says it is a web page', async () => {
    route['GET /accounts/balance'] = answer('[]', 200, { 'content-type': 'text/html' });
    expect(await failure(client().balances())).toMatchObject({ failure: 'gateway' });
    route['GET /accounts/balance'] = answer('not json', 200, {
      'content-type': 'application/octet-stream',
    });
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'not-json' });
    expect(e.message).toMatch(/it says it is application\/octet-stream/);
    // JSON labelled as plain text (servers do), with a charset, or with no label, is read.
    route['GET /accounts/balance'] = answer('[]', 200, { 'content-type': 'text/plain' });
    expect(await client().balances()).toEqual([]);
    route['GET /accounts/balance'] = answer('[]', 200, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(await client().balances()).toEqual([]);
    route['GET /accounts/balance'] = (_q, res) => {
      res.writeHead(200);
      res.end('[]');
    };
    expect(await client().balances()).toEqual([]);
  });

  it('a rate-limit reset given as Unix milliseconds is read as a time, not as seconds from now', async () => {
    const clock = new FakeClock();
    const c = client({ clock, rateLimit: { max: 100, windowMs: 60_000 } });
    route['GET /accounts/balance'] = answer('[]', 200, {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(clock.now() + 7_000),
    });
    await c.balances();
    await c.balances();
    expect(clock.sleeps).toEqual([7_000]);
  });

  it('a rate-limit reset "in years" holds later requests no longer than it waits out a limit', async () => {
    const clock = new FakeClock();
    const c = client({ clock, rateLimit: { max: 100, windowMs: 60_000 } });
    route['GET /accounts/balance'] = answer('[]', 200, {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '999999999',
    });
    await c.balances();
    await c.balances();
    expect(Math.max(0, ...clock.sleeps)).toBeLessThanOrEqual(30_000);
  });
});
