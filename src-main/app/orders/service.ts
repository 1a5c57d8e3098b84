import type {
  EmitEvent,
  OrderFilters,
  OrderListRead,
  OrderQuery,
  OrderRows,
} from '../../../src-shared/contract';
import type { Order, OrderPage, OrderView } from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import type { ExchangeClient } from '../../exchange';
import { fillsCsv, ordersCsv } from './csv';
import type { SaveFile } from '../files';
import { OrderLists, ORDER_VIEWS, uniqueOrders } from './lists';

/** What the orders area needs of the exchange: its order records. */
export type OrderRecordsClient = Pick<ExchangeClient, 'orderRecords' | 'order'>;

/** The current network's exchange (the network service's connection). */
export interface OrdersConnection {
  /** Which network: lists of one are never served on another. */
  readonly key: string;
  client(apiKey: string): Promise<OrderRecordsClient>;
}

export interface OrdersDeps {
  network: { connection(): Promise<OrdersConnection> };
  apiKey: () => string;
  saveFile: SaveFile;
  emit: EmitEvent;
  now?: () => number;
}

/** The exchange's status filter for each list (the real service's names, which the seed's `open` matches). */
const STATUS_OF_VIEW: Readonly<Record<OrderView, string>> = {
  open: 'open',
  history: 'orderHistory',
  trades: 'tradingHistory',
};

/** The most records one listing gathers (1000 pages of 250, the exchange's own bounds). */
const MAX_PAGES = 1000;
const PAGE = 250;

/**
 * The trader's order records: open orders, order history and trading history, each filtered by
 * symbol, side and status and served a window of rows at a time; one order with its executions;
 * CSV export. Lists are held per network, so one exchange's records never show on another.
 */
export class OrdersService {
  readonly #lists = new OrderLists();

  constructor(private readonly deps: OrdersDeps) {}

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Every list may have changed (the trader placed or cancelled an order). */
  invalidate(): void {
    this.#lists.changed(ORDER_VIEWS);
    this.deps.emit('orders:changed', { views: [...ORDER_VIEWS] });
  }

  /** The exchange said the order or trading history changed. */
  historyChanged(): void {
    this.#lists.changed(['history', 'trades']);
    this.deps.emit('orders:changed', { views: ['history', 'trades'] });
  }

  /** The account feed read the open list (pushed or polled) on `network`. */
  openOrdersRead(network: string, orders: readonly Order[]): void {
    const views = this.#lists.openOrdersRead(network, orders);
    if (views.length) this.deps.emit('orders:changed', { views });
  }

  async #client() {
    const connection = await this.deps.network.connection();
    return { connection, client: await connection.client(this.deps.apiKey()) };
  }

  async list(query: OrderQuery & { page: number; limit: number }): Promise<OrderPage> {
    if (!query.symbol && !query.side && !query.status) {
      const { client } = await this.#client();
      return client.orderRecords({
        status: STATUS_OF_VIEW[query.view],
        page: query.page,
        limit: query.limit,
      });
    }
    // Filtered here, then paged: the exchange filters by symbol at most, and the seed's endpoint
    // names no market filter (an exchange that ignores it would list every market).
    const all = await this.all(query);
    const start = (query.page - 1) * query.limit;
    return {
      orders: all.slice(start, start + query.limit),
      page: query.page,
      limit: query.limit,
      totalCount: all.length,
      totalPages: Math.ceil(all.length / query.limit),
    };
  }

  /** One window of a list's rows. */
  async rows(
    request: OrderFilters & { offset: number; limit: number; read: OrderListRead },
  ): Promise<OrderRows> {
    const { connection, client } = await this.#client();
    return this.#lists.rows(connection.key, request, () => readAll(client, request));
  }

  /** Every order of a filtered list, read again if main learned it changed. */
  async all(filters: OrderFilters): Promise<Order[]> {
    const { connection, client } = await this.#client();
    return this.#lists.orders(connection.key, filters, 'current', () => readAll(client, filters));
  }

  async get(orderId: string): Promise<Order> {
    const { client } = await this.#client();
    return client.order(orderId);
  }

  /** An order as a list main holds read it (no call to the exchange); null when none holds it. */
  async held(orderId: string): Promise<Order | null> {
    const connection = await this.deps.network.connection();
    return this.#lists.held(connection.key, orderId) ?? null;
  }

  async exportCsv(
    request: OrderFilters & { what: 'orders' | 'fills' },
  ): Promise<{ fileName: string; rows: number } | null> {
    const orders = await this.all(request);
    const rows =
      request.what === 'orders'
        ? orders.length
        : orders.reduce((n, o) => n + o.executions.length, 0);
    if (rows === 0) {
      throw new AppError(
        ErrorCode.NotFound,
        `There are no ${request.what === 'orders' ? 'orders' : 'fills'} to export with these filters.`,
      );
    }
    const content = request.what === 'orders' ? ordersCsv(orders) : fillsCsv(orders);
    const day = new Date(this.#now()).toISOString().slice(0, 10);
    const saved = await this.deps.saveFile(
      `countersign-${request.what}-${request.view}-${day}.csv`,
      content,
      'csv',
    );
    return saved ? { fileName: saved.fileName, rows } : null;
  }
}

/**
 * Every record of a view (one market, or all), page by page as the exchange serves them, each
 * once. A record can come twice when the list moves while it is read: an order placed meanwhile
 * pushes the rest down, so a page starts with the last records of the one before. Those are left
 * out page by page (a comparison of a few ids); only when the list's count changed during the
 * read, so records may have moved further than a page, is every id checked (for 100,000 records
 * that costs more than the rest of the read).
 */
const readAll = async (client: OrderRecordsClient, filters: OrderFilters): Promise<Order[]> => {
  const out: Order[] = [];
  const counts = new Set<number>();
  let before: readonly Order[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const records = await client.orderRecords({
      status: STATUS_OF_VIEW[filters.view],
      page,
      limit: PAGE,
      ...(filters.symbol ? { symbol: filters.symbol } : {}),
    });
    counts.add(records.totalCount);
    const repeated = overlap(before, records.orders);
    for (let k = repeated; k < records.orders.length; k++) out.push(records.orders[k] as Order);
    before = records.orders;
    if (page >= records.totalPages || records.orders.length < PAGE) break;
  }
  return counts.size > 1 ? uniqueOrders(out) : out;
};

/** How many records `page` starts with that end the page read before it. */
const overlap = (before: readonly Order[], page: readonly Order[]): number => {
  const first = page[0];
  if (!first) return 0;
  const at = before.findLastIndex((order) => order.id === first.id);
  if (at < 0) return 0;
  let k = 0;
  while (at + k < before.length && page[k]?.id === before[at + k]?.id) k++;
  return k;
};
