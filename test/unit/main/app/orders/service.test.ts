import { describe, expect, it } from 'vitest';
import { OrdersService } from '../../../../../src-main/app/orders/service';
import type { EmitEvent, OrderRowsRequest } from '../../../../../src-shared/contract';
import {
  FILL_SUMMARY_FIELDS,
  ORDER_SUMMARY_FIELDS,
  OrderRowsRequest as RowsSchema,
} from '../../../../../src-shared/contract/orders';
import type { Order } from '../../../../../src-shared/domain';
import { recordOf, recordsExchange } from '../../../../fixtures/orders/records';

const range = (from: number, to: number, make: (i: number) => Order = (i) => recordOf(i)) =>
  Array.from({ length: to - from }, (_, k) => make(from + k));

const setup = (lists: Record<string, Order[]>) => {
  const exchange = recordsExchange(lists);
  const events: Array<{ name: string; payload: unknown }> = [];
  const emit: EmitEvent = (name, payload) => void events.push({ name, payload });
  const saved: Array<{ name: string; content: string }> = [];
  const orders = new OrdersService({
    network: exchange.network,
    apiKey: () => 'key',
    emit,
    saveFile: async (name, content) => {
      saved.push({ name, content });
      return { fileName: name };
    },
    now: () => Date.parse('2025-03-01T12:00:00Z'),
  });
  // As the dispatcher does: the request passes the contract's schema first.
  const rows = (request: OrderRowsRequest) => orders.rows(RowsSchema.parse(request));
  return { orders, rows, exchange, events, saved };
};

