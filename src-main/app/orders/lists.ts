import {
  orderRowOf,
  type OrderFilters,
  type OrderListRead,
  type OrderRow,
  type OrderRows,
} from '../../../src-shared/contract';
import type { Execution, Order, OrderView } from '../../../src-shared/domain';

/**
 * Every record of a view, for one market or all (''), as the exchange lists them, each once (the
 * service's reader leaves out records a moving list repeated).
 */
export type LoadList = () => Promise<Order[]>;

export const ORDER_VIEWS: readonly OrderView[] = ['open', 'history', 'trades'];

/** Lists held at once (each may be hundreds of thousands of records): the least used go first. */
const MAX_LISTS = 4;
/** Filtered row lists kept per list (a filter the trader flips back to is not rebuilt). */
const MAX_FILTERS = 6;

interface HeldList {
  network: string;
  view: OrderView;
  /** The market the exchange was asked for; '' for every market. */
  symbol: string;
  /** Unique across every list main ever held: a higher number is a newer read. */
  version: number;
  /** The view's count of changes when this was read: behind the count, it is out of date. */
  generation: number;
  orders: readonly Order[];
  /** The rows of each filter (`symbol|side|status`), found the first time they are asked for. */
  rows: Map<string, Rows>;
}

/**
 * A filtered list's rows: an order list keeps its orders and makes rows only for the slice
 * asked for (a list of 100,000 is not copied into 100,000 rows to answer 50 of them). A row
 * sent holds only what its line shows (`orderRowOf`).
 */
interface Rows {
  readonly length: number;
  slice(start: number, end: number): OrderRow[];
}

const orderRows = (orders: readonly Order[]): Rows => ({
  length: orders.length,
  slice: (start, end) => orders.slice(start, end).map((order) => orderRowOf(order.id, order, null)),
});

/** One fill of the trading history with its whole order, as main holds it. */
interface FillRow {
  key: string;
  order: Order;
  execution: Execution;
}

const fillRows = (rows: readonly FillRow[]): Rows => ({
  length: rows.length,
  slice: (start, end) =>
    rows.slice(start, end).map((row) => orderRowOf(row.key, row.order, row.execution)),
});

/** The first record of each id (a list read or pushed can repeat one). */
export const uniqueOrders = (orders: readonly Order[]): Order[] => {
  const seen = new Set<string>();
  return orders.filter((order) => !seen.has(order.id) && seen.add(order.id));
};

