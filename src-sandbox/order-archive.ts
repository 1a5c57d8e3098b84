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

/** The archive file, read back by byte range (a line without its newline). */
export interface ArchiveSource {
  read(offset: number, length: number): string;
  /** The index does not match the file: it must not be used again (the next start rebuilds it). */
  distrust(): void;
}

/**
 * The index of an archive: for each line, in file order, what lists need (`seq`, market,
 * traded), whose it is (account and order ids, compact) and where it is (byte offset and length,
 * newline excluded). Columns of one JSON object: a start reads it in one parse.
 */
export interface ArchiveIndex {
  seq: number[];
  market: number[];
  traded: number[];
  account: Array<number | string>;
  id: Array<number | string>;
  offset: number[];
  length: number[];
}

const NEWLINE = 0x0a;
const TAB = 0x09;

/** A line's head: `[seq, market, traded, account, id]` (ids compact). */
type Head = [number, number, number, number | string, number | string];

const isCompactId = (value: unknown): value is number | string =>
  typeof value === 'string' || Number.isSafeInteger(value);

/**
 * The closed orders of traders, kept as the text of their snapshot rows: a closed order never
 * changes again, so it is written once (to the data folder's order archive) and read whole only
 * when asked for. Each line is `[seq, market, traded, account, id]` TAB `<order row>`.
 *
 * A start reads the archive's index (written with each snapshot) instead of the archive: rows
 * stay in the file and are read back by byte range when asked for; each read checks that the
 * line is the one the index says (else the index is distrusted and the read fails). What the
 * index does not cover (written after it, or all of it when it is missing or damaged) is read
 * from the archive itself.
 */
