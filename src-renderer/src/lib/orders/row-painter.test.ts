import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Market } from '../../../../src-shared/domain';
import { ADA_USDM, orderOf } from '../trade/fake-api';
import type { InkCell, RowInk } from './row-ink';
import { INK_BLOCK, RowPainter, type PaintContext } from './row-painter';
import type { Placed } from './row-slots.svelte';
import type { WireRow } from './rows';

const markets: Market[] = [Market.parse(ADA_USDM)];

const rowOf = (i: number, change: Parameters<typeof orderOf>[0] = {}): WireRow => {
  const order = orderOf({
    id: `order-${i}`,
    side: i % 2 === 0 ? 'buy' : 'sell',
    status: 'open',
    price: '0.6400',
    baseQty: String(10 + i),
    executedBaseQty: '0',
    createdAt: '2025-03-01T12:00:00.000Z',
    ...change,
  });
  return { key: order.id, order, execution: null } as WireRow;
};

const fillRowOf = (i: number): WireRow => {
  const { order } = rowOf(i) as { order: WireRow['order'] };
  return {
    key: `fill-${i}`,
    order,
    execution: {
      id: `fill-${i}`,
      orderId: order.id,
      accountId: null,
      counterPartyOrderId: 'maker-1',
      price: '0.6400',
      baseQty: '5',
      quoteQty: '3.2',
      commission: '0.01',
      commissionUnit: 'lovelace',
      role: 'taker',
      createdAt: '2025-03-01T12:00:00.000Z',
    },
  } as WireRow;
};

const context = (change: Partial<PaintContext> = {}): PaintContext => ({
  view: 'open',
  active: 0,
  markets,
  rowHeight: 28,
  surface: '1000|0',
  ...change,
});

/**
 * Keeps what each strip of each canvas was last drawn with (the drawing itself is the browser's:
 * the Orders e2e tests look at it in Chromium).
 */
class RecordedInk implements RowInk {
  measures = 0;
  draws = 0;
  clears = 0;
  readonly drawn = new Map<HTMLCanvasElement, Map<number, InkCell[]>>();
  measure(): void {
    this.measures++;
  }
  draw(canvas: HTMLCanvasElement, height: number, top: number, cells: readonly InkCell[]): void {
    expect(height).toBe(INK_BLOCK * 28);
    this.draws++;
    const strips = this.drawn.get(canvas) ?? new Map<number, InkCell[]>();
    this.drawn.set(canvas, strips);
    strips.set(
      top,
      cells.map((cell) => ({ right: cell.right, runs: cell.runs.map((run) => ({ ...run })) })),
    );
  }
  clear(canvas: HTMLCanvasElement, top?: number): void {
    this.clears++;
    if (top === undefined) this.drawn.delete(canvas);
    else this.drawn.get(canvas)?.delete(top);
  }
  readonly released = new Set<HTMLCanvasElement>();
  release(canvas: HTMLCanvasElement): void {
    this.released.add(canvas);
    this.drawn.delete(canvas);
  }
}
let ink: RecordedInk;

/** The row elements in the page, in the page's order (after them, the canvases of ink). */
const rowsIn = (body: HTMLElement) => [...body.querySelectorAll<HTMLElement>(':scope > .row')];

/** What is drawn where a row stands: its block's canvas in the page, at the row's strip. */
const inkOf = (row: Element | null | undefined): InkCell[] | undefined => {
  const index = Number(row?.getAttribute('aria-rowindex')) - 2;
  const top = Math.floor(index / INK_BLOCK) * INK_BLOCK * 28;
  const canvas = [...document.querySelectorAll<HTMLCanvasElement>('.inks > canvas')].find(
    (c) => c.style.transform === `translateY(${top}px)`,
  );
  return canvas && ink.drawn.get(canvas)?.get((index % INK_BLOCK) * 28);
};
/** A row's texts as drawn, a cell each. */
const cellsOf = (row: Element | null | undefined) =>
  inkOf(row)?.map((cell) => cell.runs.map((r) => r.text).join(''));
/** A row's record cells' names (not the "Reading…" cell shown instead of them while it waits). */
const labelsOf = (row: Element | null | undefined) =>
  [...(row?.querySelectorAll('[role=gridcell]:not(.waiting)') ?? [])].map((c) =>
    c.getAttribute('aria-label'),
  );
const waitingOf = (row: Element | null | undefined) => row?.querySelector('.waiting')?.textContent;
/** The record cells hidden from assistive technology. */
const hiddenCells = (row: Element | null | undefined) =>
  row?.querySelectorAll('[role=gridcell][aria-hidden=true]:not(.waiting)').length;

