import type { Market, OrderView } from '../../../../src-shared/domain';
import { SIDE_ARROW, SIDE_TEXT, STATUS_TEXT } from '../trade';
import type { Placed } from './row-slots.svelte';
import { lineOf, rowId, type FillLine, type OrderLine, type WireRow } from './rows';

/** What the rows show besides their records. */
export interface PaintContext {
  view: OrderView;
  /** The row the keyboard is on. */
  active: number;
  markets: readonly Market[];
  /** A row's height: rows stand at `index × rowHeight`. */
  rowHeight: number;
}

/** The cells a row is built with: an order's, a fill's, or one spanning the row. */
type Shape = 'order' | 'fill' | 'unreadable';

/**
 * A text node and the text last written to it. A paint compares with this, never with the node's
 * own text: each read of a node's text hands the script a new string backed by the page's copy,
 * one more for the collector to trace and release (ten per row that changes).
 */
interface TextSlot {
  node: Text;
  value: string;
}

/** A cell: its element and the text node its text is written to. */
interface Cell {
  element: HTMLElement;
  text: TextSlot;
  /** The asset after a fee, or the arrow before a side. */
  extra?: TextSlot;
}

/** One row element and what it was last painted with, so a paint writes only what changed. */
interface RowElement {
  element: HTMLDivElement;
  shape: Shape | null;
  cells: Cell[];
  /** "Reading…", over the cells while the row waits for its record (none for an unreadable one). */
  waiting: HTMLElement | null;
  /** Whether the row shows "Reading…" (null: not painted yet). */
  busy: boolean | null;
  index: number;
  row: WireRow | undefined;
  /** The line its cells show (covered while the row waits for its record); null: none yet. */
  line: OrderLine | FillLine | null;
  selected: boolean | null;
}

/** The columns of each shape: each cell's fixed classes, and which value it shows. */
const ORDER_CELLS = [
  'time',
  'market',
  'side',
  'type',
  'price',
  'amount',
  'filled',
  'average',
  'fee',
  'status',
] as const;
const FILL_CELLS = ['time', 'market', 'side', 'price', 'amount', 'value', 'fee', 'role'] as const;
type Column = (typeof ORDER_CELLS)[number] | (typeof FILL_CELLS)[number];

const CLASS: Record<Column, string> = {
  time: 'muted num',
  market: '',
  side: 'side',
  type: 'opt muted',
  price: 'num r',
  amount: 'num r',
  filled: 'num r',
  average: 'num r opt',
  value: 'num r opt',
  fee: 'num r opt',
  status: 'status',
  role: 'opt muted',
};

/**
 * Draws the Orders table's rows straight into the page: each slot of `RowSlots` is one row
 * element, made once, kept while its slot is placed, and repainted by writing only the
 * attributes and texts that changed. A scroll frame moves some thirty rows (a drag of the
 * scrollbar, every row in view on every frame); done here rather than through thirty sets of
 * reactive effects, it costs a few small writes and less script and garbage per frame.
 *
 * The elements keep the order of their slots in the page (a move would make them new to the
 * browser); the table gives assistive technology the list order with `aria-owns`.
 */
export class RowPainter {
  /** The row element of each slot (kept when its slot leaves the page, for when it returns). */
  readonly #rows: (RowElement | undefined)[] = [];
  /** Which slots the last paint placed, and the array the next paint writes (the two swap). */
  #placed: boolean[] = [];
  #placing: boolean[] = [];
  #view: OrderView | null = null;
  #markets: readonly Market[] | null = null;

  constructor(private readonly body: HTMLElement) {}

  paint(placed: readonly Placed<WireRow>[], context: PaintContext): void {
    const { view, markets } = context;
    const anew = view !== this.#view || markets !== this.#markets;
    this.#view = view;
    this.#markets = markets;
    // Plain loops over reused arrays: this runs every frame of a scroll, and an iterator's
    // entries are garbage for the page's collector.
    const wasPlaced = this.#placed;
    const nowPlaced = this.#placing;
    nowPlaced.fill(false);
    let previous: HTMLDivElement | null = null;
    for (let k = 0; k < placed.length; k++) {
      const entry = placed[k];
      if (!entry) continue;
      const row = (this.#rows[entry.slot] ??= this.#make());
      nowPlaced[entry.slot] = true;
      if (!wasPlaced[entry.slot]) {
        if (previous) previous.after(row.element);
        else this.body.prepend(row.element);
      }
      previous = row.element;
      this.#update(row, entry, context, anew);
    }
    for (let slot = 0; slot < wasPlaced.length; slot++) {
      if (wasPlaced[slot] && !nowPlaced[slot]) this.#rows[slot]?.element.remove();
    }
    this.#placed = nowPlaced;
    this.#placing = wasPlaced;
  }

  #make(): RowElement {
    const element = document.createElement('div');
    element.setAttribute('role', 'row');
    element.tabIndex = -1;
    element.className = 'row';
    return {
      element,
      shape: null,
      cells: [],
      waiting: null,
      busy: null,
      index: -1,
      row: undefined,
      line: null,
      selected: null,
    };
  }

