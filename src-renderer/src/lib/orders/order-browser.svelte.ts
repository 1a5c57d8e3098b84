import type { Api } from '../../../../src-shared/contract';
import {
  Market,
  Order,
  type Market as MarketT,
  type Order as OrderT,
  type OrderStatus,
  type OrderView,
  type Side,
} from '../../../../src-shared/domain';
import { messageOf, unwrap } from '../api';
import { fillRows, STATUSES_OF, type FillRow, type WireOrder } from './rows';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

const VIEW_KEY = 'countersign.orders.view';

/**
 * The Orders screen's state: which list (open, history, trades), its filters, every record of it
 * (up to the exchange's hundreds of thousands, held as they crossed from main and parsed only when
 * shown), the row the keyboard is on, the order opened in detail, and the CSV export.
 */
export class OrderBrowser {
  view = $state<OrderView>('history');
  symbol = $state('');
  side = $state<'' | Side>('');
  status = $state<'' | OrderStatus>('');
  markets = $state.raw<MarketT[]>([]);

  orders = $state.raw<WireOrder[]>([]);
  loading = $state(false);
  error = $state<string | null>(null);
  /** Main said an order changed since this list was read (history and trades only). */
  stale = $state(false);

  /** The row the keyboard is on (index in `rowCount`). */
  active = $state(0);
  /** The order shown in detail. */
  openId = $state<string | null>(null);
  detail = $state.raw<OrderT | null>(null);
  detailLoading = $state(false);
  detailError = $state<string | null>(null);

  exporting = $state<'orders' | 'fills' | null>(null);
  notice = $state.raw<Notice | null>(null);

  /** The trading history's rows: one per fill. */
  readonly fills: FillRow[] = $derived(this.view === 'trades' ? fillRows(this.orders) : []);
  readonly rowCount = $derived(this.view === 'trades' ? this.fills.length : this.orders.length);
  readonly statuses = $derived(STATUSES_OF[this.view]);

  private seq = 0;
  private detailSeq = 0;
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly api: Api,
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
  ) {
    const saved = this.storage?.getItem(VIEW_KEY);
    if (saved === 'open' || saved === 'history' || saved === 'trades') this.view = saved;
  }

  async start(): Promise<void> {
    if (this.stops.length === 0) this.listen();
    void unwrap(this.api.market.markets()).then(
      (markets) =>
        (this.markets = markets.flatMap((m) => {
          const parsed = Market.safeParse(m);
          return parsed.success ? [parsed.data] : [];
        })),
      () => undefined,
    );
    await this.load();
  }

  /** The query every read and export of this list uses. */
  get query() {
    return {
      view: this.view,
      ...(this.symbol ? { symbol: this.symbol } : {}),
      ...(this.side ? { side: this.side } : {}),
      ...(this.status && this.view !== 'trades' ? { status: this.status } : {}),
    };
  }

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    this.error = null;
    try {
      const orders = await unwrap(this.api.orders.all(this.query));
      if (seq !== this.seq) return;
      this.orders = orders;
      this.stale = false;
      this.active = Math.min(this.active, Math.max(0, this.rowCount - 1));
    } catch (error) {
      if (seq === this.seq) this.error = messageOf(error);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  async show(view: OrderView): Promise<void> {
    if (view === this.view) return;
    this.view = view;
    this.storage?.setItem(VIEW_KEY, view);
    if (!STATUSES_OF[view].includes(this.status as OrderStatus)) this.status = '';
    this.reset();
    await this.load();
  }

  async filter(change: { symbol?: string; side?: '' | Side; status?: '' | OrderStatus }) {
    if (change.symbol !== undefined) this.symbol = change.symbol;
    if (change.side !== undefined) this.side = change.side;
    if (change.status !== undefined) this.status = change.status;
    this.reset();
    await this.load();
  }

  private reset(): void {
    this.orders = [];
    this.active = 0;
    this.close();
  }

  /** The order behind a row (for the trading history: the order the fill belongs to). */
  orderAt(index: number): WireOrder | null {
    if (this.view === 'trades') return this.fills[index]?.order ?? null;
    return this.orders[index] ?? null;
  }

  async open(orderId: string): Promise<void> {
    const seq = ++this.detailSeq;
    this.openId = orderId;
    this.detailError = null;
    this.detailLoading = true;
    // What the list holds shows at once; main's fresh record (with every execution) follows.
    const known = this.orders.find((o) => o.id === orderId);
    const parsedKnown = known ? Order.safeParse(known) : null;
    this.detail = parsedKnown?.success ? parsedKnown.data : null;
    try {
      const fresh = Order.safeParse(await unwrap(this.api.orders.get({ orderId })));
      if (seq !== this.detailSeq) return;
      if (fresh.success) this.detail = fresh.data;
      else if (!this.detail) this.detailError = 'This order record could not be read.';
    } catch (error) {
      if (seq === this.detailSeq) this.detailError = messageOf(error);
    } finally {
      if (seq === this.detailSeq) this.detailLoading = false;
    }
  }

  close(): void {
    this.detailSeq++;
    this.openId = null;
    this.detail = null;
    this.detailError = null;
    this.detailLoading = false;
  }

  async exportCsv(what: 'orders' | 'fills'): Promise<void> {
    if (this.exporting) return;
    this.exporting = what;
    this.notice = null;
    try {
      const saved = await unwrap(this.api.orders.exportCsv({ what, ...this.query }));
      if (saved) {
        const n = saved.rows.toLocaleString('en-US');
        this.notice = {
          kind: 'success',
          text: `Saved ${n} ${what === 'orders' ? 'order' : 'fill'}${saved.rows === 1 ? '' : 's'} to ${saved.fileName}.`,
        };
      }
    } catch (error) {
      this.notice = { kind: 'error', text: messageOf(error) };
    } finally {
      this.exporting = null;
    }
  }

  private listen(): void {
    this.stops.push(
      this.api.on('orders:open', (open) => {
        if (this.view === 'open') {
          this.orders = open.filter(
            (o) =>
              (!this.symbol || o.symbol === this.symbol) &&
              (!this.side || o.side === this.side) &&
              (!this.status || o.status === this.status),
          );
          this.active = Math.min(this.active, Math.max(0, this.rowCount - 1));
        } else {
          this.stale = true;
        }
      }),
      this.api.on('orders:filled', () => {
        if (this.view !== 'open') this.stale = true;
      }),
    );
  }

  dispose(): void {
    for (const stop of this.stops.splice(0)) stop();
  }
}