describe('OrdersService rows', () => {
  it('answers a window of the list with its length, reading the exchange once', async () => {
    const { rows, exchange } = setup({ orderHistory: range(0, 1000) });
    const window = await rows({ view: 'history', offset: 500, limit: 40 });
    expect(window.total).toBe(1000);
    expect(window.offset).toBe(500);
    expect(window.rows.map((r) => r.key)).toEqual(range(500, 540).map((o) => o.id));
    expect(window.rows[0]?.execution).toBeNull();
    // 1000 records in pages of 250.
    expect(exchange.calls.map((c) => c.page)).toEqual([1, 2, 3, 4]);

    // Scrolling on: served from what main holds.
    const next = await rows({ view: 'history', offset: 990, limit: 40, read: 'held' });
    expect(next.rows.map((r) => r.key)).toEqual(range(990, 1000).map((o) => o.id));
    expect(next.version).toBe(window.version);
    expect(exchange.calls).toHaveLength(4);
  });

  it('filters by market, side and status, without reading the exchange again', async () => {
    const history = range(0, 600, (i) =>
      recordOf(i, { status: i % 5 === 0 ? 'cancelled' : 'fully_filled' }),
    );
    const { rows, exchange } = setup({ orderHistory: history });
    await rows({ view: 'history', offset: 0, limit: 10 });
    const reads = exchange.calls.length;

    const sells = await rows({
      view: 'history',
      symbol: 'ADAUSDM',
      side: 'sell',
      status: 'cancelled',
      offset: 0,
      limit: 500,
    });
    const expected = history.filter(
      (o) => o.symbol === 'ADAUSDM' && o.side === 'sell' && o.status === 'cancelled',
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(sells.total).toBe(expected.length);
    expect(sells.rows.map((r) => r.order.id)).toEqual(expected.map((o) => o.id));
    expect(exchange.calls).toHaveLength(reads);
  });

  it('shows only the market asked for when the exchange lists every market', async () => {
    const history = range(0, 300);
    const { orders, rows, exchange } = setup({ orderHistory: history });
    exchange.state.ignoresSymbol = true;
    const night = await rows({ view: 'history', symbol: 'NIGHTUSDM', offset: 0, limit: 500 });
    const expected = history.filter((o) => o.symbol === 'NIGHTUSDM');
    expect(expected.length).toBeGreaterThan(50);
    expect(night.total).toBe(expected.length);
    expect(night.rows.map((r) => r.order.id)).toEqual(expected.map((o) => o.id));
    expect(exchange.calls.every((c) => c.symbol === 'NIGHTUSDM')).toBe(true);

    // A page of the list, as the pages are asked for: the same.
    const page = await orders.list({ view: 'history', symbol: 'NIGHTUSDM', page: 2, limit: 40 });
    expect(page.totalCount).toBe(expected.length);
    expect(page.totalPages).toBe(Math.ceil(expected.length / 40));
    expect(page.orders.map((o) => o.id)).toEqual(expected.slice(40, 80).map((o) => o.id));
  });

  it('lists the trading history as one row per fill, newest first', async () => {
    const a = recordOf(1, { executions: 1 });
    const b = recordOf(0, { executions: 3 });
    const { rows } = setup({ tradingHistory: [b, a] });
    const fills = await rows({ view: 'trades', offset: 0, limit: 10 });
    // b's fills are at 0 s, 1 s and 2 s; a's at 60 s.
    expect(fills.rows.map((r) => r.key)).toEqual([
      `${a.id}:${a.id}-e1`,
      `${b.id}:${b.id}-e3`,
      `${b.id}:${b.id}-e2`,
      `${b.id}:${b.id}-e1`,
    ]);
    expect(fills.rows[1]?.order.id).toBe(b.id);
    expect(fills.rows[1]?.execution?.id).toBe(`${b.id}-e3`);
    expect(fills.total).toBe(4);
  });

  it('shows a record the exchange listed twice (its pages moved while read) once', async () => {
    const list = range(0, 300);
    const { rows } = setup({
      orderHistory: [...list.slice(0, 250), list[249] as Order, ...list.slice(250)],
    });
    const all = await rows({ view: 'history', offset: 0, limit: 500 });
    expect(all.total).toBe(300);
    expect(new Set(all.rows.map((r) => r.key)).size).toBe(300);
  });

  it('shows each record once when the list moved by more than a page while it was read', async () => {
    const old = range(0, 600);
    // 300 orders are placed after the first page is read: the records of that page come again,
    // further down than the start of the next one.
    const placed = range(1000, 1300);
    let served = 0;
    const lists = {
      get orderHistory() {
        served += 1;
        return served === 1 ? old : [...placed, ...old];
      },
    };
    const { rows } = setup(lists);
    const first = await rows({ view: 'history', offset: 0, limit: 500 });
    const next = await rows({ view: 'history', offset: 500, limit: 500 });
    const keys = [...first.rows, ...next.rows].map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      [...old.slice(0, 250), ...placed.slice(250), ...old.slice(250)].map((o) => o.id),
    );
  });

  it('reads a list again when main learned it changed or the trader asks, not while scrolling', async () => {
    const { orders, rows, exchange, events } = setup({ orderHistory: range(0, 10) });
    const first = await rows({ view: 'history', offset: 0, limit: 5 });
    expect(exchange.calls).toHaveLength(1);
    expect((await rows({ view: 'history', offset: 0, limit: 5 })).version).toBe(first.version);
    expect(exchange.calls).toHaveLength(1);

    // The trader placed an order: every list may have moved, and the screens are told.
    exchange.lists['orderHistory'] = range(0, 11);
    orders.invalidate();
    expect(events).toEqual([
      { name: 'orders:changed', payload: { views: ['open', 'history', 'trades'] } },
    ]);
    // Rows being scrolled through stay where they were...
    const held = await rows({ view: 'history', offset: 0, limit: 5, read: 'held' });
    expect([held.version, held.total]).toEqual([first.version, 10]);
    expect(exchange.calls).toHaveLength(1);
    // ...until the list is read again.
    const current = await rows({ view: 'history', offset: 0, limit: 5 });
    expect(current.total).toBe(11);
    expect(current.version).toBeGreaterThan(first.version);
    expect(exchange.calls).toHaveLength(2);

    // Refresh reads it again even when nothing is known to have changed.
    await rows({ view: 'history', offset: 0, limit: 5, read: 'fresh' });
    expect(exchange.calls).toHaveLength(3);
  });

  it('reads a list once for every request that waits on it, and again after a failure', async () => {
    const { rows, exchange } = setup({ orderHistory: range(0, 10) });
    exchange.state.failWith = new Error('The exchange did not answer.');
    await expect(rows({ view: 'history', offset: 0, limit: 5 })).rejects.toThrow(
      'The exchange did not answer.',
    );
    exchange.state.failWith = null;
    const [a, b] = await Promise.all([
      rows({ view: 'history', offset: 0, limit: 5 }),
      rows({ view: 'history', offset: 5, limit: 5, read: 'held' }),
    ]);
    expect(a.version).toBe(b.version);
    expect(exchange.calls).toHaveLength(2);
  });

  it('follows the open list the exchange pushes, and marks the history out of date', async () => {
    const open = range(0, 3, (i) => recordOf(i, { status: 'open', executions: 0 }));
    const { orders, rows, exchange, events } = setup({ open, orderHistory: range(10, 20) });
    await rows({ view: 'history', offset: 0, limit: 50 });
    const before = await rows({ view: 'open', offset: 0, limit: 50 });
    expect(before.total).toBe(3);
    const reads = exchange.calls.length;

    // The first list a network pushes only sets where changes are counted from.
    orders.openOrdersRead('sandbox', open);
    expect(events).toEqual([{ name: 'orders:changed', payload: { views: ['open'] } }]);
    orders.openOrdersRead('sandbox', open);
    expect(events).toHaveLength(1);
    await rows({ view: 'history', offset: 0, limit: 50 });
    expect(exchange.calls).toHaveLength(reads);

    // One order filled and left the list: open rows change at once, the history is read again.
    orders.openOrdersRead('sandbox', open.slice(1));
    expect(events.at(-1)).toEqual({
      name: 'orders:changed',
      payload: { views: ['open', 'history', 'trades'] },
    });
    const after = await rows({ view: 'open', offset: 0, limit: 50 });
    expect(after.rows.map((r) => r.key)).toEqual(open.slice(1).map((o) => o.id));
    expect(after.version).toBeGreaterThan(before.version);
    const onOneMarket = await rows({ view: 'open', symbol: 'ADAUSDM', offset: 0, limit: 50 });
    expect(onOneMarket.rows.map((r) => r.key)).toEqual(
      open
        .slice(1)
        .filter((o) => o.symbol === 'ADAUSDM')
        .map((o) => o.id),
    );
    expect(exchange.calls).toHaveLength(reads);
    await rows({ view: 'history', offset: 0, limit: 50 });
    expect(exchange.calls.length).toBeGreaterThan(reads);

    // Another network's push leaves this one's lists alone.
    orders.openOrdersRead('preprod', []);
    expect((await rows({ view: 'open', offset: 0, limit: 50 })).total).toBe(2);
  });

  it('sends each row with what its line shows, not the whole record', async () => {
    const order = recordOf(0, { executions: 3 });
    const { rows } = setup({ orderHistory: [order], tradingHistory: [order] });
    const [line] = (await rows({ view: 'history', offset: 0, limit: 10 })).rows;
    expect(Object.keys(line?.order ?? {}).sort()).toEqual(Object.keys(ORDER_SUMMARY_FIELDS).sort());
    expect(line?.order.baseQty.toFixed()).toBe(order.baseQty.toFixed());
    const [fill] = (await rows({ view: 'trades', offset: 0, limit: 10 })).rows;
    expect(fill?.order).not.toHaveProperty('executions');
    expect(Object.keys(fill?.execution ?? {}).sort()).toEqual(
      Object.keys(FILL_SUMMARY_FIELDS).sort(),
    );
    expect(fill?.execution?.price.toFixed()).toBe(order.executions[2]?.price.toFixed());
  });

  it('gives an order as its lists hold it, whole, without asking the exchange', async () => {
    const { orders, rows, exchange } = setup({
      'sandbox|orderHistory': range(0, 300, (i) => recordOf(i, { executions: 2 })),
      'preprod|orderHistory': range(1000, 1002),
    });
    expect(await orders.held(recordOf(7).id)).toBeNull();
    await rows({ view: 'history', offset: 0, limit: 10 });
    const reads = exchange.calls.length;
    const held = await orders.held(recordOf(280).id);
    expect(held?.executions.map((e) => e.id)).toEqual([
      `${recordOf(280).id}-e1`,
      `${recordOf(280).id}-e2`,
    ]);
    expect(exchange.calls).toHaveLength(reads);
    // Another network's lists hold none of this one's orders.
    exchange.state.network = 'preprod';
    expect(await orders.held(recordOf(280).id)).toBeNull();
  });

  it('never answers with one network’s list on another', async () => {
    const { rows, exchange } = setup({
      'sandbox|orderHistory': range(0, 5),
      'preprod|orderHistory': range(100, 102),
    });
    expect((await rows({ view: 'history', offset: 0, limit: 50, read: 'held' })).total).toBe(5);
    exchange.state.network = 'preprod';
    const other = await rows({ view: 'history', offset: 0, limit: 50, read: 'held' });
    expect(other.rows.map((r) => r.key)).toEqual(range(100, 102).map((o) => o.id));
  });
});

describe('OrdersService export', () => {
  it('writes the whole filtered list, however long, and says how many rows', async () => {
    const { orders, saved } = setup({ orderHistory: range(0, 1200) });
    const result = await orders.exportCsv({ what: 'orders', view: 'history', side: 'buy' });
    expect(result).toEqual({ fileName: 'countersign-orders-history-2025-03-01.csv', rows: 600 });
    const lines = saved[0]?.content.trim().split('\r\n') ?? [];
    expect(lines).toHaveLength(601);
    expect(lines.slice(1).every((line) => line.includes(',buy,'))).toBe(true);
  });

  it('says so when nothing matches the filters', async () => {
    const { orders } = setup({ tradingHistory: [] });
    await expect(orders.exportCsv({ what: 'fills', view: 'trades' })).rejects.toThrow(
      'There are no fills to export with these filters.',
    );
  });
});
