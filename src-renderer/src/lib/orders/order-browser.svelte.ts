import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import {
  MAX_ORDER_ROWS,
  type Api,
  type OrderListRead,
  type OrderRows,
} from '../../../../src-shared/contract';
import {
  Order,
  type Market as MarketT,
  type Order as OrderT,
  type OrderStatus,
  type OrderView,
  type Side,
} from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { messageOf, unwrap } from '../api';
import type { MarketList } from '../shell/markets.svelte';
import { STATUSES_OF, type WireRow } from './rows';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

const VIEW_KEY = 'countersign.orders.view';

/** Rows are asked of main in blocks of this many: a screen is one or two of them. */
export const BLOCK = 50;
/** Blocks kept once read (scrolling back over them asks nothing); the farthest go first. */
const KEPT_BLOCKS = 40;
/** How long the window must stay put after a jump before its rows are asked for: two frames. */
const SETTLE_MS = 32;
/** Blocks one read may ask for: main answers at most MAX_ORDER_ROWS rows. */
const MAX_SPAN = Math.floor(MAX_ORDER_ROWS / BLOCK);

/**
 * The Orders screen's state: which list (open, history, trades) and its filters, the rows of it
 * that are on screen (main holds the list, which may run to hundreds of thousands; the table
 * asks for the rows it shows, a block at a time), the row the keyboard is on, the order opened in
 * detail, and the CSV export.
 */
export class OrderBrowser {
  /** Open orders until the trader picks another list (remembered in this window's storage). */
  view = $state<OrderView>('open');
  symbol = $state('');
  side = $state<'' | Side>('');
  status = $state<'' | OrderStatus>('');

  /** Rows in the whole filtered list, as main counts them. */
  total = $state(0);
  loading = $state(false);
  error = $state<string | null>(null);
  /** Main said the list changed since it was read (history and trades only). */
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

  readonly rowCount = $derived(this.total);
  readonly statuses = $derived(STATUSES_OF[this.view]);

  /** The rows read so far, by block. */
  private readonly blocks = new SvelteMap<number, readonly WireRow[]>();
  /** Which of main's reads of the list the blocks come from. */
  private version = 0;
  /** Bumped by every load: answers to an earlier one are dropped. */
  private epoch = 0;
  /** Blocks asked for and not answered yet. */
  private readonly asked = new SvelteSet<number>();
  /** The rows the table shows (plus its overscan): [start, end). */
  private window = { start: 0, end: 0 };
  /** Which way the list last scrolled by less than a screen (1 down, -1 up, 0 after a jump). */
  private ahead = 0;
  /** The frame that reads the window once it stays put after a jump, and from when it may. */
  private settling: number | undefined;
  private settleAt = 0;
  private detailSeq = 0;
  private readonly stops: Array<() => void> = [];

  /** `marketList`: the window's one list of the exchange's markets. */
  constructor(
    private readonly api: Api,
    private readonly marketList: MarketList,
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
  ) {
    const saved = this.storage?.getItem(VIEW_KEY);
    if (saved === 'open' || saved === 'history' || saved === 'trades') this.view = saved;
  }

  /** The exchange's markets, for the filter and the rows' units. */
  get markets(): MarketT[] {
    return this.marketList.list;
  }

  async start(): Promise<void> {
    if (this.stops.length === 0) this.listen();
    // Unreadable now (the exchange unreachable): the rows show symbols; asked again next time.
    void this.marketList.read().catch(() => undefined);
    await this.load();
  }

  /** The list every read and export of it names. */
  get query() {
    return {
      view: this.view,
      ...(this.symbol ? { symbol: this.symbol } : {}),
      ...(this.side ? { side: this.side } : {}),
      ...(this.status && this.view !== 'trades' ? { status: this.status } : {}),
    };
  }

  /** The row at `index` of the list, or undefined while it is being read. */
  rowAt(index: number): WireRow | undefined {
    return this.blocks.get(Math.floor(index / BLOCK))?.[index % BLOCK];
  }

