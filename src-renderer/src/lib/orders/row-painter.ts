import type { Market, OrderView } from '../../../../src-shared/domain';
import { SIDE_ARROW, SIDE_TEXT, STATUS_TEXT } from '../trade';
import { CanvasInk, type InkCell, type InkStyle, type RowInk } from './row-ink';
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
  /**
   * What the rows' ink depends on besides their records (the table's width, the theme, the
   * zoom): when it changes, the ink measures the rows again and every row is drawn anew.
   */
  surface: string;
}

/** The cells a row is built with: an order's, a fill's, or one spanning the row. */
type Shape = 'order' | 'fill' | 'unreadable';

/**
 * A text node and the text last written to it (an unreadable row's text, "Reading…"). A paint
 * compares with this, never with the node's own text: each read of it is a new string.
 */
interface TextSlot {
  node: Text;
  value: string;
}

/** A cell: its element and its text as assistive technology reads it (`aria-label`). */
interface Cell {
  element: HTMLElement;
  label: string;
}

/** One row element and what it was last painted with, so a paint writes only what changed. */
interface RowElement {
  element: HTMLDivElement;
  shape: Shape | null;
  cells: Cell[];
  /** Where the cells' texts are drawn (none for an unreadable row, whose text is the page's). */
  canvas: HTMLCanvasElement | null;
  /** The cells' texts as drawn, one per cell, rewritten in place by each fill. */
  ink: InkCell[];
  /** The ink's measure the canvas was last drawn with (-1: not drawn). */
  inked: number;
  /** The text of an unreadable row. */
  text: TextSlot | null;
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

/** A cell's classes (`opt`: left out of a narrow table) and how its text looks. */
const CLASS: Record<Column, string> = {
  time: '',
  market: '',
  side: '',
  type: 'opt',
  price: '',
  amount: '',
  filled: '',
  average: 'opt',
  value: 'opt',
  fee: 'opt',
  status: '',
  role: 'opt',
};
const STYLE: Record<Column, InkStyle> = {
  time: 'numberMuted',
  market: 'text',
  side: 'text',
  type: 'muted',
  price: 'number',
  amount: 'number',
  filled: 'number',
  average: 'number',
  value: 'number',
  fee: 'number',
  status: 'text',
  role: 'muted',
};
const RIGHT = new Set<Column>(['price', 'amount', 'filled', 'average', 'value', 'fee']);

/**
 * Draws the Orders table's rows straight into the page: each slot of `RowSlots` is one row
 * element, made once, kept while its slot is placed, and repainted by writing only the
 * attributes that changed and drawing its texts anew when its record changed. A scroll frame
 * moves some thirty rows (a drag of the scrollbar, every row in view on every frame); done here
 * rather than through thirty sets of reactive effects, it costs a few small writes and less
 * script and garbage per frame.
 *
 * The texts are drawn on a canvas in each row (`RowInk`: see there for why); each cell keeps its
 * text in `aria-label` for assistive technology, which reads the grid, not the canvas.
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
  #surface: string | null = null;
  /** Counts the ink's measures: a row drawn under an older one is drawn again. */
  #measure = 0;
  /** Whether the ink has measured the rows since the surface or the view last changed. */
  #measured = false;

  constructor(
    private readonly body: HTMLElement,
    private readonly ink: RowInk = new CanvasInk(),
  ) {}

  paint(placed: readonly Placed<WireRow>[], context: PaintContext): void {
    const { view, markets, surface } = context;
    const anew = view !== this.#view || markets !== this.#markets;
    if (view !== this.#view || surface !== this.#surface) {
      this.#surface = surface;
      this.#measure++;
      this.#measured = false;
    }
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
      canvas: null,
      ink: [],
      inked: -1,
      text: null,
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
    if (!anew && entry.row === row.row && row.shape !== null) {
      this.#inkUp(row);
      return;
    }
    row.row = entry.row;
    const line = entry.row && lineOf(entry.row, context.markets);
    const shape: Shape =
      line?.kind === 'unreadable' ? 'unreadable' : context.view === 'trades' ? 'fill' : 'order';
    if (shape !== row.shape) {
      this.#build(row, shape);
      row.line = null;
    }
    this.#wait(row, entry.row === undefined);
    if (line?.kind === 'unreadable') write(row.text, line.text);
    else if (line?.kind === shape) this.#fill(row, line);
    this.#inkUp(row);
  }

