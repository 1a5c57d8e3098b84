import { WebSocket, type RawData } from 'ws';
import type { Depth, MarketTrade } from '../../src-shared/domain';
import { MarketSymbol } from '../../src-shared/domain';
import type { Money } from '../../src-shared/money';
import { silentLogger, type Logger } from '../log';
import { backoffDelay, systemClock, type Clock } from './clock';
import { ExchangeError, invalidInput as invalid } from './errors';
import { parseJsonExact } from './json';
import {
  decodeAccountEvent,
  decodeDepth,
  decodePrice,
  decodeTrades,
  OrderListMemo,
  type AccountEvent,
  type AccountMemos,
  type AnswerOf,
} from './wire';

/**
 * The real service's WebSocket streams (one connection per stream, `api_key` as a query
 * parameter), which the sandbox serves on its own port too: the book, the price, the tape and
 * the account's updates. Each reconnects with exponential backoff and jitter, pings to notice
 * a dead connection, and validates every message (a bad one is dropped and logged, never
 * thrown). The API key in a stream's URL never reaches a log, a state or an error.
 */

export type StreamState = 'connecting' | 'live' | 'down';

export interface StreamStatus {
  /** Which stream: `depth ADAUSDM`, `price ADAUSDM`, `trades ADAUSDM`, `account`. */
  stream: string;
  state: StreamState;
  /** In plain words, for the status bar. */
  detail: string;
}

export interface StreamHandle {
  close(): void;
}

export interface StreamOptions {
  logger?: Logger;
  clock?: Clock;
  /** Default 20 s, as the real service's own SDK. */
  pingIntervalMs?: number;
  /** First reconnect delay (default 1 s); doubles up to `reconnectMaxMs` (default 30 s). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** A connection open this long resets the backoff. Default 10 s. */
  stableAfterMs?: number;
  handshakeTimeoutMs?: number;
  /** Largest message accepted. Default 4 MiB. */
  maxMessageBytes?: number;
  /**
   * Most messages, and bytes, read a second over time (default 200 and 16 MiB): a server that
   * sends more is flooding, and its connection is dropped and retried later with backoff. A
   * burst of up to `FLOOD_BURST_SECONDS` of that budget is read (see `Stream.#flooding`).
   */
  maxMessagesPerSecond?: number;
  maxBytesPerSecond?: number;
  random?: () => number;
}

export type { AccountEvent };

/**
 * Seconds of the flood budget a connection can save up and then read at once. Main reads a
 * stream's messages when its event loop is free: after it was busy for a second or two (a large
 * export, a slow disk, the machine waking up), what the server sent meanwhile, at a normal rate,
 * arrives together, and must not read as a flood.
 */
export const FLOOD_BURST_SECONDS = 5;

const NO_STREAM =
  'This network has no live updates; Countersign refreshes by asking the exchange every few seconds.';

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Why a connection failed, in words, from what `ws` reports. */
const describeFailure = (error: Error): string => {
  const status = /Unexpected server response: (\d{3})/.exec(error.message)?.[1];
  if (status === '401' || status === '403')
    return `the server refused the API key (HTTP ${status})`;
  if (status) return `the server answered HTTP ${status} instead of opening the stream`;
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return "the stream server's address could not be found";
  if (code === 'ECONNRESET') return 'the connection was reset';
  if (/handshake has timed out/i.test(error.message)) return 'the server did not answer in time';
  if (/Max payload size exceeded/i.test(error.message)) return 'a message was too large';
  if (typeof code === 'string' && /SSL|TLS|CERT/.test(code)) return 'the secure connection failed';
  return 'the connection failed';
};

class Stream {
  #ws: WebSocket | null = null;
  #attempt = 0;
  #closed = false;
  #alive = false;
  #ping: NodeJS.Timeout | undefined;
  #stable: NodeJS.Timeout | undefined;
  #waiting: AbortController | null = null;
  #lastFailure: string | null = null;
  #dropped = 0;
  #lastDropLog = 0;
  /** The flood budget left (messages and bytes), as of `#budgetAt`. */
  #budgetAt = 0;
  #messageBudget = 0;
  #byteBudget = 0;
  /** Connections dropped for flooding since the last stable one: each lengthens the backoff. */
  #floods = 0;

