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
  /** The cells' texts as drawn, one per cell, rewritten in place by each fill (none for an
   * unreadable row, whose text is the page's). */
  ink: InkCell[];
  /** The text of an unreadable row. */
  text: TextSlot | null;
  /** "Reading…", in place of the cells while the row waits for its record (none for an unreadable one). */
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

/** Rows one canvas of ink holds: a block's canvas covers this many, from a multiple of it. */
export const INK_BLOCK = 16;

/** Free blocks kept for the paints that follow (a jump frees the blocks of a screen and needs as many). */
const KEPT_FREE_BLOCKS = 4;

/** A canvas of ink for `INK_BLOCK` rows, and what each of its rows (strips) shows. */
interface InkBlock {
  canvas: HTMLCanvasElement;
  /** The block's number (its first row is number × INK_BLOCK); -1: free. */
  at: number;
  /** The line each strip shows, and the ink's measure it was drawn under (-1: clear). */
  lines: (OrderLine | FillLine | null)[];
  inked: Int32Array;
  /** The paint that last placed a row on each strip, and on the block. */
  touched: Int32Array;
  used: number;
}

/**
 * Draws the Orders table's rows straight into the page: each slot of `RowSlots` is one row
 * element, made once, kept while its slot is placed, and repainted by writing only the
 * attributes that changed and drawing its texts anew when its record changed. A scroll frame
 * moves some thirty rows (a drag of the scrollbar, every row in view on every frame); done here
 * rather than through thirty sets of reactive effects, it costs a few small writes and less
 * script and garbage per frame.
 *
 * The texts are drawn on canvases (`RowInk`: see there for why); each cell keeps its text in
 * `aria-label` for assistive technology, which reads the grid, not the canvases. A canvas holds
 * the ink of a block of `INK_BLOCK` rows, over them, rather than one canvas a row: the browser
 * composites each canvas as a layer of its own, and with one a row every frame of a scroll moved
 * some eighty layers, whose rebuilding was most of the garbage the page made while scrolling
 * (its own heap's, collected in the pauses that made the worst frames). A row's ink is drawn in
 * its strip of its block when its record or its place changes, and cleared while it waits.
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
  /** Over the rows, the canvases of ink, a block of rows each (kept, and reused, as they leave). */
  readonly #inks: HTMLElement;
  readonly #blocks: InkBlock[] = [];
  /** Counts the paints: a strip no row was placed on in this one is cleared. */
  #paints = 0;
  #rowHeight = 0;

  constructor(
    private readonly body: HTMLElement,
    private readonly ink: RowInk = new CanvasInk(),
  ) {
    this.#inks = document.createElement('div');
    this.#inks.className = 'inks';
    this.#inks.setAttribute('aria-hidden', 'true');
    body.append(this.#inks);
  }

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
    this.#rowHeight = context.rowHeight;
    this.#paints++;
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
      this.#stripUp(row, entry.index);
    }
    for (let slot = 0; slot < wasPlaced.length; slot++) {
      if (wasPlaced[slot] && !nowPlaced[slot]) this.#rows[slot]?.element.remove();
    }
    this.#placed = nowPlaced;
    this.#placing = wasPlaced;
    this.#sweep();
  }

  /** Draws, keeps or clears the strip of the row at `index`, for what its row element shows. */
  #stripUp(row: RowElement, index: number): void {
    const block = this.#block(Math.floor(index / INK_BLOCK));
    const strip = index % INK_BLOCK;
    block.touched[strip] = this.#paints;
    const line = row.busy || row.shape === 'unreadable' ? null : row.line;
    if (line === null) {
      this.#clearStrip(block, strip);
      return;
    }
    if (block.lines[strip] === line && block.inked[strip] === this.#measure) return;
    if (!this.#measured) {
      this.#measured = true;
      this.ink.measure(
        row.element,
        row.cells.map((cell) => cell.element),
      );
    }
    block.lines[strip] = line;
    block.inked[strip] = this.#measure;
    this.ink.draw(block.canvas, INK_BLOCK * this.#rowHeight, strip * this.#rowHeight, row.ink);
  }

  #clearStrip(block: InkBlock, strip: number): void {
    if (block.inked[strip] === -1) return;
    block.inked[strip] = -1;
    block.lines[strip] = null;
    this.ink.clear(block.canvas, strip * this.#rowHeight);
  }

  /** The block of ink numbered `at`: the one showing it, or a free one (or a new one) moved there. */
  #block(at: number): InkBlock {
    const blocks = this.#blocks;
    let free: InkBlock | undefined;
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k] as InkBlock;
      if (block.at === at) {
        block.used = this.#paints;
        return block;
      }
      if (block.at === -1) free ??= block;
    }
    const block = free ?? this.#newBlock();
    block.at = at;
    block.used = this.#paints;
    const { style } = block.canvas;
    style.height = `${INK_BLOCK * this.#rowHeight}px`;
    style.transform = `translateY(${at * INK_BLOCK * this.#rowHeight}px)`;
    if (!block.canvas.isConnected) this.#inks.append(block.canvas);
    return block;
  }

  #newBlock(): InkBlock {
    const canvas = document.createElement('canvas');
    canvas.className = 'ink';
    const block: InkBlock = {
      canvas,
      at: -1,
      lines: Array.from({ length: INK_BLOCK }, () => null),
      inked: new Int32Array(INK_BLOCK).fill(-1),
      touched: new Int32Array(INK_BLOCK),
      used: 0,
    };
    this.#blocks.push(block);
    return block;
  }

  /**
   * After a paint: clears the strips no row was placed on (a row that left, or moved), and frees
   * the blocks no row was placed in, clearing them and taking them out of the page. A few free
   * blocks are kept for the next paint; the canvases of the others are given up (a block's
   * pixels are some megabytes on a large screen).
   */
  #sweep(): void {
    const paints = this.#paints;
    const blocks = this.#blocks;
    let free = 0;
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k] as InkBlock;
      if (block.at === -1) {
        free++;
        continue;
      }
      if (block.used !== paints) {
        block.at = -1;
        block.canvas.remove();
        if (free >= KEPT_FREE_BLOCKS) {
          blocks.splice(k--, 1);
          this.ink.release(block.canvas);
          continue;
        }
        free++;
        let drawn = false;
        for (let strip = 0; strip < INK_BLOCK; strip++) {
          drawn ||= block.inked[strip] !== -1;
          block.inked[strip] = -1;
          block.lines[strip] = null;
        }
        if (drawn) this.ink.clear(block.canvas);
        continue;
      }
      for (let strip = 0; strip < INK_BLOCK; strip++) {
        if (block.touched[strip] !== paints) this.#clearStrip(block, strip);
      }
    }
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
      ink: [],
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
    if (line?.kind === 'unreadable') write(row.text, line.text);
    else if (line?.kind === shape) this.#fill(row, line);
  }

  /**
   * A row waiting for its record shows "Reading…" (its strip of ink is cleared) and its cells are
   * hidden from assistive technology (the row is `aria-busy`); they keep their names, so a row
   * read again after a jump writes none of them. Nothing in the table's style depends on the row's state, so
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
    // After the cells, which the table's style sizes by their place in the row; shown over
    // them while the row waits for its record (see #wait).
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
