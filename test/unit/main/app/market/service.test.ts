import { describe, expect, it, vi } from 'vitest';
import { MarketService } from '../../../../../src-main/app/market/service';
import type { Connection, NetworkService } from '../../../../../src-main/app/network/service';
import { silentLogger } from '../../../../../src-main/log';
import type { Ticker } from '../../../../../src-shared/domain';
import { Money } from '../../../../../src-shared/money';

/**
 * The live ticker of the watched market: every new price on the exchange's stream starts a read
 * of the price and its 24 h change, and the window is told the latest price the market has.
 */
const world = () => {
  let onPrice: () => void = () => undefined;
  /** Each read of the price, waiting for the test to answer it. */
  const reads: Array<(price: string) => void> = [];
  const client = {
    marketPrice: vi.fn(
      () => new Promise<Money>((answer) => reads.push((price) => answer(new Money(price)))),
    ),
    candles: vi.fn(async () => []),
    depth: vi.fn(async () => ({ symbol: 'ADAUSDM', timestamp: 0, bids: [], asks: [] })),
    recentTrades: vi.fn(async () => []),
    streams: {
      onState: () => () => undefined,
      price: (_symbol: string, listener: () => void) => {
        onPrice = listener;
        return { close: () => undefined };
      },
      depth: () => ({ close: () => undefined }),
      trades: () => ({ close: () => undefined }),
    },
  };
  const connection = {
    closed: false,
    client: async () => client,
    rules: async () => ({ markets: [{ symbol: 'ADAUSDM' }] }),
  } as unknown as Connection;
  const network = {
    onSwitch: () => () => undefined,
    connection: async () => connection,
    report: () => undefined,
  } as unknown as NetworkService;
  const shown: string[] = [];
  const market = new MarketService({
    network,
    emit: (event, payload) => {
      if (event === 'market:ticker') shown.push((payload as Ticker).price?.toFixed() ?? 'none');
    },
    logger: silentLogger,
    pollEveryMs: 60_000,
  });
  return { market, reads, shown, price: () => onPrice() };
};

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe('the live ticker', () => {
  it('shows the latest price when the reads of a burst of prices answer out of order', async () => {
    const w = world();
    await w.market.watch('ADAUSDM');
    await settle();
    w.reads.shift()?.('0.60');
    await settle();
    // A taker sweeps two levels: two new prices, two reads; the later one answers first.
    w.price();
    w.price();
    await settle();
    const [first, second] = w.reads.splice(0);
    second?.('0.62');
    await settle();
    first?.('0.61');
    await settle();
    expect(w.shown).toEqual(['0.6', '0.62']);
    // The next price is shown as usual.
    w.price();
    await settle();
    w.reads.shift()?.('0.63');
    await settle();
    expect(w.shown.at(-1)).toBe('0.63');
    w.market.unwatch();
  });
});