/** The trading history: one row per fill, newest first (a stable sort keeps ties in order). */
const fillRowsOf = (orders: readonly Order[]): FillRow[] => {
  const rows: FillRow[] = [];
  const seen = new Set<string>();
  for (const order of orders) {
    for (const execution of order.executions) {
      const key = `${order.id}:${execution.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ key, order, execution });
    }
  }
  return rows.sort((a, b) => {
    const x = a.execution.createdAt;
    const y = b.execution.createdAt;
    return x < y ? 1 : x > y ? -1 : 0;
  });
};

/** What tells one read of the open list from another: which orders, in which state. */
const fingerprintOf = (orders: readonly Order[]): string =>
  orders.map((o) => `${o.id} ${o.status} ${o.executedBaseQty.toFixed()} ${o.updatedAt}`).join('\n');

/**
 * The trader's order lists as main last read them, per network, view and market: the screens
 * ask for the rows they show (a window of a list that may hold hundreds of thousands), filtered
 * and paged here, so a long history never crosses to the renderer whole. A list is read from the
 * exchange once and held until main learns it changed; while it is read again, the held one
 * still answers whoever scrolls through it.
 */
export class OrderLists {
  /** In order of last use. */
  readonly #held = new Map<string, HeldList>();
  readonly #reading = new Map<string, Promise<HeldList>>();
  readonly #generation: Record<OrderView, number> = { open: 0, history: 0, trades: 0 };
  /** The open list each network last pushed, to tell a real change from a repeat. */
  readonly #openSeen = new Map<string, string>();
  #version = 0;

  /** One slice of a filtered list, with its length and which read it comes from. */
  async rows(
    network: string,
    request: OrderFilters & { offset: number; limit: number; read: OrderListRead },
    load: LoadList,
  ): Promise<OrderRows> {
    const list = await this.#list(network, request.view, request.symbol ?? '', request.read, load);
    const rows = this.#rowsOf(list, request);
    return {
      total: rows.length,
      offset: request.offset,
      version: list.version,
      rows: rows.slice(request.offset, request.offset + request.limit),
    };
  }

  /** Every order of a filtered list (CSV export, the open orders panel, a filtered page). */
  async orders(
    network: string,
    filters: OrderFilters,
    read: OrderListRead,
    load: LoadList,
  ): Promise<Order[]> {
    const list = await this.#list(network, filters.view, filters.symbol ?? '', read, load);
    return list.orders.filter(matches(filters));
  }

  /** An order as the lists held for `network` last read it, the most recently used first. */
  held(network: string, orderId: string): Order | undefined {
    for (const list of [...this.#held.values()].reverse()) {
      if (list.network !== network) continue;
      const order = list.orders.find((o) => o.id === orderId);
      if (order) return order;
    }
    return undefined;
  }

  /** Main learned these lists changed: the next `current` read of them reads them again. */
  changed(views: readonly OrderView[]): void {
    for (const view of views) this.#generation[view] += 1;
  }

  /**
   * The exchange pushed (or was polled for) the open list: every open list held for the network
   * becomes it. Returns the views that changed: none when the list is the one seen last; with
   * any other change (an order placed, traded, cancelled) the history lists move too, except on
   * the first list a network pushes, which only sets where changes are counted from.
   */
  openOrdersRead(network: string, orders: readonly Order[]): OrderView[] {
    const fingerprint = fingerprintOf(orders);
    const before = this.#openSeen.get(network);
    if (before === fingerprint) return [];
    this.#openSeen.set(network, fingerprint);
    const open = uniqueOrders(orders);
    let whole = false;
    for (const [key, list] of [...this.#held]) {
      if (list.network !== network || list.view !== 'open') continue;
      whole ||= list.symbol === '';
      this.#hold(key, this.#newList(network, 'open', list.symbol, this.#generation.open, open));
    }
    if (!whole) {
      this.#hold(
        keyOf(network, 'open', ''),
        this.#newList(network, 'open', '', this.#generation.open, open),
      );
    }
    if (before === undefined) return ['open'];
    this.changed(['history', 'trades']);
    return [...ORDER_VIEWS];
  }

  /** The list to answer from, read from the exchange when `read` asks for it. */
  async #list(
    network: string,
    view: OrderView,
    symbol: string,
    read: OrderListRead,
    load: LoadList,
  ): Promise<HeldList> {
    const key = keyOf(network, view, symbol);
    const usable = (list: HeldList | undefined): list is HeldList =>
      list !== undefined &&
      (read === 'held' || (read === 'current' && list.generation === this.#generation[view]));
    const exact = this.#held.get(key);
    if (usable(exact)) return this.#use(key, exact);
    // One market of a list held for every market is filtered here, not read again.
    const everyMarket = symbol ? this.#held.get(keyOf(network, view, '')) : undefined;
    if (!exact && usable(everyMarket)) return this.#use(keyOf(network, view, ''), everyMarket);

    let pending = this.#reading.get(key);
    if (!pending) {
      const generation = this.#generation[view];
      const since = this.#version;
      pending = load()
        .then((orders) => {
          const newer = this.#held.get(key);
          // Pushed while this read ran (the open list): what was pushed is the newer.
          if (newer && newer.version > since) return newer;
          const list = this.#newList(network, view, symbol, generation, orders);
          this.#hold(key, list);
          return list;
        })
        .finally(() => this.#reading.delete(key));
      this.#reading.set(key, pending);
    }
    return pending;
  }

  #newList(
    network: string,
    view: OrderView,
    symbol: string,
    generation: number,
    orders: readonly Order[],
  ): HeldList {
    this.#version += 1;
    return { network, view, symbol, version: this.#version, generation, orders, rows: new Map() };
  }

  #use(key: string, list: HeldList): HeldList {
    this.#held.delete(key);
    this.#held.set(key, list);
    return list;
  }

  #hold(key: string, list: HeldList): void {
    this.#use(key, list);
    for (const oldest of this.#held.keys()) {
      if (this.#held.size <= MAX_LISTS) break;
      this.#held.delete(oldest);
    }
  }

  #rowsOf(list: HeldList, filters: OrderFilters): Rows {
    const key = `${filters.symbol ?? ''}|${filters.side ?? ''}|${filters.status ?? ''}`;
    let rows = list.rows.get(key);
    if (rows) {
      list.rows.delete(key);
    } else {
      const orders = key === '||' ? list.orders : list.orders.filter(matches(filters));
      rows = list.view === 'trades' ? fillRows(fillRowsOf(orders)) : orderRows(orders);
    }
    list.rows.set(key, rows);
    for (const oldest of list.rows.keys()) {
      if (list.rows.size <= MAX_FILTERS) break;
      list.rows.delete(oldest);
    }
    return rows;
  }
}

const keyOf = (network: string, view: OrderView, symbol: string): string =>
  `${network}|${view}|${symbol}`;

const matches =
  (filters: OrderFilters) =>
  (order: Order): boolean =>
    (!filters.symbol || order.symbol === filters.symbol) &&
    (!filters.side || order.side === filters.side) &&
    (!filters.status || order.status === filters.status);