  /** The id of the order behind a row (for the trading history: the order the fill belongs to). */
  orderIdAt(index: number): string | null {
    return this.rowAt(index)?.order.id ?? null;
  }

  /**
   * Reads the list as it stands (`fresh`: from the exchange, whatever main holds) and shows the
   * rows in view. `quiet` keeps the rows shown, without the reading state, until the new ones
   * arrive (a live change of the open orders).
   */
  async load(read: Exclude<OrderListRead, 'held'> = 'current', quiet = false): Promise<void> {
    const epoch = ++this.epoch;
    this.asked.clear();
    if (!quiet) {
      this.loading = true;
      this.error = null;
    }
    const [first, last] = this.blocksInView();
    try {
      const answer = await this.read(first, last, read);
      if (epoch !== this.epoch) return;
      this.replace(answer);
      this.error = null;
    } catch (error) {
      if (epoch === this.epoch) this.error = messageOf(error);
    } finally {
      if (epoch === this.epoch) this.loading = false;
    }
    if (epoch === this.epoch && this.error === null) this.fill();
  }

  /**
   * The table shows rows [start, end): those not read yet are asked for. After a jump of more
   * than a screen (the scrollbar dragged, End), only once the window stays put: rows a drag
   * passes over are gone before they could be read, so asking for them is work for nothing.
   */
  want(start: number, end: number): void {
    const moved = start - this.window.start;
    const jumped = Math.abs(moved) > Math.max(end - start, 1);
    // Scrolling a row or a page at a time: the next block that way is read before it shows, so
    // its rows come in with their records instead of "Reading…" first (each is one layout of
    // its text, not two).
    if (moved !== 0) this.ahead = jumped ? 0 : Math.sign(moved);
    this.window = { start, end };
    if (jumped && !this.loading) {
      this.settle();
      return;
    }
    this.unsettle();
    if (!this.loading) this.fill();
  }

  /**
   * Reads the window once it has stayed put for SETTLE_MS, checked each frame. (Not a timer: a
   * drag moves the window every frame, and each timer is an object the page's collector must
   * finalize, in the pause that costs a frame.)
   */
  private settle(): void {
    this.settleAt = Date.now() + SETTLE_MS;
    this.settling ??= requestAnimationFrame(this.settled);
  }

  private readonly settled = (): void => {
    if (Date.now() < this.settleAt) {
      this.settling = requestAnimationFrame(this.settled);
      return;
    }
    this.settling = undefined;
    this.fill();
  };

  private unsettle(): void {
    if (this.settling !== undefined) cancelAnimationFrame(this.settling);
    this.settling = undefined;
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
    this.epoch++;
    this.asked.clear();
    this.blocks.clear();
    this.total = 0;
    this.window = { start: 0, end: 0 };
    this.ahead = 0;
    this.active = 0;
    this.close();
  }

  /** The blocks the window covers: at least the first when nothing is in view yet. */
  private blocksInView(): [number, number] {
    const { start, end } = this.window;
    const first = Math.floor(start / BLOCK);
    const last = end > start ? Math.floor((end - 1) / BLOCK) : first + 1;
    return [first, Math.min(last, first + MAX_SPAN - 1)];
  }

  private read(first: number, last: number, read: OrderListRead) {
    return unwrap(
      this.api.orders.rows({
        ...this.query,
        offset: first * BLOCK,
        limit: (last - first + 1) * BLOCK,
        read,
      }),
    );
  }

  /**
   * Asks for the blocks in view, and the next one the way the list is scrolling, that are neither
   * read nor asked for, in one read.
   */
  private fill(): void {
    if (this.error !== null) return;
    const [inViewFirst, inViewLast] = this.blocksInView();
    const first = this.ahead < 0 ? Math.max(0, inViewFirst - 1) : inViewFirst;
    const last = this.ahead > 0 ? inViewLast + 1 : inViewLast;
    const missing: number[] = [];
    for (let block = first; block <= last; block++) {
      if (!this.blocks.has(block) && !this.asked.has(block) && block * BLOCK < this.total) {
        missing.push(block);
      }
    }
    const from = missing[0];
    const to = missing.at(-1);
    if (from === undefined || to === undefined) return;
    for (let block = from; block <= to; block++) this.asked.add(block);
    void this.readHeld(from, to);
  }

