import type { Api } from '../../../../src-shared/contract';
import {
  Candle,
  CandleInterval,
  type Candle as CandleT,
  type MarketTrade,
} from '../../../../src-shared/domain';
import { messageOf, unwrap } from '../api';
import { liveCandles, NO_TRADES_SEEN, tapeMark, type TapeMark } from './chart-data';

const INTERVAL_KEY = 'countersign.trade.interval';

/**
 * The chart's candles: read from the exchange for a market and interval, then kept moving by the
 * market's trades until the next read. Switching interval or market reads again; an answer for a
 * choice the trader has already left is dropped.
 */
export class CandleFeed {
  interval = $state<CandleInterval>('15m');
  candles = $state.raw<CandleT[]>([]);
  /** Where the candles stand on the trade tape: later trades move them until the next read. */
  mark = $state.raw<TapeMark>(NO_TRADES_SEEN);
  loading = $state(false);
  error = $state<string | null>(null);

  private seq = 0;

  constructor(
    private readonly api: Api,
    private readonly trades: () => readonly MarketTrade[],
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
  ) {
    const saved = CandleInterval.safeParse(this.storage?.getItem(INTERVAL_KEY));
    if (saved.success) this.interval = saved.data;
  }

  /** What the chart draws: the exchange's candles plus the trades seen since. */
  readonly shown: CandleT[] = $derived.by(() =>
    liveCandles(this.candles, this.trades(), this.interval, this.mark),
  );

  async load(symbol: string): Promise<void> {
    const seq = ++this.seq;
    const interval = this.interval;
    // Marked when the read is sent: a trade that lands while it travels is drawn on top of the
    // candles (at worst its amount counts twice in the volume) rather than left off the chart.
    const mark = tapeMark(this.trades());
    this.loading = true;
    try {
      const answer = await unwrap(this.api.market.candles({ symbol, interval }));
      if (seq !== this.seq) return;
      this.candles = answer.flatMap((c) => {
        const parsed = Candle.safeParse(c);
        return parsed.success ? [parsed.data] : [];
      });
      this.mark = mark;
      this.error = null;
    } catch (error) {
      if (seq === this.seq) this.error = messageOf(error);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  async choose(interval: CandleInterval, symbol: string): Promise<void> {
    this.interval = interval;
    this.storage?.setItem(INTERVAL_KEY, interval);
    this.candles = [];
    await this.load(symbol);
  }
}
