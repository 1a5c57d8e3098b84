import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountFeed } from '../../../../../src-main/app/orders/account-feed';
import type { Connection, NetworkService } from '../../../../../src-main/app/network/service';
import type { AccountEvent } from '../../../../../src-main/exchange/wire';
import { silentLogger } from '../../../../../src-main/log';
import type { OrderPage } from '../../../../../src-shared/domain';

/**
 * The account feed after the trader's own change: with the stream live, the stream brings the
 * new open orders, and reading them again by HTTP (a request and a list's decoding per order)
 * happens only when it has not within moments; with the stream down, at once. Balance changes
 * that come together make one refresh of the funds.
 */

type StreamState = 'connecting' | 'live' | 'down';

const world = () => {
  let onEvent: (event: AccountEvent) => void = () => undefined;
  const stateListeners = new Set<
    (s: { stream: string; state: StreamState; detail: string }) => void
  >();
  const page: OrderPage = { orders: [], page: 1, limit: 250, totalCount: 0, totalPages: 0 };
  const client = {
    orderRecords: vi.fn(async () => page),
    order: vi.fn(),
    streams: {
      onState: (listener: (s: { stream: string; state: StreamState; detail: string }) => void) => {
        stateListeners.add(listener);
        return () => stateListeners.delete(listener);
      },
      account: (listener: (event: AccountEvent) => void) => {
        onEvent = listener;
        return { close: () => undefined };
      },
    },
  };
  const connection = { closed: false, client: async () => client } as unknown as Connection;
  const network = {
    onSwitch: () => () => undefined,
    connection: async () => connection,
    report: () => undefined,
  } as unknown as NetworkService;
  const balancesChanged = vi.fn();
  const feed = new AccountFeed({
    network,
    emit: () => undefined,
    logger: silentLogger,
    apiKey: () => '0123456789abcdef0123456789abcdef',
    balancesChanged,
    ordersChanged: () => undefined,
    openOrdersRead: () => undefined,
    notifyFill: () => undefined,
    pollEveryMs: 60_000,
  });
  return {
    feed,
    client,
    balancesChanged,
    stream: (state: StreamState) => {
      for (const listener of stateListeners) listener({ stream: 'account', state, detail: '' });
    },
    push: (event: AccountEvent) => onEvent(event),
  };
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the feed's promises settle (timers stay fake). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the account feed after the trader’s own change', () => {
  it('leaves it to a live stream that brings the open orders, and reads by HTTP when it does not', async () => {
    const w = world();
    await w.feed.restart();
    await settle();
    w.stream('live');
    await vi.advanceTimersByTimeAsync(100);
    const reads = w.client.orderRecords.mock.calls.length;

    w.feed.refresh();
    w.push({ kind: 'openOrders', orders: [] });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(w.client.orderRecords.mock.calls.length).toBe(reads);

    // The stream says nothing this time: the open orders are read anyway, once.
    w.feed.refresh();
    w.feed.refresh();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.client.orderRecords.mock.calls.length).toBe(reads);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.client.orderRecords.mock.calls.length).toBe(reads + 1);
    w.feed.stop();
  });

  it('reads at once while the stream is down', async () => {
    const w = world();
    await w.feed.restart();
    await settle();
    w.stream('down');
    await vi.advanceTimersByTimeAsync(100);
    const reads = w.client.orderRecords.mock.calls.length;
    w.feed.refresh();
    await settle();
    expect(w.client.orderRecords.mock.calls.length).toBe(reads + 1);
    w.feed.stop();
  });

  it('refreshes the funds once for balance changes that come together', async () => {
    const w = world();
    await w.feed.restart();
    await settle();
    w.stream('live');
    await vi.advanceTimersByTimeAsync(1_000);
    w.balancesChanged.mockClear();
    w.push({ kind: 'balances', balances: [] });
    w.push({ kind: 'balances', balances: [] });
    w.push({ kind: 'balances', balances: [] });
    expect(w.balancesChanged).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(w.balancesChanged).toHaveBeenCalledTimes(1);
    w.push({ kind: 'balances', balances: [] });
    await vi.advanceTimersByTimeAsync(100);
    expect(w.balancesChanged).toHaveBeenCalledTimes(2);
    w.feed.stop();
  });
});