export class OrderArchive {
  private readonly entries: ArchivedOrder[] = [];
  /** Each line's head, as written (`[seq, market, traded, account, id]`). */
  private readonly heads: Head[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  /** Rows held in memory (archived by this run); the others are read from `source`. */
  private readonly rows: Array<string | undefined> = [];
  private readonly byId = new Map<number | string, number>();
  private readonly byAccount = new Map<number | string, ArchivedOrder[]>();
  private source: ArchiveSource | undefined;
  /** Bytes of the archive file the lines make up. */
  private bytes = 0;

  constructor(private readonly ids: IdSequence) {}

  get size(): number {
    return this.entries.length;
  }

  /** Bytes of archive the index covers (every line, newlines included). */
  get coveredBytes(): number {
    return this.bytes;
  }

  /** Takes a closed order in; returns its archive line (with the newline). */
  add(order: Order): string {
    const head: Head = [
      order.seq,
      MARKETS.indexOf(order.market),
      order.executions.length > 0 ? 1 : 0,
      this.ids.compact(order.accountId),
      this.ids.compact(order.id),
    ];
    const headText = JSON.stringify(head);
    const row = JSON.stringify(orderRow(order, this.ids));
    const line = `${headText}\t${row}`;
    this.index(head, this.bytes, Buffer.byteLength(line), row);
    return `${line}\n`;
  }

  /**
   * Reads archive text (whole lines) into the index; `offset` is where it starts in the file.
   * Rows are kept in memory, unless `source` is given to read them back from when asked for.
   */
  load(text: string | Buffer, offset = this.bytes, source?: ArchiveSource): void {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (offset !== this.bytes) throw new SnapshotError('archive text out of place');
    let at = 0;
    while (at < bytes.length) {
      const end = bytes.indexOf(NEWLINE, at);
      const tab = bytes.indexOf(TAB, at);
      if (end < 0 || tab < 0 || tab > end) throw new SnapshotError('an archive line is cut');
      const head = this.headOf(JSON.parse(bytes.toString('utf8', at, tab)));
      const row = source ? undefined : bytes.toString('utf8', tab + 1, end);
      this.index(head, offset + at, end - at, row);
      at = end + 1;
    }
    if (source) this.source = source;
  }

  /**
   * Reads an index, keeping the lines that lie wholly within the first `bytes` of the archive
   * (an index written just before a compaction that did not finish covers more); rows are read
   * from `source`. Throws if the index is not one of a well-formed archive (then the caller reads
   * the archive instead).
   */
  loadIndex(index: ArchiveIndex, bytes: number, source: ArchiveSource): void {
    if (this.entries.length > 0) throw new SnapshotError('an index loads into an empty archive');
    const { seq, market, traded, account, id, offset, length } = index;
    const n = Array.isArray(seq) ? seq.length : -1;
    for (const column of [market, traded, account, id, offset, length]) {
      if (!Array.isArray(column) || column.length !== n) {
        throw new SnapshotError('index columns differ in length');
      }
    }
    // Checked whole before anything is taken: an index is used entirely or not at all.
    let kept = 0;
    let end = 0;
    for (let i = 0; i < n; i++) {
      const size = length[i];
      if (offset[i] !== end || size === undefined || !Number.isSafeInteger(size) || size <= 0) {
        throw new SnapshotError('index lines are not contiguous');
      }
      if (end + size + 1 > bytes) break;
      if (
        !Number.isSafeInteger(seq[i]) ||
        MARKETS[market[i] as number] === undefined ||
        (traded[i] !== 0 && traded[i] !== 1) ||
        !isCompactId(account[i]) ||
        !isCompactId(id[i])
      ) {
        throw new SnapshotError('an index line is not one this sandbox wrote');
      }
      end += size + 1;
      kept++;
    }
    for (let i = 0; i < kept; i++) {
      const head: Head = [
        seq[i] as number,
        market[i] as number,
        traded[i] as number,
        account[i] as number | string,
        id[i] as number | string,
      ];
      this.index(head, offset[i] as number, length[i] as number, undefined);
    }
    this.source = source;
  }

  /** The index as written next to the archive (see `ArchiveIndex`). */
  indexOf(): ArchiveIndex {
    return {
      seq: this.heads.map((h) => h[0]),
      market: this.heads.map((h) => h[1]),
      traded: this.heads.map((h) => h[2]),
      account: this.heads.map((h) => h[3]),
      id: this.heads.map((h) => h[4]),
      offset: [...this.offsets],
      length: [...this.lengths],
    };
  }

  has(id: string): boolean {
    return this.byId.has(this.ids.compact(id));
  }

  /** The archived order with this id, read whole. */
  get(id: string): Order | undefined {
    const line = this.byId.get(this.ids.compact(id));
    return line === undefined ? undefined : this.read(line);
  }

  /** An account's archived orders, oldest first (by `seq`). */
  of(accountId: string): readonly ArchivedOrder[] {
    return this.byAccount.get(this.ids.compact(accountId)) ?? [];
  }

  read(line: number): Order {
    return orderFromRow(list(JSON.parse(this.rowOf(line))), this.ids);
  }

  private rowOf(line: number): string {
    const held = this.rows[line];
    if (held !== undefined) return held;
    const head = this.heads[line];
    if (!this.source || !head) throw new SnapshotError('an archived order is not at hand');
    const text = this.source.read(this.offsets[line] as number, this.lengths[line] as number);
    const tab = text.indexOf('\t');
    // The line must be the one the index says: else the index is not trusted again.
    if (tab < 0 || text.slice(0, tab) !== JSON.stringify(head)) {
      this.source.distrust();
      throw new SnapshotError('the order archive does not match its index');
    }
    return text.slice(tab + 1);
  }

  private headOf(value: unknown): Head {
    const [seq, market, traded, account, id] = list(value);
    if (!isCompactId(account) || !isCompactId(id)) throw new SnapshotError('an archived id is bad');
    return [int(seq), int(market), traded === 1 ? 1 : 0, account, id];
  }

  private index(head: Head, offset: number, length: number, row: string | undefined): void {
    const market = MARKETS[head[1]];
    if (!market) throw new SnapshotError('an archived order of an unknown market');
    const entry: ArchivedOrder = {
      seq: head[0],
      market,
      traded: head[2] === 1,
      line: this.entries.length,
    };
    this.entries.push(entry);
    this.heads.push(head);
    this.offsets.push(offset);
    this.lengths.push(length);
    this.rows.push(row);
    this.bytes = offset + length + 1;
    this.byId.set(head[4], entry.line);
    let orders = this.byAccount.get(head[3]);
    if (!orders) {
      orders = [];
      this.byAccount.set(head[3], orders);
    }
    // Orders close in any order: keep each account's list sorted by when they were placed.
    let i = orders.length;
    while (i > 0 && (orders[i - 1] as ArchivedOrder).seq > entry.seq) i--;
    orders.splice(i, 0, entry);
  }
}
