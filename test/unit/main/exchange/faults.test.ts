import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import type { ExchangeError } from '../../../../src-main/exchange';
import { type ExchangeClient } from '../../../../src-main/exchange';
import type { Logger } from '../../../../src-main/log';
import { FakeClock } from '../../../fixtures/exchange/fake-clock';
import { json, type FakeHandler } from '../../../fixtures/exchange/fake-server';
import {
  API_KEY,
  exchangeFailure,
  LIMIT_BUY,
  routedExchange,
} from '../../../fixtures/exchange/routed-exchange';
import { seedRecord } from '../../../fixtures/exchange/records';

/**
 * The client against a misbehaving server: each fault has its own clear message, reads retry
 * what is safe to retry, a submit is never sent twice, and nothing crashes.
 */

const SIGNED = '84a0a0f5f6';

const errors: ExchangeError[] = [];
const logged: string[] = [];
const logger: Logger = {
  info: (m, d) => logged.push(m + JSON.stringify(d ?? '')),
  warn: (m, d) => logged.push(m + JSON.stringify(d ?? '')),
  error: (m, d) => logged.push(m + JSON.stringify(d ?? '')),
};

const exchange = routedExchange({ logger });
const { route } = exchange;
const client = exchange.client;

/** The error a call fails with (and it is kept for the checks every message must pass). */
const failure = async (call: Promise<unknown>): Promise<ExchangeError> => {
  const e = await exchangeFailure(call);
  errors.push(e);
  return e;
};

const submit = (c: ExchangeClient) => c.submitOrder({ orderId: 'a1b2c3', signedTx: SIGNED });

describe('answers that are not the exchange speaking', () => {
  it('a plain-text 404 says the server does not offer this request', async () => {
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'no-such-route', httpStatus: 404, code: ErrorCode.Network });
    expect(e.message).toMatch(
      /does not offer this request \(HTTP 404 for GET \/accounts\/balance\)/,
    );
    expect(e.message).toMatch(/Check the address of the exchange in Settings/);
    expect(exchange.server.requests).toHaveLength(1);
  });

  it("a proxy's HTML 403 page is a refusal by something in between, not retried", async () => {
    route['GET /accounts/balance'] = (_q, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<html><body><h1>403 Forbidden</h1>cloudflare</body></html>');
    };
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'gateway', httpStatus: 403, ambiguous: false });
    expect(e.message).toMatch(/A web page came back instead of the answer of the exchange/);
    expect(e.message).toMatch(/proxy, a firewall/);
    expect(e.message).not.toMatch(/cloudflare|<html/);
    expect(exchange.server.requests).toHaveLength(1);
  });

  it("a gateway's HTML 503 is retried for a read, then reported as the service being down", async () => {
    route['GET /accounts/balance'] = (_q, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    };
    const clock = new FakeClock();
    const e = await failure(client({ clock }).balances());
    expect(e).toMatchObject({ failure: 'gateway', httpStatus: 503 });
    expect(e.message).toMatch(/seems to be down\. Try again later/);
    expect(exchange.server.requests).toHaveLength(4);
    // backoff with jitter: each wait within [half, all] of base·2^n
    expect(clock.sleeps).toHaveLength(3);
    clock.sleeps.forEach((ms, n) => {
      expect(ms).toBeGreaterThanOrEqual(150 * 2 ** n);
      expect(ms).toBeLessThanOrEqual(300 * 2 ** n);
    });
  });

  it('an HTML 503 answering a submit is ambiguous and the submit is not sent again', async () => {
    route['POST /order/submit'] = (_q, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    };
    const e = await failure(submit(client()));
    expect(e).toMatchObject({ failure: 'gateway', ambiguous: true });
    expect(e.message).toMatch(/may or may not have taken effect/);
    expect(exchange.server.hits('/order/submit')).toHaveLength(1);
  });

  it('malformed JSON is reported as such', async () => {
    route['GET /accounts/balance'] = (_q, res) => json(res, 200, '[{"asset": "ADA", "free": 1');
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'not-json', httpStatus: 200 });
    expect(e.message).toMatch(/answer of the exchange to read your balances is not valid JSON/);
  });

  it('a field missing is named with the endpoint', async () => {
    const record: Record<string, unknown> = { ...seedRecord() };
    delete record.base_qty;
    route['GET /account/order'] = (_q, res) => json(res, 200, record);
    const e = await failure(client().order('7f5d2a8e-6c3b-4e1f-9a2d-0b1c2d3e4f50'));
    expect(e).toMatchObject({ failure: 'unexpected-answer', code: ErrorCode.Network });
    expect(e.message).toMatch(/GET \/account\/order/);
    expect(e.message).toMatch(/`base_qty` is missing/);
  });

  it('an error body with a success status is still the error', async () => {
    route['GET /accounts/balance'] = (_q, res) =>
      json(res, 200, { error: 'insufficient balance to place order', code: 4050 });
    const e = await failure(client().balances());
    expect(e).toMatchObject({ failure: 'rejected', exchangeCode: 4050, httpStatus: 200 });
  });

  it('a 401 without a body says to check the API key', async () => {
    route['GET /accounts/balance'] = (_q, res) => {
      res.writeHead(401);
      res.end();
    };
    const e = await failure(client().balances());
    expect(e).toMatchObject({ httpStatus: 401 });
    expect(e.message).toMatch(/Check the API key in Settings/);
  });

  it("the server's own words are quoted without addresses, paths or control characters", async () => {
    route['POST /order/build'] = (_q, res) =>
      json(res, 400, {
        error:
          'bad thing\u0007 see https://internal.example/debug?api_key=deadbeef at /srv/app/handler.go:42 or C:\\svc\\x.dll',
        code: 4999,
      });
    const e = await failure(client().buildOrder(LIMIT_BUY));
    expect(e).toMatchObject({ exchangeCode: 4999, failure: 'rejected' });
    expect(e.message).toMatch(
      /refused to build the order \(code 4999: “bad thing see \[address\] at \[path\] or \[path\]”\)/,
    );
  });
});

