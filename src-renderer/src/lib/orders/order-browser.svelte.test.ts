import { describe, expect, it, vi } from 'vitest';
import {
  FILL_SUMMARY_FIELDS,
  ORDER_SUMMARY_FIELDS,
  type OrderRowsRequest,
} from '../../../../src-shared/contract/orders';
import type { Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { MarketList } from '../shell/markets.svelte';
import { executionOf, fakeApi, orderOf } from '../trade/fake-api';
import { BLOCK, OrderBrowser } from './order-browser.svelte';
import type { WireRow } from './rows';

/** A window's storage; `view`: the list the trader chose last time. */
const memory = (view?: string) => {
  const store = new Map<string, string>(view ? [['countersign.orders.view', view]] : []);
  return {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
};

const execution = (id: string, orderId: string, createdAt: string) =>
  executionOf({ id, orderId, createdAt, counterPartyOrderId: 'maker-1' });

type WireOrder = Serialized<Order>;

/** `record`'s fields named in `fields`, as main cuts a row to its line. */
const cut = <T extends object>(record: T, fields: object) =>
  Object.fromEntries(Object.keys(fields).map((k) => [k, record[k as keyof T]]));

/** A row as main sends it: an order, or one fill of it, with the fields its line shows. */
const lineRow = (key: string, order: WireOrder, execution?: WireOrder['executions'][number]) =>
  ({
    key,
    order: cut(order, ORDER_SUMMARY_FIELDS),
    execution: execution ? cut(execution, FILL_SUMMARY_FIELDS) : null,
  }) as WireRow;

const rowOf = (order: WireOrder): WireRow => lineRow(order.id, order);

/**
 * Main's side of `orders:rows` for a list it holds: the slice asked for, filtered by side as
 * main filters. `rows` may be a function of the index, for lists too long to build.
 */
const mainList = (list: { rows: WireRow[] | ((index: number) => WireRow); total?: number }) => {
  const state = { version: 1, ...list };
  const handler = (request: unknown) => {
    const { offset, limit, side } = request as OrderRowsRequest;
    if (typeof state.rows === 'function') {
      const total = state.total ?? 0;
      const make = state.rows;
      const count = Math.max(0, Math.min(limit, total - offset));
      const rows = Array.from({ length: count }, (_, k) => make(offset + k));
      return { total, offset, version: state.version, rows };
    }
    const rows = state.rows.filter((r) => !side || r.order.side === side);
    return {
      total: rows.length,
      offset,
      version: state.version,
      rows: rows.slice(offset, offset + limit),
    };
  };
  return { state, handler };
};

const rowsAsked = (fake: ReturnType<typeof fakeApi>) =>
  fake.calls.filter((c) => c.channel === 'orders:rows').map((c) => c.request as OrderRowsRequest);

describe('OrderBrowser', () => {
  it('reads the chosen view with its filters, and remembers the view', async () => {
    const storage = memory();
    const main = mainList({ rows: [rowOf(orderOf()), rowOf(orderOf())] });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), storage);
    // A first visit opens on the open orders.
    expect(browser.view).toBe('open');
    await browser.start();
    expect(browser.rowCount).toBe(2);
    expect(rowsAsked(fake).at(-1)?.view).toBe('open');
    await browser.show('history');
    await browser.show('open');
    await browser.filter({ symbol: 'ADAUSDM', side: 'sell', status: 'open' });
    expect(rowsAsked(fake).at(-1)).toEqual({
      view: 'open',
      symbol: 'ADAUSDM',
      side: 'sell',
      status: 'open',
      offset: 0,
      limit: 2 * BLOCK,
      read: 'current',
    });
    // A status that the next view cannot hold is dropped with it.
    await browser.show('history');
    expect(browser.status).toBe('');
    expect(new OrderBrowser(fake.api, new MarketList(fake.api), storage).view).toBe('history');
  });

  it('reads nothing while the scrollbar is dragged, then the rows where it stops', async () => {
    const main = mainList({
      total: 100_000,
      rows: (i) => rowOf(orderOf({ id: `order-${i}` })),
    });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    const asked = rowsAsked(fake).length;
    vi.useFakeTimers();
    try {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      // A drag: the window jumps by a few screens a frame for half a second.
      for (let frame = 1; frame <= 30; frame++) {
        browser.want(frame * 2_000, frame * 2_000 + 40);
        await vi.advanceTimersByTimeAsync(16);
      }
      expect(rowsAsked(fake)).toHaveLength(asked);
      // No timer a frame: each would be garbage the page's collector pauses a frame to free.
      expect(timers).not.toHaveBeenCalled();
      // It stops: once the window has stayed put two frames, the rows there are read.
      await vi.advanceTimersByTimeAsync(40);
      expect(rowsAsked(fake).slice(asked)).toMatchObject([{ offset: 60_000, limit: BLOCK }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks main only for the rows in view of a long list, and each of them once', async () => {
    const orders = new Map<number, WireOrder>();
    const main = mainList({
      total: 100_000,
      rows: (i) => {
        const order = orders.get(i) ?? orderOf({ id: `order-${i}` });
        orders.set(i, order);
        return rowOf(order);
      },
    });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    expect(browser.rowCount).toBe(100_000);

    // The trader drags far down: the rows there (with the table's overscan) are asked for.
    browser.want(50_010, 50_060);
    expect(browser.rowAt(50_010)).toBeUndefined();
    await vi.waitFor(() => expect(browser.rowAt(50_059)?.key).toBe('order-50059'));
    expect(browser.orderIdAt(50_010)).toBe('order-50010');
    expect(rowsAsked(fake).at(-1)).toMatchObject({
      offset: 50_000,
      limit: 2 * BLOCK,
      read: 'held',
    });
    // Scrolling a little asks only for the next block the way the list goes, so its rows are
    // there before they show; a jump (above) asked for none ahead.
    const asked = rowsAsked(fake).length;
    browser.want(50_020, 50_070);
    await vi.waitFor(() => expect(browser.rowAt(50_100)?.key).toBe('order-50100'));
    browser.want(50_010, 50_060);
    await vi.waitFor(() => expect(browser.rowAt(49_999)?.key).toBe('order-49999'));
    expect(rowsAsked(fake).slice(asked)).toMatchObject([
      { offset: 50_100, limit: BLOCK },
      { offset: 49_950, limit: BLOCK },
    ]);
    // Within what was read, nothing more.
    browser.want(50_020, 50_070);
    browser.want(50_000, 50_050);
    await Promise.resolve();
    expect(rowsAsked(fake)).toHaveLength(asked + 2);
    // Never more than a few blocks at a time.
    expect(Math.max(...rowsAsked(fake).map((r) => r.limit))).toBeLessThanOrEqual(2 * BLOCK);
    expect(orders.size).toBeLessThanOrEqual(6 * BLOCK);
  });

  it('opens the order a trading-history row belongs to', async () => {
    const a = orderOf({ id: 'a', executions: [execution('a1', 'a', '2025-03-01T12:00:01Z')] });
    const b = orderOf({
      id: 'b',
      executions: [
        execution('b1', 'b', '2025-03-01T12:00:00Z'),
        execution('b2', 'b', '2025-03-01T12:00:05Z'),
      ],
    });
    const [b2, a1] = [b.executions[1], a.executions[0]];
    const main = mainList({
      rows: [lineRow('b:b2', b, b2), lineRow('a:a1', a, a1)],
    });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    await browser.show('trades');
    expect(rowsAsked(fake).at(-1)?.view).toBe('trades');
    expect(browser.rowAt(1)?.key).toBe('a:a1');
    expect(browser.orderIdAt(1)).toBe('a');
  });

  it("opens an order as main holds it at once, then with the exchange's fresh record", async () => {
    const held = orderOf({ id: 'o1', status: 'open', executions: [] });
    const fresh = orderOf({
      id: 'o1',
      status: 'fully_filled',
      executions: [execution('e1', 'o1', '2025-03-01T12:00:01Z')],
    });
    let answer: (order: Serialized<Order>) => void = () => undefined;
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': mainList({ rows: [rowOf(held)] }).handler,
      'orders:held': () => held,
      'orders:get': () => new Promise<Serialized<Order>>((done) => (answer = done)),
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    const opening = browser.open('o1');
    await vi.waitFor(() => expect(browser.detail?.status).toBe('open'));
    expect(browser.detailLoading).toBe(true);
    answer(fresh);
    await opening;
    expect(browser.detail?.status).toBe('fully_filled');
    expect(browser.detail?.executions.map((e) => e.id)).toEqual(['e1']);
    expect(browser.detailLoading).toBe(false);

    // Opened again (after a cancel): the fresh record stays until the next fresh one, never
    // the older one main's lists hold.
    const reopening = browser.open('o1');
    await new Promise((done) => setTimeout(done, 5));
    expect(browser.detail?.status).toBe('fully_filled');
    expect(fake.calls.filter((c) => c.channel === 'orders:held')).toHaveLength(1);
    answer(fresh);
    await reopening;
  });

  it('keeps the held record with the error when the exchange cannot be reached', async () => {
    const held = orderOf({ id: 'o1', status: 'open', executions: [] });
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': mainList({ rows: [rowOf(held)] }).handler,
      'orders:held': () => held,
      'orders:get': async () => {
        // Main's held answer comes first, as its lists are in memory.
        await new Promise((done) => setTimeout(done, 5));
        throw new Error('The exchange did not answer. Try again in a moment.');
      },
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    await browser.open('o1');
    expect(browser.detailError).toBe('The exchange did not answer. Try again in a moment.');
    expect(browser.detail?.id).toBe('o1');
  });

  it("never shows main's held record over the fresh one that came first", async () => {
    const held = orderOf({ id: 'o1', status: 'open', executions: [] });
    const fresh = orderOf({ id: 'o1', status: 'cancelled', executions: [] });
    let release: () => void = () => undefined;
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': mainList({ rows: [rowOf(held)] }).handler,
      'orders:held': () => new Promise((done) => (release = () => done(held))),
      'orders:get': () => fresh,
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    await browser.open('o1');
    release();
    await new Promise((done) => setTimeout(done, 5));
    expect(browser.detail?.status).toBe('cancelled');
  });

  it('says so when neither main nor the exchange has a readable record', async () => {
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': mainList({ rows: [] }).handler,
      'orders:held': () => null,
      'orders:get': () => ({ id: 'o1', status: 'not a status' }),
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    await browser.open('o1');
    expect(browser.detail).toBeNull();
    expect(browser.detailError).toBe('This order record could not be read.');
  });

  it('exports through main and reports where the file went, or why not', async () => {
    let refuse = false;
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': mainList({ rows: [rowOf(orderOf())] }).handler,
      'orders:exportCsv': () => {
        if (refuse) throw new Error('There are no fills to export with these filters.');
        return { fileName: 'countersign-orders-history-2025-03-01.csv', rows: 1 };
      },
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory('history'));
    await browser.start();
    await browser.exportCsv('orders');
    expect(browser.notice).toEqual({
      kind: 'success',
      text: 'Saved 1 order to countersign-orders-history-2025-03-01.csv.',
    });
    expect(fake.calls.find((c) => c.channel === 'orders:exportCsv')?.request).toEqual({
      what: 'orders',
      view: 'history',
    });
    refuse = true;
    await browser.exportCsv('fills');
    expect(browser.notice).toEqual({
      kind: 'error',
      text: 'There are no fills to export with these filters.',
    });
    expect(browser.exporting).toBeNull();
  });

  it('follows open orders live and marks the history stale when orders change', async () => {
    const main = mainList({ rows: [] });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory('history'));
    await browser.start();
    expect(browser.stale).toBe(false);
    fake.emit('orders:changed', { views: ['open'] });
    expect(browser.stale).toBe(false);
    fake.emit('orders:changed', { views: ['open', 'history', 'trades'] });
    expect(browser.stale).toBe(true);
    await browser.show('open');
    main.state.rows = [rowOf(orderOf({ side: 'buy' })), rowOf(orderOf({ side: 'sell' }))];
    main.state.version = 2;
    fake.emit('orders:changed', { views: ['open'] });
    await vi.waitFor(() => expect(browser.rowCount).toBe(2));
    expect(browser.loading).toBe(false);
    await browser.filter({ side: 'sell' });
    main.state.rows = [...main.state.rows, rowOf(orderOf({ side: 'sell' }))];
    main.state.version = 3;
    fake.emit('orders:changed', { views: ['open', 'history', 'trades'] });
    await vi.waitFor(() => expect(browser.rowCount).toBe(2));
    expect(browser.stale).toBe(false);
    browser.dispose();
    expect(fake.listeners('orders:changed')).toBe(0);
  });

  it('keeps the keyboard on its order when open orders come and go above it', async () => {
    const [a, b, c] = [
      rowOf(orderOf({ id: 'a' })),
      rowOf(orderOf({ id: 'b' })),
      rowOf(orderOf({ id: 'c' })),
    ];
    const main = mainList({ rows: [a, b] });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    browser.active = 1;
    // An order placed meanwhile comes first: the mark moves down with order b.
    main.state.rows = [c, a, b];
    main.state.version = 2;
    fake.emit('orders:changed', { views: ['open'] });
    await vi.waitFor(() => expect(browser.rowCount).toBe(3));
    expect(browser.active).toBe(2);
    expect(browser.rowAt(browser.active)?.key).toBe('b');
    // Order b is cancelled: the mark stays at the end of the list, on the order now there.
    main.state.rows = [c, a];
    main.state.version = 3;
    fake.emit('orders:changed', { views: ['open'] });
    await vi.waitFor(() => expect(browser.rowCount).toBe(2));
    expect(browser.active).toBe(1);
    expect(browser.rowAt(browser.active)?.key).toBe('a');
  });

  it('shows the rows of a list main read anew in place of the ones it replaced', async () => {
    const first = Array.from({ length: 3 * BLOCK }, (_, i) => rowOf(orderOf({ id: `old-${i}` })));
    const main = mainList({ rows: first });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:rows': main.handler });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    browser.want(0, 40);
    expect(browser.rowAt(0)?.key).toBe('old-0');

    main.state.rows = Array.from({ length: 3 * BLOCK }, (_, i) =>
      rowOf(orderOf({ id: `new-${i}` })),
    );
    main.state.version = 2;
    browser.want(2 * BLOCK, 2 * BLOCK + 40);
    // Block 2 comes from the newer read: blocks 0 and 1 of the older one are dropped with it.
    await vi.waitFor(() => expect(browser.rowAt(2 * BLOCK)?.key).toBe('new-100'));
    expect(browser.rowAt(0)).toBeUndefined();
    browser.want(0, 40);
    await vi.waitFor(() => expect(browser.rowAt(0)?.key).toBe('new-0'));
  });

  it('says why the rows could not be read', async () => {
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:rows': { error: 'Unlock your wallet to read your orders.' },
    });
    const browser = new OrderBrowser(fake.api, new MarketList(fake.api), memory());
    await browser.start();
    expect(browser.error).toBe('Unlock your wallet to read your orders.');
    expect(browser.loading).toBe(false);
  });
});