  #update(row: RowElement, entry: Placed<WireRow>, context: PaintContext, anew: boolean): void {
    const { element } = row;
    if (entry.index !== row.index) {
      row.index = entry.index;
      element.id = rowId(entry.index);
      element.setAttribute('aria-rowindex', String(entry.index + 2));
      element.style.transform = `translateY(${entry.index * context.rowHeight}px)`;
    }
    const selected = entry.index === context.active;
    if (selected !== row.selected) {
      row.selected = selected;
      element.setAttribute('aria-selected', String(selected));
    }
    if (!anew && entry.row === row.row && row.shape !== null) return;
    row.row = entry.row;
    const line = entry.row && lineOf(entry.row, context.markets);
    const shape: Shape =
      line?.kind === 'unreadable' ? 'unreadable' : context.view === 'trades' ? 'fill' : 'order';
    if (shape !== row.shape) {
      this.#build(row, shape);
      row.line = null;
    }
    this.#wait(row, entry.row === undefined);
    if (line?.kind === 'unreadable') write(row.cells[0]?.text, line.text);
    else if (line?.kind === shape) this.#fill(row, line);
  }

  /**
   * A row waiting for its record keeps the text it showed, covered by "Reading…" and hidden from
   * assistive technology (the row is `aria-busy`): a new text is a layout of its cell, and a row
   * read after a jump would otherwise be laid out twice, once emptied and once filled. Nothing in
   * the table's style depends on the row's state, so a row that starts or stops waiting restyles
   * only its "Reading…", not its dozen cells (a screen of rows does so at each jump). "Reading…"
   * is made invisible rather than taken out of the layout, which would lay out its text again
   * each time it shows.
   */
  #wait(row: RowElement, busy: boolean): void {
    if (busy === row.busy) return;
    row.busy = busy;
    if (busy) row.element.setAttribute('aria-busy', 'true');
    else row.element.removeAttribute('aria-busy');
    if (row.waiting) row.waiting.className = busy ? 'waiting' : 'waiting off';
    const { cells } = row;
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k]?.element;
      if (busy) cell?.setAttribute('aria-hidden', 'true');
      else cell?.removeAttribute('aria-hidden');
    }
  }

  /** Makes a row's cells for its shape (once, or when the view switches between orders and fills). */
  #build(row: RowElement, shape: Shape): void {
    row.shape = shape;
    row.cells = [];
    row.waiting = null;
    row.busy = null;
    row.element.replaceChildren();
    if (shape === 'unreadable') {
      row.cells.push(this.#cell(row.element, 'unreadable'));
      return;
    }
    for (const column of shape === 'fill' ? FILL_CELLS : ORDER_CELLS) {
      const cell = this.#cell(row.element, CLASS[column]);
      if (column === 'side') {
        const arrow = document.createElement('span');
        arrow.setAttribute('aria-hidden', 'true');
        cell.extra = textIn(arrow);
        cell.element.prepend(arrow);
      } else if (column === 'fee') {
        const asset = document.createElement('span');
        asset.className = 'muted';
        cell.extra = textIn(asset);
        cell.element.append(asset);
      }
      row.cells.push(cell);
    }
    // Shown over the cells while the row waits for its record (see #wait).
    const waiting = this.#cell(row.element, 'waiting');
    write(waiting.text, 'Reading…');
    row.waiting = waiting.element;
  }

  #cell(parent: HTMLElement, className: string): Cell {
    const element = document.createElement('div');
    element.setAttribute('role', 'gridcell');
    if (className) element.className = className;
    const text = textIn(element);
    parent.append(element);
    return { element, text };
  }

  /** Writes a row's texts and classes for its line: only those that differ from the last. */
  #fill(row: RowElement, line: OrderLine | FillLine): void {
    if (line === row.line) return;
    const last = row.line;
    row.line = line;
    const columns = row.shape === 'fill' ? FILL_CELLS : ORDER_CELLS;
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k];
      const cell = row.cells[k];
      if (!cell || !column) continue;
      switch (column) {
        case 'side':
          write(cell.extra, SIDE_ARROW[line.side]);
          write(cell.text, ` ${SIDE_TEXT[line.side]}`);
          if (line.side !== last?.side) cell.element.className = `side ${line.side}`;
          break;
        case 'fee':
          write(cell.text, `${line.fee} `);
          write(cell.extra, line.feeAsset);
          break;
        case 'status': {
          const status = line.kind === 'order' ? line.status : undefined;
          write(cell.text, status ? STATUS_TEXT[status] : '');
          if (status !== (last?.kind === 'order' ? last.status : undefined)) {
            cell.element.className = status ? `status ${status}` : 'status';
          }
          break;
        }
        default:
          write(cell.text, plainText(line, column));
      }
    }
  }
}

/** The text of a cell that is only text. */
const plainText = (line: OrderLine | FillLine, column: Column): string => {
  switch (column) {
    case 'time':
      return line.time;
    case 'market':
      return line.market;
    case 'price':
      return line.price;
    case 'amount':
      return line.amount;
    case 'type':
      return line.kind === 'order' ? line.type : '';
    case 'filled':
      return line.kind === 'order' ? line.filled : '';
    case 'average':
      return line.kind === 'order' ? line.average : '';
    case 'value':
      return line.kind === 'fill' ? line.value : '';
    case 'role':
      return line.kind === 'fill' ? line.role : '';
    default:
      return '';
  }
};

/** A new, empty text node at the end of `parent`. */
const textIn = (parent: HTMLElement): TextSlot => ({
  node: parent.appendChild(document.createTextNode('')),
  value: '',
});

/** Sets a text node's text, only when it differs (a write is a relayout of its cell). */
const write = (text: TextSlot | undefined, value: string): void => {
  if (!text || text.value === value) return;
  text.value = value;
  text.node.data = value;
};