describe('the connection failing', () => {
  it('a refused connection says so; a submit that never left is not ambiguous', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createNetServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const c = client({}, `http://127.0.0.1:${closed}`);
    const read = await failure(c.balances());
    expect(read).toMatchObject({ failure: 'unreachable', code: ErrorCode.Network });
    expect(read.message).toMatch(
      /could not reach the exchange to read your balances: the connection was refused/,
    );
    // What it says of the connection itself, for the app-wide state: no read named.
    expect(read.connection).toBe(
      'Countersign could not reach the exchange: the connection was refused.',
    );
    const sent = await failure(submit(c));
    expect(sent).toMatchObject({ failure: 'unreachable', ambiguous: false });
  });

  it('no answer within the deadline is a timeout; a submit then is ambiguous', async () => {
    route['GET /accounts/balance'] = () => undefined; // never answers
    route['POST /order/submit'] = () => undefined;
    const c = client({ timeoutMs: 200, retry: { attempts: 1 } });
    const read = await failure(c.balances());
    expect(read).toMatchObject({ failure: 'timeout' });
    expect(read.message).toMatch(
      /did not answer in time \(0\.2 s\) when asked to read your balances/,
    );
    expect(read.connection).toBe('The exchange does not answer in time (0.2 s).');
    const sent = await failure(submit(c));
    expect(sent).toMatchObject({ failure: 'timeout', ambiguous: true });
    expect(exchange.server.hits('/order/submit')).toHaveLength(1);
  });

  it('a request still waiting for a connection ends at its own deadline', async () => {
    route['GET /accounts/balance'] = () => undefined; // never answers: holds the one connection
    const dispatcher = new Agent({ connections: 1 });
    try {
      const patient = client({ timeoutMs: 10_000, retry: { attempts: 1 }, dispatcher });
      const held = patient.balances().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const e = await failure(
        client({ timeoutMs: 300, retry: { attempts: 1 }, dispatcher }).balances(),
      );
      expect(e).toMatchObject({ failure: 'timeout' });
      expect(Date.now() - started).toBeLessThan(2_000);
      await dispatcher.destroy();
      await held;
    } finally {
      if (!dispatcher.destroyed) await dispatcher.destroy();
    }
  });

  it('a slow trickle is cut at the deadline, even though bytes keep coming', async () => {
    route['GET /accounts/balance'] = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    };
    const started = Date.now();
    const e = await failure(client({ timeoutMs: 300, retry: { attempts: 1 } }).balances());
    expect(e).toMatchObject({ failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a reset in the middle of the body: a read retries, a submit is ambiguous and sent once', async () => {
    const reset: FakeHandler = (_q, res, socket) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"order": {"id": "a1b2c3", ');
      setTimeout(() => socket.destroy(), 10);
    };
    route['GET /accounts/balance'] = reset;
    route['POST /order/submit'] = reset;
    const read = await failure(client().balances());
    expect(read).toMatchObject({ failure: 'connection-lost' });
    expect(read.message).toMatch(
      /The connection to the exchange broke while trying to read your balances/,
    );
    expect(exchange.server.hits('/accounts/balance')).toHaveLength(4);
    const sent = await failure(submit(client()));
    expect(sent).toMatchObject({ failure: 'connection-lost', ambiguous: true });
    expect(exchange.server.hits('/order/submit')).toHaveLength(1);
  });

  it('an https address on a plain http server is a TLS failure, and nothing was sent', async () => {
    const c = client({}, exchange.server.url.replace('http:', 'https:'));
    const e = await failure(submit(c));
    expect(e).toMatchObject({ failure: 'tls', ambiguous: false });
    expect(e.message).toMatch(/secure \(TLS\) connection to the exchange failed/);
    expect(e.message).toMatch(/Nothing was sent/);
  });

  it('a caller can cancel; a cancelled submit is ambiguous', async () => {
    route['POST /order/submit'] = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await failure(
      client().submitOrder({ orderId: 'a1b2c3', signedTx: SIGNED }, controller.signal),
    );
    expect(e).toMatchObject({ failure: 'cancelled', ambiguous: true });
    const before = new AbortController();
    before.abort();
    const early = await failure(client().balances(before.signal));
    expect(early).toMatchObject({ failure: 'cancelled', ambiguous: false });
  });
});

