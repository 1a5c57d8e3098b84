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
  /**
   * Each line's head as written (`[seq, market, traded, account, id]`), as columns, the way the
   * index file holds them: a start takes the index's columns as they are.
   */
  private seqs: number[] = [];
  private markets: number[] = [];
  private traded: number[] = [];
  private accounts: Array<number | string> = [];
  private orderIds: Array<number | string> = [];
  private offsets: number[] = [];
  private lengths: number[] = [];
  /** Rows held in memory (archived by this run); the others are read from `source`. */
  private rows: Array<string | undefined> = [];
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
    const take = <T>(column: T[]): T[] => (kept === n ? column : column.slice(0, kept));
    this.seqs = take(seq);
    this.markets = take(market);
    this.traded = take(traded);
    this.accounts = take(account);
    this.orderIds = take(id);
    this.offsets = take(offset);
    this.lengths = take(length);
    this.rows = new Array<string | undefined>(kept);
    for (let line = 0; line < kept; line++) this.entry(line);
    this.bytes = end;
    this.source = source;
  }

  /** The index as written next to the archive (see `ArchiveIndex`). */
  indexOf(): ArchiveIndex {
    return {
      seq: [...this.seqs],
      market: [...this.markets],
      traded: [...this.traded],
      account: [...this.accounts],
      id: [...this.orderIds],
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
    const head = this.headAt(line);
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

  private headAt(line: number): Head | undefined {
    if (line < 0 || line >= this.seqs.length) return undefined;
    return [
      this.seqs[line] as number,
      this.markets[line] as number,
      this.traded[line] as number,
      this.accounts[line] as number | string,
      this.orderIds[line] as number | string,
    ];
  }

  private index(head: Head, offset: number, length: number, row: string | undefined): void {
    if (!MARKETS[head[1]]) throw new SnapshotError('an archived order of an unknown market');
    this.seqs.push(head[0]);
    this.markets.push(head[1]);
    this.traded.push(head[2]);
    this.accounts.push(head[3]);
    this.orderIds.push(head[4]);
    this.offsets.push(offset);
    this.lengths.push(length);
    this.rows.push(row);
    this.bytes = offset + length + 1;
    this.entry(this.seqs.length - 1);
  }

  /** Lists the line (its columns written) by id and by account. */
  private entry(line: number): void {
    const entry: ArchivedOrder = {
      seq: this.seqs[line] as number,
      market: MARKETS[this.markets[line] as number] as Market,
      traded: this.traded[line] === 1,
      line,
    };
    this.entries.push(entry);
    this.byId.set(this.orderIds[line] as number | string, line);
    const account = this.accounts[line] as number | string;
    let orders = this.byAccount.get(account);
    if (!orders) {
      orders = [];
      this.byAccount.set(account, orders);
    }
    // Orders close in any order: keep each account's list sorted by when they were placed.
    let i = orders.length;
    while (i > 0 && (orders[i - 1] as ArchivedOrder).seq > entry.seq) i--;
    if (i === orders.length) orders.push(entry);
    else orders.splice(i, 0, entry);
  }
}
