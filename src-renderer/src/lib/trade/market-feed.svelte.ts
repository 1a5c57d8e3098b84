import type { Api, ConnectionState } from '../../../../src-shared/contract';
import {
  Depth,
  MarketTrade,
  Ticker,
  type Depth as DepthT,
  type Market as MarketT,
  type MarketTrade as MarketTradeT,
  type Ticker as TickerT,
} from '../../../../src-shared/domain';
import { messageOf, unwrap } from '../api';
import type { MarketList } from '../shell/markets.svelte';
import { bookView } from './book';

const SYMBOL_KEY = 'countersign.trade.symbol';
const KEEP_TRADES = 100;

/**
 * Newest first; a later batch replaces what it covers and keeps what is older. Trades of the same
 * instant (a taker's order sweeping several levels) keep the batch's sequence: a batch listed
 * oldest first, as some exchanges list them, is turned round before it is sorted, so the first
 * trade is the last one made and its price is the market's last.
 */
export const mergeTrades = (
  previous: readonly MarketTradeT[],
  batch: readonly MarketTradeT[],
): MarketTradeT[] => {
  const [first, last] = [batch[0], batch.at(-1)];
  if (!first || !last) return [...previous];
  const time = (t: MarketTradeT) => Date.parse(t.timestamp);
  const sorted = (time(first) < time(last) ? [...batch].reverse() : [...batch]).sort(
    (a, b) => time(b) - time(a),
  );
  const oldest = Math.min(...batch.map(time));
  const older = previous.filter((t) => time(t) < oldest);
  return [...sorted, ...older].slice(0, KEEP_TRADES);
};

/**
 * The market on screen: which one, its book, last price and trades, kept live by the events
 * main pushes once the market is watched. Everything money-like is parsed into decimal.js through
 * the domain schemas; a payload that does not parse is dropped and the last good one stays.
 */
export class MarketFeed {
  symbol = $state('ADAUSDM');
  depth = $state.raw<DepthT | null>(null);
  ticker = $state.raw<TickerT | null>(null);
  trades = $state.raw<MarketTradeT[]>([]);
  /** Whether the last price went up or down with its latest change. */
  lastMove = $state<'up' | 'down' | null>(null);
  /** The markets could not be read: nothing on this screen can work. */
  error = $state<string | null>(null);
  /** This market's data could not be read (the rest of the screen still works). */
  dataError = $state<string | null>(null);
  loading = $state(true);

  readonly market: MarketT | null = $derived(
    this.markets.find((m) => m.symbol === this.symbol) ?? null,
  );
  readonly book = $derived(bookView(this.depth));

  private readonly stops: Array<() => void> = [];

  /**
   * `app`: the window's one list of markets and its one view of the exchange connection (the
   * frame's AppStatus), which this screen shows and does not keep copies of.
   */
  constructor(
    private readonly api: Api,
    private readonly app: { markets: MarketList; connection: ConnectionState | null },
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
  ) {
    const saved = this.storage?.getItem(SYMBOL_KEY);
    if (saved) this.symbol = saved;
  }

  /** The exchange's markets (the window's one list). */
  get markets(): MarketT[] {
    return this.app.markets.list;
  }

  /** The exchange connection, as the whole window shows it. */
  get connection(): ConnectionState | null {
    return this.app.connection;
  }

  async start(): Promise<void> {
    if (this.stops.length === 0) this.listen();
    this.loading = true;
    this.error = null;
    try {
      await this.app.markets.read();
      if (!this.market && this.markets[0]) this.symbol = this.markets[0].symbol;
      await this.load(this.symbol);
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  /** Shows another market: its book and trades replace the last one's at once. */
  async select(symbol: string): Promise<void> {
    if (symbol === this.symbol && this.depth) return;
    this.symbol = symbol;
    this.storage?.setItem(SYMBOL_KEY, symbol);
    this.depth = null;
    this.ticker = null;
    this.lastMove = null;
    this.trades = [];
    await this.load(symbol);
  }

  private async load(symbol: string): Promise<void> {
    this.dataError = null;
    try {
      await unwrap(this.api.market.watch({ symbol }));
      const [depth, ticker, trades] = await Promise.all([
        unwrap(this.api.market.depth({ symbol })),
        unwrap(this.api.market.ticker({ symbol })),
        unwrap(this.api.market.trades({ symbol, limit: 50 })),
      ]);
      if (symbol !== this.symbol) return;
      this.applyDepth(depth);
      this.applyTicker(ticker);
      this.trades = mergeTrades(this.trades, this.parseTrades(trades));
    } catch (error) {
      if (symbol === this.symbol) this.dataError = messageOf(error);
    }
  }

  private listen(): void {
    this.stops.push(
      this.api.on('market:depth', (payload) => this.applyDepth(payload)),
      this.api.on('market:ticker', (payload) => this.applyTicker(payload)),
      this.api.on('market:trades', (payload) => {
        if (payload.symbol !== this.symbol) return;
        this.trades = mergeTrades(this.trades, this.parseTrades(payload.trades));
      }),
    );
  }

  private applyDepth(payload: unknown): void {
    const parsed = Depth.safeParse(payload);
    if (!parsed.success || parsed.data.symbol !== this.symbol) return;
    // A snapshot older than the one shown (a slow answer racing an event) is stale.
    if (this.depth && parsed.data.timestamp < this.depth.timestamp) return;
    this.depth = parsed.data;
    this.dataError = null;
  }

  private applyTicker(payload: unknown): void {
    const parsed = Ticker.safeParse(payload);
    if (!parsed.success || parsed.data.symbol !== this.symbol) return;
    const before = this.ticker?.price;
    const now = parsed.data.price;
    if (before && now && !now.equals(before))
      this.lastMove = now.greaterThan(before) ? 'up' : 'down';
    this.ticker = parsed.data;
  }

  private parseTrades(trades: readonly unknown[]): MarketTradeT[] {
    return trades.flatMap((t) => {
      const parsed = MarketTrade.safeParse(t);
      // A trade without a readable time cannot be placed on the tape or the chart.
      return parsed.success &&
        parsed.data.symbol === this.symbol &&
        !Number.isNaN(Date.parse(parsed.data.timestamp))
        ? [parsed.data]
        : [];
    });
  }

  dispose(): void {
    for (const stop of this.stops.splice(0)) stop();
  }
}