  private async readHeld(from: number, to: number): Promise<void> {
    const epoch = this.epoch;
    const version = this.version;
    try {
      const answer = await this.read(from, to, 'held');
      if (epoch !== this.epoch) return;
      for (let block = from; block <= to; block++) this.asked.delete(block);
      if (answer.version === this.version) this.take(answer);
      // Asked before the rows shown were replaced: asked again below.
      else if (version !== this.version) return this.fill();
      // Main read the list anew (the open orders moved): its rows replace the ones shown.
      else this.replace(answer);
      this.fill();
    } catch (error) {
      if (epoch !== this.epoch) return;
      for (let block = from; block <= to; block++) this.asked.delete(block);
      this.error = messageOf(error);
    }
  }

  /** Keeps an answer's rows by block, dropping the blocks farthest from view beyond the limit. */
  private take(answer: Serialized<OrderRows>): void {
    const blocks = this.blocks;
    const first = Math.floor(answer.offset / BLOCK);
    for (let k = 0; k * BLOCK < answer.rows.length; k++) {
      blocks.set(first + k, answer.rows.slice(k * BLOCK, (k + 1) * BLOCK));
    }
    if (blocks.size > KEPT_BLOCKS) {
      const here = Math.floor(this.window.start / BLOCK);
      const far = [...blocks.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here));
      for (const block of far.slice(0, blocks.size - KEPT_BLOCKS)) blocks.delete(block);
    }
    this.total = answer.total;
    this.active = Math.min(this.active, Math.max(0, this.total - 1));
  }

  /**
   * Shows the rows of a list main read anew in place of those shown. The keyboard's row stays on
   * the record it was on (an order placed above it would otherwise move the mark onto another
   * order); when that record left the list, the mark stays where it was, on the row now there.
   */
  private replace(answer: Serialized<OrderRows>): void {
    const kept = this.rowAt(this.active)?.key;
    this.version = answer.version;
    this.blocks.clear();
    this.stale = false;
    this.take(answer);
    if (kept === undefined) return;
    for (const [block, rows] of this.blocks) {
      const at = rows.findIndex((row) => row.key === kept);
      if (at >= 0) {
        this.active = block * BLOCK + at;
        return;
      }
    }
  }

  /**
   * Shows an order in detail: the record as main's lists hold it at once (main asks the exchange
   * nothing for it), then main's fresh one from the exchange, with every execution. If the
   * exchange cannot be reached, the held record stays with the error beside it.
   */
  async open(orderId: string): Promise<void> {
    const seq = ++this.detailSeq;
    const again = this.openId === orderId;
    this.openId = orderId;
    this.detailError = null;
    this.detailLoading = true;
    let answered = false;
    const shown = (record: unknown): boolean => {
      const read = Order.safeParse(record);
      if (read.success) this.detail = read.data;
      return read.success;
    };
    // The same order opened again (after a cancel) keeps the record it shows until the fresh
    // one: what main's lists hold is no newer.
    if (!again) {
      this.detail = null;
      void unwrap(this.api.orders.held({ orderId })).then(
        (held) => {
          if (seq === this.detailSeq && !answered && held) shown(held);
        },
        () => undefined,
      );
    }
    try {
      const fresh = await unwrap(this.api.orders.get({ orderId }));
      if (seq !== this.detailSeq) return;
      answered = shown(fresh);
      if (!answered && !this.detail) this.detailError = 'This order record could not be read.';
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
      this.api.on('orders:changed', ({ views }) => {
        if (!views.includes(this.view)) return;
        // Open orders follow live; a long history waits for the trader to read it again.
        if (this.view === 'open') void this.load('current', true);
        else this.stale = true;
      }),
    );
  }

  dispose(): void {
    this.unsettle();
    for (const stop of this.stops.splice(0)) stop();
  }
}
