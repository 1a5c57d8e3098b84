import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { marketBySymbol, type Market } from '../assets.js';
import { ErrorCode, SandboxError } from '../errors.js';
import {
  STATUS_FILTERS,
  depthLevels,
  marketPrice,
  orderPage,
  recentTrades,
} from '../market-data.js';
import { balanceEntries, orderRecord } from '../records.js';
import type { SandboxCore } from '../sandbox-core.js';
import { refusal, type Guard } from './guard.js';

/** Changes arriving within this time are sent as one message per stream. */
const COALESCE_MS = 50;
/** Time-driven changes (a deposit confirmed, a withdrawal landed) are looked for this often. */
const RECHECK_MS = 1_000;
/** A client that has not answered a ping by the next one is gone. */
const HEARTBEAT_MS = 30_000;
/** Close code sent to an account stream whose account is gone (after a reset). */
const CLOSE_UNAUTHORIZED = 4001;

/** One stream: renders its messages; each is sent when its text differs from the last sent. */
interface Subscription {
  readonly socket: WebSocket;
  /** The messages as of now by kind, or null when the stream has ended (its account is gone). */
  render(): Map<string, string> | null;
  readonly sent: Map<string, string>;
  alive: boolean;
}

export interface Streams {
  /** Open stream connections. */
  count(): number;
  /** Something changed: push what differs, soon (changes close together go as one). */
  changed(): void;
  /** Says goodbye to every client (close 1001) and stops accepting streams. */
  close(): Promise<void>;
}

/**
 * The real service's WebSocket streams, on the sandbox's own port: market depth, market price
 * and recent trades per symbol, and one account's balance, open orders and histories. Each
 * message has the real service's shape; a stream sends everything on connect, then whatever
 * changed. Upgrades pass the same guard as every request.
 */
export function attachStreams(
  server: Server,
  core: SandboxCore,
  guard: Guard,
  isClosing: () => boolean,
): Streams {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
  const subscriptions = new Set<Subscription>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing = false;
  let again = false;

  const flush = async () => {
    flushTimer = undefined;
    if (flushing) {
      again = true;
      return;
    }
    flushing = true;
    try {
      // Push only what is on disk: a stream never shows a change that was not acknowledged.
      await core.synced().catch(() => undefined);
      for (const s of subscriptions) send(s);
    } finally {
      flushing = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (subscriptions.size > 0) flushTimer ??= setTimeout(() => void flush(), COALESCE_MS);
  };
  const send = (s: Subscription) => {
    const messages = s.render();
    if (!messages) {
      s.socket.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      subscriptions.delete(s);
      return;
    }
    for (const [kind, text] of messages) {
      if (s.sent.get(kind) === text) continue;
      s.sent.set(kind, text);
      s.socket.send(kind === 'depth' ? withTimestamp(text, core.now()) : text);
    }
  };

  const recheck = setInterval(() => {
    if (subscriptions.size > 0) schedule();
  }, RECHECK_MS);
  recheck.unref();
  const heartbeat = setInterval(() => {
    for (const s of subscriptions) {
      if (!s.alive) {
        s.socket.terminate();
        continue;
      }
      s.alive = false;
      s.socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let render: Subscription['render'];
    try {
      const refused = refusal(guard, request.headers, false);
      if (refused) throw refused;
      if (isClosing()) {
        throw new SandboxError(
          ErrorCode.unavailable,
          'temporarily unavailable: the sandbox is stopping',
        );
      }
      render = route(core, new URL(request.url ?? '/', `http://${guard.host}`));
    } catch (e) {
      refuseUpgrade(socket, e);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const s: Subscription = { socket: ws, render, sent: new Map(), alive: true };
      subscriptions.add(s);
      ws.on('pong', () => {
        s.alive = true;
      });
      ws.on('close', () => subscriptions.delete(s));
      ws.on('error', () => subscriptions.delete(s));
      // Messages from clients carry nothing; pings are answered by the library.
      ws.on('message', () => undefined);
      void core.synced().then(
        () => send(s),
        () => undefined,
      );
    });
  });

  return {
    count: () => subscriptions.size,
    changed: schedule,
    async close() {
      clearInterval(recheck);
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
      const closed = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(1001, 'sandbox stopping');
          }),
      );
      const grace = new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref());
      await Promise.race([Promise.all(closed), grace]);
      for (const ws of wss.clients) ws.terminate();
      subscriptions.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** What a stream path asks for, as a renderer of its messages; refuses unknown paths. */