  /** Draws a row's texts if they changed, or if the ink measured the rows since it was drawn. */
  #inkUp(row: RowElement): void {
    if (!row.canvas || row.line === null || row.inked === this.#measure) return;
    if (!this.#measured) {
      this.#measured = true;
      this.ink.measure(
        row.element,
        row.cells.map((cell) => cell.element),
      );
    }
    row.inked = this.#measure;
    this.ink.draw(row.canvas, row.ink);
  }

  /**
   * A row waiting for its record keeps the text it showed, covered by "Reading…" and hidden from
   * assistive technology (the row is `aria-busy`): a row read again after a jump shows its
   * record without drawing it twice. Nothing in the table's style depends on the row's state, so
   * a row that starts or stops waiting restyles only its "Reading…", not its dozen cells (a
   * screen of rows does so at each jump). "Reading…" is made invisible rather than taken out of
   * the layout, which would lay out its text again each time it shows.
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
    row.ink = [];
    row.canvas = null;
    row.inked = -1;
    row.text = null;
    row.waiting = null;
    row.busy = null;
    row.element.replaceChildren();
    if (shape === 'unreadable') {
      const cell = this.#cell(row.element, 'unreadable');
      row.text = textIn(cell.element);
      row.cells.push(cell);
      return;
    }
    for (const column of shape === 'fill' ? FILL_CELLS : ORDER_CELLS) {
      row.cells.push(this.#cell(row.element, CLASS[column]));
      const runs = [{ text: '', style: STYLE[column] }];
      if (column === 'fee') runs.push({ text: '', style: 'numberMuted' });
      row.ink.push({ runs, right: RIGHT.has(column) });
    }
    // After the cells, which the table's style sizes by their place in the row.
    const canvas = document.createElement('canvas');
    canvas.className = 'ink';
    canvas.setAttribute('aria-hidden', 'true');
    row.element.append(canvas);
    row.canvas = canvas;
    // Shown over the cells while the row waits for its record (see #wait).
    const waiting = this.#cell(row.element, 'waiting');
    write(textIn(waiting.element), 'Reading…');
    row.waiting = waiting.element;
  }

  #cell(parent: HTMLElement, className: string): Cell {
    const element = document.createElement('div');
    element.setAttribute('role', 'gridcell');
    if (className) element.className = className;
    parent.append(element);
    return { element, label: '' };
  }

  /** Sets a row's texts for its line: the labels that differ from the last, and the ink's. */
  #fill(row: RowElement, line: OrderLine | FillLine): void {
    if (line === row.line) return;
    row.line = line;
    row.inked = -1;
    const columns = row.shape === 'fill' ? FILL_CELLS : ORDER_CELLS;
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k];
      const cell = row.cells[k];
      const runs = row.ink[k]?.runs;
      const first = runs?.[0];
      if (!cell || !column || !runs || !first) continue;
      switch (column) {
        case 'side':
          first.text = `${SIDE_ARROW[line.side]} ${SIDE_TEXT[line.side]}`;
          first.style = line.side;
          label(cell, SIDE_TEXT[line.side]);
          break;
        case 'fee': {
          const asset = runs[1];
          first.text = `${line.fee} `;
          if (asset) asset.text = line.feeAsset;
          label(cell, `${line.fee} ${line.feeAsset}`);
          break;
        }
        case 'status': {
          const status = line.kind === 'order' ? line.status : undefined;
          first.text = status ? STATUS_TEXT[status] : '';
          first.style = status === 'failed' ? 'failed' : 'text';
          label(cell, first.text);
          break;
        }
        default:
          first.text = plainText(line, column);
          label(cell, first.text);
      }
    }
  }
}

/** Sets a cell's `aria-label`, only when it differs (compared with what was written, not read). */
const label = (cell: Cell, value: string): void => {
  if (cell.label === value) return;
  cell.label = value;
  if (value) cell.element.setAttribute('aria-label', value);
  else cell.element.removeAttribute('aria-label');
};

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
const write = (text: TextSlot | null, value: string): void => {
  if (!text || text.value === value) return;
  text.value = value;
  text.node.data = value;
};
