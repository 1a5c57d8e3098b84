import type { EmitEvent } from '../../../src-shared/contract';
import type {
  Candle,
  CandleInterval,
  Depth,
  Market,
  MarketTrade,
  Ticker,
} from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { Money } from '../../../src-shared/money';
import type { Logger } from '../../log';
import { LiveFeed, openNamedStream } from '../network/live-feed';
import type { Connection, NetworkService } from '../network/service';

const INTERVAL_SECONDS: Readonly<Record<CandleInterval, number>> = {
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '1d': 86_400,
};

export interface MarketDeps {
  network: NetworkService;
  emit: EmitEvent;
  logger: Logger;
  now?: () => number;
  pollEveryMs?: number;
}

/**
 * Market data for the trade screen: markets, ticker, book, candles and trades, read on demand,
 * and pushed live for the market the trader watches (streams, polling while they are down).
 */
export class MarketService {
  #watched: { symbol: string; connection: Connection; feeds: LiveFeed[] } | null = null;

  constructor(private readonly deps: MarketDeps) {
    deps.network.onSwitch(() => {
      const symbol = this.#watched?.symbol;
      this.unwatch();
      if (symbol) void this.watch(symbol).catch(() => undefined);
    });
  }

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  async #client() {
    const connection = await this.deps.network.connection();
    return { connection, client: await connection.client(null) };
  }

  async markets(): Promise<Market[]> {
    return (await (await this.deps.network.connection()).rules()).markets;
  }

  async #known(symbol: string): Promise<void> {
    const markets = await this.markets();
    if (!markets.some((m) => m.symbol === symbol)) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `${symbol} is not a market on this exchange. Choose one of ${markets.map((m) => m.symbol).join(', ')}.`,
      );
    }
  }

  async ticker(symbol: string): Promise<Ticker> {
    await this.#known(symbol);
    const { client } = await this.#client();
    const nowSec = Math.floor(this.#now() / 1000);
    const [price, candles] = await Promise.all([
      client.marketPrice(symbol).catch(() => null),
      client.candles(symbol, '1h', nowSec - 25 * 3600, nowSec).catch(() => [] as Candle[]),
    ]);
    const dayAgo = candles.find((c) => c.time >= nowSec - 24 * 3600) ?? candles[0];
    const change24h =
      price && dayAgo && dayAgo.open.gt(0)
        ? price
            .minus(dayAgo.open)
            .div(dayAgo.open)
            .times(100)
            .toDecimalPlaces(2, Money.ROUND_HALF_EVEN)
        : null;
    return { symbol, price, change24h };
  }

  async depth(symbol: string): Promise<Depth> {
    await this.#known(symbol);
    return (await this.#client()).client.depth(symbol);
  }

  async candles(request: {
    symbol: string;
    interval: CandleInterval;
    start?: number | undefined;
    end?: number | undefined;
  }): Promise<Candle[]> {
    await this.#known(request.symbol);
    const end = request.end ?? Math.floor(this.#now() / 1000);
    const start = request.start ?? end - 200 * INTERVAL_SECONDS[request.interval];
    if (start > end) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'The chart’s start is after its end. Choose another range.',
      );
    }
    return (await this.#client()).client.candles(request.symbol, request.interval, start, end);
  }

  async trades(request: { symbol: string; limit: number }): Promise<MarketTrade[]> {
    await this.#known(request.symbol);
    return (await this.#client()).client.recentTrades(request.symbol, request.limit);
  }

  /** Pushes this market's book, ticker and trades until another market is watched. */
  async watch(symbol: string): Promise<null> {
    await this.#known(symbol);
    const { connection, client } = await this.#client();
    if (this.#watched?.symbol === symbol && this.#watched.connection === connection) return null;
    this.unwatch();
    const report = (state: 'live' | 'polling' | 'offline', detail: string) =>
      this.deps.network.report(state, detail);
    const pollEveryMs = this.deps.pollEveryMs ?? 3000;
    const isCurrent = () =>
      this.#watched?.symbol === symbol && this.#watched.connection === connection;
    const depthFeed = new LiveFeed({
      openStream: (onState) =>
        openNamedStream(
          client.streams,
          `depth ${symbol}`,
          () =>
            client.streams.depth(symbol, (depth) => {
              if (isCurrent()) this.deps.emit('market:depth', depth);
            }),
          onState,
        ),
      poll: async () => {
        const depth = await client.depth(symbol);
        if (isCurrent()) this.deps.emit('market:depth', depth);
      },
      pollEveryMs,
      onState: report,
    });
    // Each new price starts a read of the ticker; a burst of prices (a taker's order sweeping
    // the book) starts several at once, and their answers can come back in any order. Only an
    // answer to a later read than the last one shown goes to the window: an older one would put
    // a price the market has left back on the screen until the next trade.
    let readsStarted = 0;
    let shownRead = 0;
    const readTicker = async () => {
      const read = ++readsStarted;
      const ticker = await this.ticker(symbol);
      if (!isCurrent() || read < shownRead) return;
      shownRead = read;
      this.deps.emit('market:ticker', ticker);
    };
    const tickerFeed = new LiveFeed({
      openStream: (onState) =>
        openNamedStream(
          client.streams,
          `price ${symbol}`,
          () =>
            client.streams.price(symbol, () => {
              // A new price moves the 24 h change too: read both together.
              void readTicker().catch(() => undefined);
            }),
          onState,
        ),
      poll: readTicker,
      pollEveryMs: pollEveryMs * 2,
      onState: () => undefined,
    });
    const tradesFeed = new LiveFeed({
      openStream: (onState) =>
        openNamedStream(
          client.streams,
          `trades ${symbol}`,
          () =>
            client.streams.trades(symbol, (trades) => {
              if (isCurrent()) this.deps.emit('market:trades', { symbol, trades });
            }),
          onState,
        ),
      poll: async () => {
        const trades = await client.recentTrades(symbol, 50);
        if (isCurrent()) this.deps.emit('market:trades', { symbol, trades });
      },
      pollEveryMs: pollEveryMs * 2,
      onState: () => undefined,
    });
    this.#watched = { symbol, connection, feeds: [depthFeed, tickerFeed, tradesFeed] };
    for (const feed of this.#watched.feeds) feed.start();
    return null;
  }

  unwatch(): void {
    for (const feed of this.#watched?.feeds ?? []) feed.stop();
    this.#watched = null;
  }
}
