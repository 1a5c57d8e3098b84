import { MARKETS, type Market } from './assets.js';
import { orderFromRow, orderRow } from './engine.js';
import type { IdSequence } from './ids.js';
import type { Order } from './orders.js';
import { SnapshotError, int, list } from './snapshot-codec.js';

/** What a list of orders needs to know of an archived order without reading it whole. */
export interface ArchivedOrder {
  readonly seq: number;
  readonly market: Market;
  /** It has executions (trading history). */
  readonly traded: boolean;
  readonly line: number;
}

/**
 * The closed orders of traders, kept as the text of their snapshot rows: a closed order never
 * changes again, so it is written once (to the data folder's order archive) and read whole only
 * when asked for. Each line is `[seq, market, traded, account, id]` TAB `<order row>`; loading
 * reads only the part before the tab, so a start costs little however long the history is.
 */
export class OrderArchive {
  private readonly rows: string[] = [];
  private readonly byId = new Map<string, number>();
  private readonly byAccount = new Map<string, ArchivedOrder[]>();

  constructor(private readonly ids: IdSequence) {}

  get size(): number {
    return this.rows.length;
  }

  /** Takes a closed order in; returns its archive line (with the newline). */
  add(order: Order): string {
    const head = [
      order.seq,
      MARKETS.indexOf(order.market),
      order.executions.length > 0 ? 1 : 0,
      this.ids.compact(order.accountId),
      this.ids.compact(order.id),
    ];
    const line = `${JSON.stringify(head)}\t${JSON.stringify(orderRow(order, this.ids))}\n`;
    this.index(head, line.slice(line.indexOf('\t') + 1, -1));
    return line;
  }

  /** Reads an archive file's text (whole lines) into the index. */
  load(text: string): void {
    let offset = 0;
    while (offset < text.length) {
      const end = text.indexOf('\n', offset);
      const tab = text.indexOf('\t', offset);
      if (end < 0 || tab < 0 || tab > end) throw new SnapshotError('an archive line is cut');
      this.index(list(JSON.parse(text.slice(offset, tab))), text.slice(tab + 1, end));
      offset = end + 1;
    }
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The archived order with this id, read whole. */
  get(id: string): Order | undefined {
    const line = this.byId.get(id);
    return line === undefined ? undefined : this.read(line);
  }

  /** An account's archived orders, oldest first (by `seq`). */
  of(accountId: string): readonly ArchivedOrder[] {
    return this.byAccount.get(accountId) ?? [];
  }

  read(line: number): Order {
    return orderFromRow(list(JSON.parse(this.rows[line] as string)), this.ids);
  }

  private index(head: unknown[], row: string): void {
    const market = MARKETS[int(head[1])];
    if (!market) throw new SnapshotError('an archived order of an unknown market');
    const entry: ArchivedOrder = {
      seq: int(head[0]),
      market,
      traded: head[2] === 1,
      line: this.rows.length,
    };
    this.rows.push(row);
    this.byId.set(this.ids.expand(head[4] as number | string), entry.line);
    const accountId = this.ids.expand(head[3] as number | string);
    let orders = this.byAccount.get(accountId);
    if (!orders) {
      orders = [];
      this.byAccount.set(accountId, orders);
    }
    // Orders close in any order: keep each account's list sorted by when they were placed.
    let i = orders.length;
    while (i > 0 && (orders[i - 1] as ArchivedOrder).seq > entry.seq) i--;
    orders.splice(i, 0, entry);
  }
}
