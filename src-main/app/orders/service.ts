import type { OrderQuery } from '../../../src-shared/contract';
import type { Order, OrderPage, OrderStatus, OrderView } from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import type { NetworkService } from '../network/service';
import { fillsCsv, ordersCsv } from './csv';

/** Saves a file where the trader chooses (Electron: the save dialog); null when cancelled. */
export type SaveFile = (
  suggestedName: string,
  content: string,
) => Promise<{ fileName: string } | null>;

export interface OrdersDeps {
  network: NetworkService;
  apiKey: () => string;
  saveFile: SaveFile;
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
const CACHE_MS = 3000;

interface Filters {
  view: OrderView;
  symbol?: string | undefined;
  side?: 'buy' | 'sell' | undefined;
  status?: OrderStatus | undefined;
}

/**
 * The trader's order records: open orders, order history and trading history, each filtered by
 * symbol, side and status; one order with its executions; CSV export. The cache is per network,
 * so one exchange's records never show on another.
 */
export class OrdersService {
  readonly #cache = new Map<string, { at: number; orders: Promise<Order[]> }>();

  constructor(private readonly deps: OrdersDeps) {}

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Forget cached lists (after an order, a cancel, a fill, or a network switch). */
  invalidate(): void {
    this.#cache.clear();
  }

  async #client() {
    const connection = await this.deps.network.connection();
    return { connection, client: await connection.client(this.deps.apiKey()) };
  }

  async list(query: OrderQuery & { page: number; limit: number }): Promise<OrderPage> {
    const { client } = await this.#client();
    if (!query.side && !query.status) {
      return client.orderRecords({
        status: STATUS_OF_VIEW[query.view],
        page: query.page,
        limit: query.limit,
        ...(query.symbol ? { symbol: query.symbol } : {}),
      });
    }
    // The exchange filters by symbol only: side and status are filtered here, then paged.
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

  async all(filters: Filters): Promise<Order[]> {
    const { connection, client } = await this.#client();
    const key = `${connection.key}|${filters.view}|${filters.symbol ?? ''}`;
    const cached = this.#cache.get(key);
    let orders: Promise<Order[]>;
    if (cached && this.#now() - cached.at < CACHE_MS) orders = cached.orders;
    else {
      orders = (async () => {
        const out: Order[] = [];
        for (let page = 1; page <= MAX_PAGES; page += 1) {
          const records = await client.orderRecords({
            status: STATUS_OF_VIEW[filters.view],
            page,
            limit: 250,
            ...(filters.symbol ? { symbol: filters.symbol } : {}),
          });
          out.push(...records.orders);
          if (page >= records.totalPages || records.orders.length < 250) break;
        }
        return out;
      })();
      this.#cache.set(key, { at: this.#now(), orders });
      orders.catch(() => this.#cache.delete(key));
    }
    return (await orders).filter(
      (o) =>
        (!filters.symbol || o.symbol === filters.symbol) &&
        (!filters.side || o.side === filters.side) &&
        (!filters.status || o.status === filters.status),
    );
  }

  async get(orderId: string): Promise<Order> {
    const { client } = await this.#client();
    return client.order(orderId);
  }

  async exportCsv(
    request: Filters & { what: 'orders' | 'fills' },
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
    );
    return saved ? { fileName: saved.fileName, rows } : null;
  }
}