function route(core: SandboxCore, url: URL): Subscription['render'] {
  for (const [name, value] of url.searchParams) {
    if (url.searchParams.getAll(name).length > 1 || typeof value !== 'string') {
      throw new SandboxError(
        ErrorCode.invalidRequest,
        `query parameter ${name} must be given once`,
      );
    }
  }
  const parts = url.pathname.split('/').slice(1);
  if (parts[0] === 'market' && parts.length === 3) {
    const market = marketParam(parts[2] ?? '');
    switch (parts[1]) {
      case 'depth': {
        const limit = limitParam(url, 50, 500);
        return () =>
          new Map([['depth', JSON.stringify(depthLevels(core.current(), market, limit))]]);
      }
      case 'market-price':
        return () =>
          new Map([
            [
              'price',
              JSON.stringify({
                type: 'Market',
                sub_type: 'market_price',
                price: marketPrice(core.current(), market),
              }),
            ],
          ]);
      case 'recent-trades': {
        const limit = limitParam(url, 50, 500);
        return () =>
          new Map([['trades', JSON.stringify(recentTrades(core.current(), market, limit))]]);
      }
    }
  }
  if (url.pathname === '/accounts/stream') {
    const key = url.searchParams.get('api_key');
    const account = key === null ? undefined : core.exchange.accountByApiKey(key);
    if (!account) throw new SandboxError(ErrorCode.unauthorized, 'unauthorized');
    const exchange = core.exchange;
    const historyFilter = (status: string) => STATUS_FILTERS.get(status) ?? (() => false);
    return () => {
      // A reset ends every account: its stream ends with it.
      if (core.exchange !== exchange || !exchange.accounts.has(account.id)) return null;
      const x = core.current();
      const open = x.openOrdersOf(account.id).reverse();
      const message = (subType: string, body: object) =>
        JSON.stringify({ type: 'Account', sub_type: subType, ...body });
      return new Map([
        ['balance', message('balance', { balance: balanceEntries(x, account.id) })],
        ['open_orders', message('open_orders', { data: [{ orders: open.map(orderRecord) }] })],
        [
          'trading_history',
          message(
            'trading_history',
            orderPage(x, account.id, 'tradingHistory', historyFilter('tradingHistory'), 1, 10),
          ),
        ],
        [
          'orders_history',
          message(
            'orders_history',
            orderPage(x, account.id, 'orderHistory', historyFilter('orderHistory'), 1, 10),
          ),
        ],
      ]);
    };
  }
  throw new SandboxError(ErrorCode.invalidRequest, 'no such stream', 404);
}

function marketParam(symbol: string): Market {
  const market = marketBySymbol(decodeURIComponent(symbol));
  if (!market) throw new SandboxError(ErrorCode.invalidSymbol, 'invalid trading pair symbol');
  return market;
}

function limitParam(url: URL, fallback: number, max: number): number {
  const raw = url.searchParams.get('limit');
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1 || n > max) {
    throw new SandboxError(ErrorCode.invalidRequest, `limit must be an integer in 1..${max}`);
  }
  return n;
}

/** The depth message: `{timestamp, bids, asks}`, the time of sending first. */
function withTimestamp(levels: string, at: number): string {
  return `{"timestamp":${at},${levels.slice(1)}`;
}

/** Answers a refused upgrade with the error as JSON and closes the connection. */
function refuseUpgrade(socket: Duplex, e: unknown): void {
  const error =
    e instanceof SandboxError
      ? e
      : new SandboxError(ErrorCode.invalidRequest, 'bad stream request');
  const body = JSON.stringify({ error: error.message, code: error.code });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };
  const status = error.httpStatus;
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason[status as keyof typeof reason] ?? 'Service Unavailable'}\r\n` +
      'Content-Type: application/json\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
