import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { serialize } from '../../../../src-shared/domain';
import {
  ExchangeStreams,
  FLOOD_BURST_SECONDS,
  type AccountEvent,
  type StreamOptions,
  type StreamStatus,
} from '../../../../src-main/exchange';
import type { Logger } from '../../../../src-main/log';
import { FakeClock } from '../../../fixtures/exchange/fake-clock';
import { legacyOpenRecord, seedRecord } from '../../../fixtures/exchange/records';

/**
 * The streams against a local WebSocket server: messages validated into domain types, a bad
 * message dropped and logged, reconnection with exponential backoff and jitter, a dead
 * connection noticed by ping, and the API key kept out of every log line and state.
 */

const API_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

interface Connection {
  ws: WebSocket;
  path: string;
  query: URLSearchParams;
}

interface WsServer {
  url: string;
  connections: Connection[];
  onConnection: (c: Connection) => void;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const startWs = async (verify?: (req: IncomingMessage) => boolean): Promise<WsServer> => {
  const http = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const server: WsServer = {
    url: '',
    connections: [],
    onConnection: () => undefined,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
      }),
  };
  http.on('upgrade', (req, socket, head) => {
    // A client that drops the connection (as one refused should) resets it: not a test failure.
    socket.on('error', () => undefined);
    if (verify && !verify(req)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const connection = { ws, path: url.pathname, query: url.searchParams };
      server.connections.push(connection);
      server.onConnection(connection);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  cleanups.push(() => server.close());
  return server;
};

const lines: string[] = [];
const logger: Logger = {
  info: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? '')}`),
  warn: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? '')}`),
  error: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? '')}`),
};

const streamsFor = (
  streamUrl: string | undefined,
  options: StreamOptions = {},
  apiKey: string | undefined = API_KEY,
) => {
  const clock = new FakeClock();
  const states: StreamStatus[] = [];
  const streams = new ExchangeStreams(
    { ...(streamUrl ? { streamUrl } : {}), ...(apiKey ? { apiKey } : {}) },
    { logger, clock, random: () => 1, reconnectBaseMs: 1_000, reconnectMaxMs: 30_000, ...options },
  );
  streams.onState((s) => states.push(s));
  cleanups.push(() => streams.close());
  return { streams, clock, states };
};

const until = async (condition: () => boolean, ms = 3_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** Every log line and every state so far: never the key, never a stream URL's query. */
const expectNoKey = (states: StreamStatus[]) => {
  for (const text of [...lines, ...states.map((s) => s.detail)]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toMatch(/api_key=(?!\[redacted\])/);
  }
};

describe('live updates', () => {
  it('without a stream address, each stream says it is down so the app polls', () => {
    const { streams, states } = streamsFor(undefined);
    streams.depth('ADAUSDM', () => undefined);
    streams.account(() => undefined);
    expect(states.map((s) => [s.stream, s.state])).toEqual([
      ['depth ADAUSDM', 'down'],
      ['account', 'down'],
    ]);
    expect(states[0]?.detail).toMatch(/refreshes by asking the exchange/);
  });

  it('delivers the book, the price and the trades as domain values; drops a bad message', async () => {
    const server = await startWs();
    server.onConnection = ({ ws, path }) => {
      if (path === '/market/depth/ADAUSDM') {
        ws.send('not json at all');
        ws.send(JSON.stringify({ timestamp: 5, bids: 'nope', asks: [] }));
        ws.send(
          JSON.stringify({
            timestamp: 1741944413000,
            bids: [{ price: 0.195, quantity: 30 }],
            asks: [{ price: 0.2, quantity: '1.5' }],
          }),
        );
      }
      if (path === '/market/market-price/ADAUSDM') {
        ws.send(JSON.stringify({ type: 'Market', sub_type: 'market_price', price: 0.75 }));
      }
      if (path === '/market/recent-trades/ADAUSDM') {
        ws.send(
          JSON.stringify([
            {
              timestamp: '2025-03-14T09:26:53Z',
              symbol: 'ADAUSDM',
              side: 'sell',
              price: 0.7803,
              amount: 4.6,
            },
          ]),
        );
      }
    };
    const { streams, states } = streamsFor(server.url);
    const books: unknown[] = [];
    const prices: string[] = [];
    const tapes: unknown[] = [];
    streams.depth('ADAUSDM', (d) => books.push(serialize(d)));
    streams.price('ADAUSDM', (p) => prices.push(p.toFixed()));
    streams.trades('ADAUSDM', (t) => tapes.push(serialize(t)));
    await until(() => books.length === 1 && prices.length === 1 && tapes.length === 1);
    expect(books).toEqual([
      {
        symbol: 'ADAUSDM',
        timestamp: 1741944413000,
        bids: [{ price: '0.195', quantity: '30' }],
        asks: [{ price: '0.2', quantity: '1.5' }],
      },
    ]);
    expect(prices).toEqual(['0.75']);
    expect(tapes).toEqual([
      [
        {
          timestamp: '2025-03-14T09:26:53.000Z',
          symbol: 'ADAUSDM',
          side: 'sell',
          price: '0.7803',
          amount: '4.6',
        },
      ],
    ]);
    expect(lines.some((l) => /stream depth ADAUSDM: dropped 1 message/.test(l))).toBe(true);
    expect(streams.states().every((s) => s.state === 'live')).toBe(true);
    const trades = server.connections.find((c) => c.path === '/market/recent-trades/ADAUSDM');
    expect(trades?.query.get('limit')).toBe('50');
    expect(trades?.query.get('api_key')).toBe(API_KEY);
    expectNoKey(states);
  });

  it('decodes every kind of account update; ignores kinds it does not use', async () => {
    const server = await startWs(
      (req) => new URL(req.url ?? '/', 'http://x').searchParams.get('api_key') === API_KEY,
    );
    server.onConnection = ({ ws }) => {
      ws.send(
        JSON.stringify({
          type: 'Account',
          sub_type: 'balance',
          balance: [{ asset: 'ada', asset_unit: '', free: 10.5, locked: 0 }],
        }),
      );
      ws.send(
        JSON.stringify({
          type: 'Account',
          sub_type: 'open_orders',
          data: [{ orders: [legacyOpenRecord()] }],
        }),
      );
      ws.send(
        JSON.stringify({
          type: 'Account',
          sub_type: 'trading_history',
          data: [{ orders: [seedRecord()], order_filling_records: [] }],
          total_count: 1,
          total_page: 1,
        }),
      );
      ws.send(
        JSON.stringify({
          type: 'Account',
          sub_type: 'orders_history',
          data: [{ orders: [] }],
          total_count: 0,
          total_page: 0,
        }),
      );
      ws.send(JSON.stringify({ type: 'Account', sub_type: 'something_new', data: 1 }));
    };
    const { streams, states } = streamsFor(server.url);
    const events: AccountEvent[] = [];
    streams.account((e) => events.push(e));
    await until(() => events.length === 4);
    expect(events.map((e) => e.kind)).toEqual([
      'balances',
      'openOrders',
      'tradingHistory',
      'ordersHistory',
    ]);
    const [balances, open] = events;
    expect(balances?.kind === 'balances' && serialize(balances.balances)).toEqual([
      { asset: 'ADA', unit: 'lovelace', free: '10.5', locked: '0' },
    ]);
    expect(open?.kind === 'openOrders' && open.orders[0]?.lockedBaseQty.toFixed()).toBe('100');
    expectNoKey(states);
  });

  it('reconnects with exponential backoff (capped), and a live connection resets it', async () => {
    const server = await startWs();
    let refuse = 6;
    server.onConnection = ({ ws }) => {
      if (refuse-- > 0) ws.close(1011);
      else ws.send(JSON.stringify({ price: 1 }));
    };
    const { streams, clock, states } = streamsFor(server.url, { reconnectMaxMs: 10_000 });
    const prices: string[] = [];
    streams.price('ADAUSDM', (p) => prices.push(p.toFixed()));
    await until(() => prices.length === 1);
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(states.filter((s) => s.state === 'down')[0]?.detail).toMatch(
      /No live updates: the server closed the stream \(code 1011\)\. Retrying in 1 s/,
    );
    expect(states.at(-1)?.state).toBe('live');
    // a message arrived: the next drop starts again from the first delay
    server.connections.at(-1)?.ws.close(1001);
    await until(() => clock.sleeps.length === 7);
    expect(clock.sleeps.at(-1)).toBe(1_000);
    expectNoKey(states);
  });

  it('adds jitter: each delay between half and all of the step', async () => {
    const server = await startWs();
    let refuse = 4;
    server.onConnection = ({ ws }) => {
      if (refuse-- > 0) ws.close();
      else ws.send(JSON.stringify({ price: 1 }));
    };
    const { streams, clock } = streamsFor(server.url, { random: () => 0 });
    const prices: string[] = [];
    streams.price('ADAUSDM', (p) => prices.push(p.toFixed()));
    await until(() => prices.length === 1);
    expect(clock.sleeps).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it('a refused key and a refused connection are down, in words, without the key', async () => {
    const server = await startWs(() => false);
    const { streams, states } = streamsFor(server.url);
    streams.account(() => undefined);
    await until(() => states.some((s) => s.state === 'down'));
    expect(states.find((s) => s.state === 'down')?.detail).toMatch(
      /refused the API key \(HTTP 401\)/,
    );

    const dead = streamsFor('ws://127.0.0.1:1');
    dead.streams.depth('ADAUSDM', () => undefined);
    await until(() => dead.states.some((s) => s.state === 'down'));
    expect(dead.states.find((s) => s.state === 'down')?.detail).toMatch(
      /the connection was refused/,
    );
    expectNoKey([...states, ...dead.states]);
  });

  it('notices a connection that stopped answering pings', async () => {
    // A server that completes the WebSocket handshake and then ignores everything.
    const sockets: Socket[] = [];
    let closing = false;
    const hole: Server = createServer();
    // Every connection is tracked from its first byte, and one that arrives while the test
    // closes the server (the stream reconnecting) is cut at once: close waits for none.
    hole.on('connection', (socket) => {
      socket.on('error', () => undefined);
      if (closing) socket.destroy();
      else sockets.push(socket);
    });
    hole.on('upgrade', (req, socket) => {
      const accept = createHash('sha1')
        .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
    });
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          closing = true;
          sockets.forEach((s) => s.destroy());
          hole.close(() => resolve());
        }),
    );
    const { streams, states } = streamsFor(
      `ws://127.0.0.1:${(hole.address() as AddressInfo).port}`,
      {
        pingIntervalMs: 30,
      },
    );
    streams.depth('ADAUSDM', () => undefined);
    await until(() => states.some((s) => /stopped answering pings/.test(s.detail)));
    expect(states.map((s) => s.state).slice(0, 3)).toEqual(['connecting', 'live', 'down']);
  });

  it('a failing listener is logged and the stream goes on; close stops reconnecting', async () => {
    const server = await startWs();
    server.onConnection = ({ ws }) => {
      ws.send(JSON.stringify({ price: 1 }));
      ws.send(JSON.stringify({ price: 2 }));
    };
    const { streams, clock } = streamsFor(server.url);
    const seen: string[] = [];
    const handle = streams.price('ADAUSDM', (p) => {
      seen.push(p.toFixed());
      if (seen.length === 1) throw new Error('listener bug');
    });
    await until(() => seen.length === 2);
    expect(lines.some((l) => /a listener failed/.test(l))).toBe(true);
    handle.close();
    expect(streams.states()).toEqual([]);
    const connections = server.connections.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections.length).toBe(connections);
    expect(clock.sleeps).toEqual([]);
  });
  it('a flood of messages drops the connection, which is retried later with a longer backoff', async () => {
    const burst = 100 * FLOOD_BURST_SECONDS;
    const server = await startWs();
    server.onConnection = ({ ws }) => {
      if (server.connections.length > 1) return;
      for (let i = 0; i < burst + 200; i++) ws.send(JSON.stringify({ price: i + 1 }));
    };
    const { streams, clock, states } = streamsFor(server.url, { maxMessagesPerSecond: 100 });
    const prices: string[] = [];
    streams.price('ADAUSDM', (p) => prices.push(p.toFixed()));
    await until(() => server.connections.length === 2);
    // What came within the budget was used; the rest was never decoded.
    expect(prices).toHaveLength(burst);
    expect(states.find((s) => s.state === 'down')?.detail).toMatch(
      /No live updates: the server sent more messages than Countersign can read\. Retrying in 2 s/,
    );
    expect(clock.sleeps).toEqual([2_000]);
    expectNoKey(states);
  });

  it('reads in full what arrives at once after main was busy, and cuts off a server that keeps flooding', async () => {
    const server = await startWs();
    let send: (count: number) => Promise<void> = async () => undefined;
    server.onConnection = ({ ws }) => {
      let next = 1;
      send = (count) =>
        new Promise((resolve) => {
          for (let i = 0; i < count; i++) ws.send(JSON.stringify({ price: next++ }));
          ws.ping(() => resolve());
        });
    };
    const { streams, clock, states } = streamsFor(server.url, { maxMessagesPerSecond: 100 });
    const prices: string[] = [];
    streams.price('ADAUSDM', (p) => prices.push(p.toFixed()));
    await until(() => server.connections.length === 1 && states.at(-1)?.state === 'live');
    // Nearly the whole saved-up budget at once: read.
    const burst = 100 * FLOOD_BURST_SECONDS;
    await send(burst - 10);
    await until(() => prices.length === burst - 10);
    // Main was busy for three seconds while the server sent at its normal rate: those messages
    // arrive together, and every one is read.
    clock.advance(3_000);
    await send(300);
    await until(() => prices.length === burst + 290);
    expect(states.at(-1)?.state).toBe('live');
    expect(server.connections).toHaveLength(1);
    // A server that goes on sending faster than the limit runs out of budget and is cut off.
    const before = states.length;
    clock.advance(1_000);
    await send(200);
    await until(() => states.slice(before).some((s) => s.state === 'down'));
    expect(prices).toHaveLength(burst + 290 + 100 + 10);
    expect(states.slice(before).find((s) => s.state === 'down')?.detail).toMatch(
      /the server sent more messages than Countersign can read/,
    );
  });

  it('keeps every digit of a number in a message; refuses an absurd or repeated one', async () => {
    const server = await startWs();
    server.onConnection = ({ ws }) => {
      ws.send('{"timestamp":1741944413000,"bids":[{"price":0.195,"quantity":1e300}],"asks":[]}');
      ws.send(
        '{"timestamp":1741944413000,"bids":[{"price":0.2,"quantity":1},{"price":0.2,"quantity":2}],"asks":[]}',
      );
      ws.send(
        '{"timestamp":1741944413000,"bids":[{"price":0.195,"quantity":12345678901234.56789}],"asks":[]}',
      );
    };
    const { streams } = streamsFor(server.url);
    const books: unknown[] = [];
    streams.depth('ADAUSDM', (d) => books.push(serialize(d)));
    await until(() => books.length === 1);
    expect(books[0]).toMatchObject({
      bids: [{ price: '0.195', quantity: '12345678901234.56789' }],
    });
    expect(
      lines.some((l) =>
        /dropped 1 message.*`bids\[0\]\.quantity`: is larger than any real amount/.test(l),
      ),
    ).toBe(true);
  });
});