describe('answers too large to read', () => {
  it('a body over the cap (declared length) is refused without reading it', async () => {
    route['GET /accounts/balance'] = (_q, res) => json(res, 200, [{ asset: 'x'.repeat(3000) }]);
    const e = await failure(client({ maxBodyBytes: 1024 }).balances());
    expect(e).toMatchObject({ failure: 'too-large', ambiguous: false });
    expect(e.message).toMatch(/larger than Countersign accepts/);
  });

  it('a huge streamed body (no length) stops at the cap instead of filling memory', async () => {
    let sent = 0;
    route['GET /accounts/order-records'] = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Number.POSITIVE_INFINITY));
      pump();
    };
    const e = await failure(
      client({ maxBodyBytes: 2 * 1024 * 1024 }).orderRecords({ status: 'open' }),
    );
    expect(e).toMatchObject({ failure: 'too-large' });
  });

  it('a submit whose (successful) answer is too large is ambiguous', async () => {
    route['POST /order/submit'] = (_q, res) => json(res, 200, { order: { pad: 'x'.repeat(5000) } });
    const e = await failure(submit(client({ maxBodyBytes: 1024 })));
    expect(e).toMatchObject({ failure: 'too-large', ambiguous: true });
  });
});

describe('retries and rate limits', () => {
  it('429 with X-Ratelimit-Reset: waits as long as the server says, then succeeds', async () => {
    let n = 0;
    route['GET /accounts/balance'] = (_q, res) => {
      if (n++ === 0) {
        json(
          res,
          429,
          { error: 'rate limit exceeded', code: 4290 },
          {
            'X-Ratelimit-Limit': '100',
            'X-Ratelimit-Remaining': '0',
            'X-Ratelimit-Reset': '7',
          },
        );
      } else json(res, 200, [{ asset: 'ADA', asset_unit: '', free: 1.5, locked: 0 }]);
    };
    const clock = new FakeClock();
    const balances = await client({ clock, rateLimit: { max: 100, windowMs: 60_000 } }).balances();
    expect(balances[0]?.free.toFixed()).toBe('1.5');
    expect(exchange.server.requests).toHaveLength(2);
    // the limiter holds every request until the reset, and the retry waits it out once
    const waited = clock.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(7_000);
    expect(waited).toBeLessThan(7_000 + 1_000);
  });

  it('a rate limit lifting later than the client will wait is reported with the time', async () => {
    route['GET /accounts/balance'] = (_q, res) =>
      json(res, 429, 'too many', { 'X-Ratelimit-Reset': '45', 'content-type': 'text/plain' });
    const e = await failure(client().balances());
    expect(e).toMatchObject({
      failure: 'rate-limited',
      retryAfterMs: 45_000,
      code: ErrorCode.RateLimited,
    });
    expect(e.message).toMatch(/Wait about 45 s and try again/);
    expect(exchange.server.requests).toHaveLength(1);
    // A reset a year away is said in days, not as thirty million seconds.
    route['GET /accounts/balance'] = (_q, res) =>
      json(res, 429, 'too many', { 'Retry-After': String(365 * 86_400) });
    expect((await failure(client().balances())).message).toMatch(
      /Wait about 365 days and try again/,
    );
  });

  it('5002 (trading locked) is retried for a read', async () => {
    let n = 0;
    route['GET /accounts/balance'] = (_q, res) =>
      n++ < 2
        ? json(res, 503, { error: 'trading locked, retry later', code: 5002 })
        : json(res, 200, []);
    const clock = new FakeClock();
    expect(await client({ clock }).balances()).toEqual([]);
    expect(exchange.server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('a submit is never retried: 5000 is ambiguous, 5002 is a plain refusal', async () => {
    route['POST /order/submit'] = (_q, res) =>
      json(res, 500, { error: 'internal error', code: 5000 });
    const internal = await failure(submit(client()));
    expect(internal).toMatchObject({ exchangeCode: 5000, ambiguous: true });
    expect(internal.message).toMatch(/may or may not have taken effect/);
    expect(exchange.server.hits('/order/submit')).toHaveLength(1);

    route['POST /order/submit'] = (_q, res) =>
      json(res, 503, { error: 'trading locked, retry later', code: 5002 });
    const locked = await failure(submit(client()));
    expect(locked).toMatchObject({ exchangeCode: 5002, ambiguous: false });
    expect(locked.message).toMatch(/Trading is locked on the exchange for now; nothing was done/);
    expect(exchange.server.hits('/order/submit')).toHaveLength(2);
  });

  it('the client-side limiter keeps under the published rate without a single 429', async () => {
    const seenAt: number[] = [];
    const clock = new FakeClock();
    route['GET /market/market-price'] = (_q, res) => {
      seenAt.push(clock.now());
      json(res, 200, { price: 0.5 });
    };
    const c = client({ clock, rateLimit: { max: 3, windowMs: 1_000 } });
    for (let i = 0; i < 7; i++) await c.marketPrice('ADAUSDM');
    expect(seenAt).toHaveLength(7);
    for (let i = 3; i < seenAt.length; i++) {
      expect((seenAt[i] ?? 0) - (seenAt[i - 3] ?? 0)).toBeGreaterThanOrEqual(1_000);
    }
  });

  it("X-Ratelimit-Remaining: 0 on a success holds the next request until the window's reset", async () => {
    route['GET /market/market-price'] = (_q, res) =>
      json(res, 200, { price: 0.5 }, { 'X-Ratelimit-Remaining': '0', 'X-Ratelimit-Reset': '5' });
    const clock = new FakeClock();
    const c = client({ clock, rateLimit: { max: 100, windowMs: 60_000 } });
    await c.marketPrice('ADAUSDM');
    expect(clock.sleeps).toEqual([]);
    await c.marketPrice('ADAUSDM');
    expect(clock.sleeps).toEqual([5_000]);
  });
});

describe('every message', () => {
  it('is for people: no address with a key, no stack, no absolute path', () => {
    expect(errors.length).toBeGreaterThan(15);
    for (const e of errors) {
      expect(e.message).not.toMatch(/https?:\/\//);
      expect(e.message).not.toContain(API_KEY);
      expect(e.message).not.toMatch(/\n\s+at |\.ts:\d|node_modules|\/home\/|\/srv\/|[A-Z]:\\/);
      expect(e.message).toMatch(/^[A-Z]/);
      expect(e.toPayload()).toEqual({ code: e.code, message: e.message });
    }
    for (const line of logged) expect(line).not.toContain(API_KEY);
  });
});