describe('RowPainter', () => {
  let body: HTMLDivElement;
  let painter: RowPainter;
  beforeEach(() => {
    body = document.createElement('div');
    document.body.replaceChildren(body);
    ink = new RecordedInk();
    painter = new RowPainter(body, ink);
  });

  it('draws each placed row where its index puts it, with every cell of an order', () => {
    painter.paint(
      [
        { slot: 0, index: 7, row: rowOf(7) },
        { slot: 1, index: 8, row: rowOf(8) },
      ],
      context({ active: 8 }),
    );
    const rows = rowsIn(body);
    expect(rows.map((r) => r.id)).toEqual(['orders-row-7', 'orders-row-8']);
    expect(rows[0]?.getAttribute('aria-rowindex')).toBe('9');
    expect(rows[0]?.style.transform).toBe('translateY(196px)');
    expect(rows.map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'true']);
    expect(cellsOf(rows[0])).toEqual([
      expect.stringMatching(/2025/),
      'ADA/USDM',
      '▼ Sell',
      'Limit',
      '0.6400',
      '17.0000',
      '0%',
      '—',
      expect.stringMatching(/^0\.000000/),
      'Open',
    ]);
    const drawn = inkOf(rows[0]);
    expect(drawn?.[2]?.runs[0]?.style).toBe('sell');
    expect(drawn?.map((cell) => cell.right)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    // What assistive technology reads: the same texts, the side without its arrow.
    expect(labelsOf(rows[0])).toEqual([
      expect.stringMatching(/2025/),
      'ADA/USDM',
      'Sell',
      'Limit',
      '0.6400',
      '17.0000',
      '0%',
      '—',
      expect.stringMatching(/^0\.000000\d* USDM$/),
      'Open',
    ]);
    expect(rows[0]?.hasAttribute('aria-busy')).toBe(false);
  });

  it('says a row is being read, then shows its record in the same cells', () => {
    painter.paint([{ slot: 0, index: 3, row: undefined }], context());
    const row = rowsIn(body)[0];
    const cells = [...(row?.querySelectorAll('[role=gridcell]') ?? [])];
    expect(row?.getAttribute('aria-busy')).toBe('true');
    expect(waitingOf(row)).toBe('Reading…');
    expect(cellsOf(row)).toBeUndefined();
    expect(labelsOf(row)).toEqual(Array.from({ length: 10 }, () => null));
    // "Reading…" is what assistive technology finds in the row, not the cells under it.
    const waiting = row?.querySelector<HTMLElement>('.waiting');
    expect(waiting?.classList.contains('off')).toBe(false);
    expect(hiddenCells(row)).toBe(10);

    painter.paint([{ slot: 0, index: 3, row: rowOf(3) }], context());
    expect(rowsIn(body)[0]).toBe(row);
    expect([...(row?.querySelectorAll('[role=gridcell]') ?? [])]).toEqual(cells);
    expect(row?.hasAttribute('aria-busy')).toBe(false);
    expect(cellsOf(row)?.[5]).toBe('13.0000');
    expect(labelsOf(row)[5]).toBe('13.0000');
    expect(waiting?.classList.contains('off')).toBe(true);
    expect(hiddenCells(row)).toBe(0);
  });

  it('clears a waiting row’s ink for "Reading…", and names no cell again when it is read again', () => {
    const record = rowOf(3);
    painter.paint([{ slot: 0, index: 3, row: record }], context());
    const row = rowsIn(body)[0];
    const shown = cellsOf(row);
    const draws = ink.draws;
    const changes = new MutationObserver(() => undefined);
    changes.observe(body, {
      subtree: true,
      characterData: true,
      childList: true,
      attributeFilter: ['aria-label'],
    });

    // A jump away and back: the row waits ("Reading…" shows, its text is not drawn under it),
    // then shows the same record again, drawn once more, without a cell's name written.
    painter.paint([{ slot: 0, index: 3, row: undefined }], context());
    expect(row?.getAttribute('aria-busy')).toBe('true');
    expect(cellsOf(row)).toBeUndefined();
    painter.paint([{ slot: 0, index: 3, row: record }], context());
    expect(row?.hasAttribute('aria-busy')).toBe(false);
    expect(cellsOf(row)).toEqual(shown);
    expect(changes.takeRecords()).toEqual([]);
    expect(ink.draws).toBe(draws + 1);
    changes.disconnect();
  });

  it('draws each row in the canvas of its block of rows, over the rows, at its place', () => {
    const placed = [14, 15, 16, 17].map((index, slot) => ({ slot, index, row: rowOf(index) }));
    painter.paint(placed, context());
    const canvases = [...body.querySelectorAll<HTMLCanvasElement>('.inks > canvas')];
    // Rows 14 and 15 in the first block's canvas, 16 and 17 in the second's.
    expect(canvases.map((c) => c.style.transform)).toEqual([
      'translateY(0px)',
      `translateY(${INK_BLOCK * 28}px)`,
    ]);
    expect(canvases.map((c) => [...(ink.drawn.get(c)?.keys() ?? [])])).toEqual([
      [14 * 28, 15 * 28],
      [0, 28],
    ]);
    expect(rowsIn(body).map((row) => cellsOf(row)?.[5])).toEqual([
      '24.0000',
      '25.0000',
      '26.0000',
      '27.0000',
    ]);
    // The canvases are after the rows (drawn over them), hidden from assistive technology.
    expect(body.lastElementChild?.className).toBe('inks');
    expect(body.lastElementChild?.getAttribute('aria-hidden')).toBe('true');
  });

  it('clears the ink of a row that leaves or moves, and frees a block no row is in', () => {
    painter.paint(
      [3, 4, 5].map((index, slot) => ({ slot, index, row: rowOf(index) })),
      context(),
    );
    const [block] = body.querySelectorAll<HTMLCanvasElement>('.inks > canvas');
    // A new record at the top pushes the three down a row: each is drawn at its new place, and
    // the place nothing stands on any more is cleared.
    painter.paint(
      [
        { slot: 0, index: 4, row: rowOf(3) },
        { slot: 1, index: 5, row: rowOf(4) },
      ],
      context(),
    );
    expect([...(ink.drawn.get(block as HTMLCanvasElement)?.entries() ?? [])]).toEqual([
      [4 * 28, expect.anything()],
      [5 * 28, expect.anything()],
    ]);
    expect(cellsOf(rowsIn(body)[0])?.[5]).toBe('13.0000');

    // A jump far away: the first block's canvas leaves the page, cleared, and is reused for
    // the rows of the jump rather than a new one made.
    painter.paint([{ slot: 0, index: 100, row: rowOf(100) }], context());
    painter.paint([{ slot: 0, index: 200, row: rowOf(200) }], context());
    const canvases = [...body.querySelectorAll<HTMLCanvasElement>('.inks > canvas')];
    expect(canvases).toHaveLength(1);
    expect(canvases[0]).toBe(block);
    expect(canvases[0]?.style.transform).toBe(
      `translateY(${Math.floor(200 / INK_BLOCK) * INK_BLOCK * 28}px)`,
    );
    expect([...(ink.drawn.get(block as HTMLCanvasElement)?.keys() ?? [])]).toEqual([
      (200 % INK_BLOCK) * 28,
    ]);
    expect(ink.released.size).toBe(0);
  });

  it('keeps a few free blocks for the next jump and gives up the canvases of the rest', () => {
    // Eight blocks of rows in the page, then a jump to one row: seven blocks are free.
    const screen = (from: number) =>
      Array.from({ length: 8 * INK_BLOCK }, (_, slot) => ({
        slot,
        index: from + slot,
        row: rowOf(from + slot),
      }));
    painter.paint(screen(0), context());
    const made = [...body.querySelectorAll<HTMLCanvasElement>('.inks > canvas')];
    expect(made).toHaveLength(8);
    painter.paint([{ slot: 0, index: 5000, row: rowOf(5000) }], context());
    expect(body.querySelectorAll('.inks > canvas')).toHaveLength(1);
    expect(ink.released.size).toBe(8 + 1 - 1 - 4);
    // The kept ones are used again, cleared, when the rows come back.
    painter.paint(screen(0), context());
    const again = [...body.querySelectorAll<HTMLCanvasElement>('.inks > canvas')];
    expect(again.filter((canvas) => made.includes(canvas))).toHaveLength(4);
    expect(again.some((canvas) => ink.released.has(canvas))).toBe(false);
    expect(rowsIn(body).map((row) => cellsOf(row)?.[5])).toEqual(
      Array.from({ length: 8 * INK_BLOCK }, (_, i) => `${10 + i}.0000`),
    );
  });

  it('writes nothing when a paint changes nothing, and only what changed otherwise', () => {
    const placed: Placed<WireRow>[] = [
      { slot: 0, index: 0, row: rowOf(0) },
      { slot: 1, index: 1, row: rowOf(1) },
    ];
    painter.paint(placed, context());
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });

    const draws = ink.draws;
    painter.paint([...placed], context());
    expect(observer.takeRecords()).toEqual([]);
    expect(ink.draws).toBe(draws);

    // The keyboard moves down a row: two attributes change, no text.
    painter.paint(placed, context({ active: 1 }));
    const records = observer.takeRecords();
    expect(records.map((r) => [r.type, r.attributeName])).toEqual([
      ['attributes', 'aria-selected'],
      ['attributes', 'aria-selected'],
    ]);
    expect(ink.draws).toBe(draws);
    // The same record at a new status: its status cell's name, and the row drawn again.
    painter.paint(
      [placed[0] as Placed<WireRow>, { slot: 1, index: 1, row: rowOf(1, { status: 'cancelled' }) }],
      context({ active: 1 }),
    );
    const statusWrites = observer.takeRecords();
    observer.disconnect();
    expect(statusWrites.map((r) => [r.type, r.attributeName])).toEqual([
      ['attributes', 'aria-label'],
    ]);
    expect(ink.draws).toBe(draws + 1);
    expect(cellsOf(rowsIn(body)[1])?.[9]).toBe('Cancelled');
  });

  it('compares with what it wrote, never reading a text back from the page', () => {
    const reads = vi.spyOn(Element.prototype, 'getAttribute');
    try {
      painter.paint(
        [0, 1].map((slot) => ({ slot, index: slot, row: rowOf(slot) })),
        context(),
      );
      // New records in the same rows, one waiting, then the fills' shape: every kind of write.
      painter.paint(
        [
          { slot: 0, index: 5, row: rowOf(5, { status: 'cancelled' }) },
          { slot: 1, index: 6, row: undefined },
        ],
        context({ active: 5 }),
      );
      painter.paint([{ slot: 0, index: 5, row: fillRowOf(5) }], context({ view: 'trades' }));
      // (The page's own code reads attributes too: only the cells' names are the painter's.)
      expect(reads.mock.calls.filter(([name]) => name === 'aria-label')).toEqual([]);
    } finally {
      reads.mockRestore();
    }
    expect(cellsOf(rowsIn(body)[0])).toEqual([
      expect.stringMatching(/2025/),
      'ADA/USDM',
      '▼ Sell',
      '0.6400',
      '5.0000',
      '3.2000',
      expect.stringMatching(/^0\.010000/),
      'Taker',
    ]);
    expect(labelsOf(rowsIn(body)[0])[7]).toBe('Taker');
  });

  it('keeps the elements in slot order as slots leave the page and come back', () => {
    painter.paint(
      [0, 1, 2].map((slot) => ({ slot, index: 10 + slot, row: rowOf(10 + slot) })),
      context(),
    );
    const [first, second, third] = rowsIn(body);
    painter.paint(
      [
        { slot: 0, index: 10, row: rowOf(10) },
        { slot: 2, index: 12, row: rowOf(12) },
      ],
      context(),
    );
    expect(rowsIn(body)).toEqual([first, third]);
    painter.paint(
      [0, 1, 2].map((slot) => ({ slot, index: 20 + slot, row: rowOf(20 + slot) })),
      context(),
    );
    expect(rowsIn(body)).toEqual([first, second, third]);
    expect(rowsIn(body).map((r) => r.id)).toEqual([
      'orders-row-20',
      'orders-row-21',
      'orders-row-22',
    ]);
  });

  it('rebuilds the cells when the view changes between orders and fills, and for a bad record', () => {
    painter.paint([{ slot: 0, index: 0, row: fillRowOf(4) }], context({ view: 'trades' }));
    const row = rowsIn(body)[0];
    expect(cellsOf(row)).toEqual([
      expect.stringMatching(/2025/),
      'ADA/USDM',
      '▲ Buy',
      '0.6400',
      '5.0000',
      '3.2000',
      '0.010000 ADA',
      'Taker',
    ]);

    painter.paint([{ slot: 0, index: 0, row: rowOf(4) }], context({ view: 'open' }));
    expect(cellsOf(row)).toHaveLength(10);

    // A record that does not read is the page's text, across the row, with nothing drawn.
    const broken = rowOf(5, { side: 'sideways' as never });
    painter.paint([{ slot: 0, index: 0, row: broken }], context({ view: 'open' }));
    expect(inkOf(row)).toBeUndefined();
    expect(row?.querySelector('.unreadable')?.textContent).toBe(
      'Order order-5: this record could not be read.',
    );
  });

  it('measures once and draws every row again when the table’s width, theme or zoom change', () => {
    const placed = [0, 1, 2].map((slot) => ({ slot, index: slot, row: rowOf(slot) }));
    painter.paint(placed, context());
    expect([ink.measures, ink.draws]).toEqual([1, 3]);
    painter.paint(placed, context({ active: 2 }));
    expect([ink.measures, ink.draws]).toEqual([1, 3]);

    painter.paint(placed, context({ surface: '1200|0' }));
    expect([ink.measures, ink.draws]).toEqual([2, 6]);

    // A row out of the page when the surface changed is drawn anew when it comes back.
    painter.paint(placed.slice(0, 2), context({ surface: '1200|1' }));
    expect([ink.measures, ink.draws]).toEqual([3, 8]);
    painter.paint(placed, context({ surface: '1200|1' }));
    expect([ink.measures, ink.draws]).toEqual([3, 9]);
  });
});