  constructor(
    private readonly owner: ExchangeStreams,
    readonly label: string,
    private readonly url: string | null,
    private readonly onMessage: (data: unknown) => void,
  ) {}

  start(): void {
    if (!this.url) {
      this.owner.report(this, 'down', NO_STREAM);
      return;
    }
    this.#connect();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiting?.abort();
    this.#stopTimers();
    const ws = this.#ws;
    this.#ws = null;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else ws.terminate();
    }
    this.owner.forget(this);
  }

  #stopTimers(): void {
    clearInterval(this.#ping);
    clearTimeout(this.#stable);
  }

  #connect(): void {
    if (this.#closed || !this.url) return;
    const o = this.owner.options;
    this.owner.report(this, 'connecting', 'Connecting for live updates…');
    const ws = new WebSocket(this.url, {
      handshakeTimeout: o.handshakeTimeoutMs,
      maxPayload: o.maxMessageBytes,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.#ws = ws;
    this.#lastFailure = null;
    ws.on('open', () => {
      this.#alive = true;
      this.#budgetAt = this.owner.clock.now();
      this.#messageBudget = o.maxMessagesPerSecond * FLOOD_BURST_SECONDS;
      this.#byteBudget = o.maxBytesPerSecond * FLOOD_BURST_SECONDS;
      this.owner.report(this, 'live', 'Live.');
      this.#stable = setTimeout(() => {
        this.#attempt = 0;
        this.#floods = 0;
      }, o.stableAfterMs);
      this.#ping = setInterval(() => {
        if (!this.#alive) {
          this.#lastFailure = 'the server stopped answering pings';
          ws.terminate();
          return;
        }
        this.#alive = false;
        ws.ping();
      }, o.pingIntervalMs);
    });
    ws.on('pong', () => (this.#alive = true));
    ws.on('message', (data, isBinary) => {
      if (this.#ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      this.#alive = true;
      if (this.#flooding(data)) {
        this.#floods++;
        this.#lastFailure = 'the server sent more messages than Countersign can read';
        ws.terminate();
        return;
      }
      this.#receive(data, isBinary);
    });
    ws.on('error', (error) => {
      this.#lastFailure = describeFailure(error);
    });
    ws.on('close', (code) => {
      this.#stopTimers();
      if (this.#closed || this.#ws !== ws) return;
      this.#ws = null;
      const why = this.#lastFailure ?? `the server closed the stream (code ${code})`;
      const delay = backoffDelay(
        this.#attempt++ + this.#floods,
        o.reconnectBaseMs,
        o.reconnectMaxMs,
        o.random,
      );
      this.owner.report(
        this,
        'down',
        `No live updates: ${why}. Retrying in ${seconds(delay)}; meanwhile Countersign refreshes by asking the exchange.`,
      );
      this.owner.log('info', `stream ${this.label}: ${why}; reconnecting in ${delay} ms`);
      const waiting = new AbortController();
      this.#waiting = waiting;
      this.owner.clock.sleep(delay, waiting.signal).then(
        () => this.#connect(),
        () => undefined,
      );
    });
  }

  /**
   * Takes a message from the flood budget; true when the budget is spent. The budget fills at
   * the limits' rate, up to `FLOOD_BURST_SECONDS` of it (a token bucket): a server that keeps
   * sending faster than the limits spends it and is cut off, while messages that arrive
   * together after main was busy are paid for by the time it was busy.
   */
  #flooding(data: RawData): boolean {
    const o = this.owner.options;
    const now = this.owner.clock.now();
    // A clock set back gives no budget (and takes none).
    const seconds = Math.max(0, now - this.#budgetAt) / 1_000;
    this.#budgetAt = now;
    this.#messageBudget = Math.min(
      o.maxMessagesPerSecond * FLOOD_BURST_SECONDS,
      this.#messageBudget + seconds * o.maxMessagesPerSecond,
    );
    this.#byteBudget = Math.min(
      o.maxBytesPerSecond * FLOOD_BURST_SECONDS,
      this.#byteBudget + seconds * o.maxBytesPerSecond,
    );
    const bytes = Array.isArray(data)
      ? data.reduce((sum, part) => sum + part.length, 0)
      : data.byteLength;
    this.#messageBudget -= 1;
    this.#byteBudget -= bytes;
    return this.#messageBudget < 0 || this.#byteBudget < 0;
  }

  #receive(data: RawData, isBinary: boolean): void {
    let text: string;
    if (Array.isArray(data)) text = Buffer.concat(data).toString('utf8');
    else if (data instanceof ArrayBuffer) text = Buffer.from(data).toString('utf8');
    else text = data.toString('utf8');
    let parsed: unknown;
    try {
      if (isBinary && !/^\s*[[{]/.test(text)) throw new Error('binary');
      parsed = parseJsonExact(text);
    } catch {
      this.#drop('it is not JSON');
      return;
    }
    try {
      this.onMessage(parsed);
      this.#attempt = 0;
    } catch (error) {
      if (error instanceof ExchangeError) this.#drop(error.detail);
      else this.owner.log('error', `stream ${this.label}: a listener failed`, error);
    }
  }

  #drop(why: string): void {
    this.#dropped++;
    const now = this.owner.clock.now();
    if (now - this.#lastDropLog < 10_000) return;
    this.#lastDropLog = now;
    this.owner.log(
      'warn',
      `stream ${this.label}: dropped ${this.#dropped} message(s) that could not be used; the last: ${why}`,
    );
    this.#dropped = 0;
  }
}

/** The four streams, built from a stream URL and an API key. */
export class ExchangeStreams {
  readonly options: Required<Omit<StreamOptions, 'logger' | 'clock'>>;
  readonly clock: Clock;
  readonly #logger: Logger;
  readonly #base: string | null;
  readonly #apiKey: string | undefined;
  readonly #streams = new Set<Stream>();
  readonly #states = new Map<Stream, StreamStatus>();
  readonly #listeners = new Set<(status: StreamStatus) => void>();

  constructor(config: { streamUrl?: string; apiKey?: string }, options: StreamOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.clock = options.clock ?? systemClock;
    this.#apiKey = config.apiKey;
    this.options = {
      pingIntervalMs: options.pingIntervalMs ?? 20_000,
      reconnectBaseMs: options.reconnectBaseMs ?? 1_000,
      reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
      stableAfterMs: options.stableAfterMs ?? 10_000,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      maxMessageBytes: options.maxMessageBytes ?? 4 * 1024 * 1024,
      maxMessagesPerSecond: options.maxMessagesPerSecond ?? 200,
      maxBytesPerSecond: options.maxBytesPerSecond ?? 16 * 1024 * 1024,
      random: options.random ?? Math.random,
    };
    let base: string | null = null;
    if (config.streamUrl) {
      try {
        const url = new URL(config.streamUrl);
        if (url.protocol === 'ws:' || url.protocol === 'wss:') {
          url.search = '';
          url.hash = '';
          base = url.toString().replace(/\/+$/, '');
        }
      } catch {
        base = null;
      }
      if (!base) this.log('warn', 'the stream address is not a ws:// or wss:// address');
    }
    this.#base = base;
  }

  /** The order book of a market, whenever it changes. */
  depth(symbol: string, onDepth: (depth: Depth) => void): StreamHandle {
    const market = this.#symbol(symbol);
    const where: AnswerOf = {
      endpoint: `stream /market/depth/${market}`,
      action: 'update the order book',
    };
    return this.#open(`depth ${market}`, `/market/depth/${market}`, {}, (data) =>
      onDepth(decodeDepth(data, market, where, () => this.clock.now())),
    );
  }

  /** The market price of a market. */
  price(symbol: string, onPrice: (price: Money) => void): StreamHandle {
    const market = this.#symbol(symbol);
    const where: AnswerOf = {
      endpoint: `stream /market/market-price/${market}`,
      action: 'update the price',
    };
    return this.#open(`price ${market}`, `/market/market-price/${market}`, {}, (data) =>
      onPrice(decodePrice(data, where)),
    );
  }

  /** The latest trades of a market (up to 50 per message). */
  trades(symbol: string, onTrades: (trades: MarketTrade[]) => void): StreamHandle {
    const market = this.#symbol(symbol);
    const where: AnswerOf = {
      endpoint: `stream /market/recent-trades/${market}`,
      action: 'update the recent trades',
    };
    return this.#open(
      `trades ${market}`,
      `/market/recent-trades/${market}`,
      { limit: '50' },
      (data) => onTrades(decodeTrades(data, market, where)),
    );
  }

  /** The account's balances, open orders and history, as the exchange pushes them. */
  account(onEvent: (event: AccountEvent) => void): StreamHandle {
    const where: AnswerOf = { endpoint: 'stream /accounts/stream', action: 'update your account' };
    if (!this.#apiKey) {
      const stream = new Stream(this, 'account', null, () => undefined);
      this.#streams.add(stream);
      this.report(
        stream,
        'down',
        'No API key is set for this network, so there are no account updates.',
      );
      return { close: () => stream.close() };
    }
    // Each list the stream pushes whole is decoded against its last push: only what changed.
    const memos: AccountMemos = {
      openOrders: new OrderListMemo(),
      tradingHistory: new OrderListMemo(),
      ordersHistory: new OrderListMemo(),
    };
    return this.#open('account', '/accounts/stream', {}, (data) => {
      const event = decodeAccountEvent(data, where, memos);
      if (event) onEvent(event);
    });
  }

  /** Listens to every stream's state; returns a function that stops listening. */
  onState(listener: (status: StreamStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The state of every open stream now. */
  states(): StreamStatus[] {
    return [...this.#states.values()];
  }

  close(): void {
    for (const stream of [...this.#streams]) stream.close();
  }

  /** @internal */
  report(stream: Stream, state: StreamState, detail: string): void {
    const status: StreamStatus = { stream: stream.label, state, detail: this.#scrub(detail) };
    this.#states.set(stream, status);
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch (error) {
        this.log('error', 'a stream state listener failed', error);
      }
    }
  }

  /** @internal */
  forget(stream: Stream): void {
    this.#streams.delete(stream);
    this.#states.delete(stream);
  }

  /** @internal Every line goes through here, so no URL or key reaches the log. */
  log(level: 'info' | 'warn' | 'error', message: string, detail?: unknown): void {
    const scrubbed =
      detail instanceof Error
        ? { name: detail.name, message: this.#scrub(detail.message) }
        : detail === undefined
          ? undefined
          : this.#scrub(String(detail));
    this.#logger[level](this.#scrub(message), ...(scrubbed === undefined ? [] : [scrubbed]));
  }

  #scrub(text: string): string {
    let out = text.replace(/api_key=[^&\s"']*/gi, 'api_key=[redacted]');
    if (this.#apiKey && this.#apiKey.length >= 4) out = out.split(this.#apiKey).join('[api key]');
    return out;
  }

  #symbol(symbol: string): string {
    if (!MarketSymbol.safeParse(symbol).success) throw invalid(`Unknown market: ${symbol}.`);
    return symbol;
  }

  #open(
    label: string,
    path: string,
    query: Record<string, string>,
    handle: (data: unknown) => void,
  ): StreamHandle {
    let url: string | null = null;
    if (this.#base) {
      const params = new URLSearchParams(query);
      if (this.#apiKey) params.set('api_key', this.#apiKey);
      const search = params.toString();
      url = `${this.#base}${path}${search ? `?${search}` : ''}`;
    }
    const stream = new Stream(this, label, url, handle);
    this.#streams.add(stream);
    stream.start();
    return { close: () => stream.close() };
  }
}
