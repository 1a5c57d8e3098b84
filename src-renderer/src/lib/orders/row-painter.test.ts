import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Market } from '../../../../src-shared/domain';
import { ADA_USDM, orderOf } from '../trade/fake-api';
import type { InkCell, RowInk } from './row-ink';
import { RowPainter, type PaintContext } from './row-painter';
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
 * Keeps what each row's canvas was last drawn with (the drawing itself is the browser's: the
 * Orders e2e tests look at it in Chromium).
 */
class RecordedInk implements RowInk {
  measures = 0;
  draws = 0;
  readonly drawn = new Map<HTMLCanvasElement, InkCell[]>();
  measure(): void {
    this.measures++;
  }
  draw(canvas: HTMLCanvasElement, cells: readonly InkCell[]): void {
    this.draws++;
    this.drawn.set(
      canvas,
      cells.map((cell) => ({ right: cell.right, runs: cell.runs.map((run) => ({ ...run })) })),
    );
  }
}
let ink: RecordedInk;

/** A row's texts as last drawn, a cell each. */
const cellsOf = (row: Element | null | undefined) => {
  const canvas = row?.querySelector('canvas');
  return canvas ? ink.drawn.get(canvas)?.map((cell) => cell.runs.map((r) => r.text).join('')) : [];
};
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
    const rows = [...body.children] as HTMLElement[];
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
    const drawn = ink.drawn.get(rows[0]?.querySelector('canvas') as HTMLCanvasElement);
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
    const row = body.firstElementChild;
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
    expect(body.firstElementChild).toBe(row);
    expect([...(row?.querySelectorAll('[role=gridcell]') ?? [])]).toEqual(cells);
    expect(row?.hasAttribute('aria-busy')).toBe(false);
    expect(cellsOf(row)?.[5]).toBe('13.0000');
    expect(labelsOf(row)[5]).toBe('13.0000');
    expect(waiting?.classList.contains('off')).toBe(true);
    expect(hiddenCells(row)).toBe(0);
  });

  it('keeps a waiting row’s last text under "Reading…", so a row read again draws nothing', () => {
    const record = rowOf(3);
    painter.paint([{ slot: 0, index: 3, row: record }], context());
    const row = body.firstElementChild;
    const shown = cellsOf(row);
    const draws = ink.draws;
    const changes = new MutationObserver(() => undefined);
    changes.observe(body, {
      subtree: true,
      characterData: true,
      childList: true,
      attributeFilter: ['aria-label'],
    });

    // A jump away and back: the row waits ("Reading…" covers its cells), then shows the
    // same record again, without a single text written.
    painter.paint([{ slot: 0, index: 3, row: undefined }], context());
    expect(row?.getAttribute('aria-busy')).toBe('true');
    expect(cellsOf(row)).toEqual(shown);
    painter.paint([{ slot: 0, index: 3, row: record }], context());
    expect(row?.hasAttribute('aria-busy')).toBe(false);
    expect(changes.takeRecords()).toEqual([]);
    expect(ink.draws).toBe(draws);
    changes.disconnect();
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
    expect(cellsOf(body.children[1])?.[9]).toBe('Cancelled');
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
    expect(cellsOf(body.firstElementChild)).toEqual([
      expect.stringMatching(/2025/),
      'ADA/USDM',
      '▼ Sell',
      '0.6400',
      '5.0000',
      '3.2000',
      expect.stringMatching(/^0\.010000/),
      'Taker',
    ]);
    expect(labelsOf(body.firstElementChild)[7]).toBe('Taker');
  });

  it('keeps the elements in slot order as slots leave the page and come back', () => {
    painter.paint(
      [0, 1, 2].map((slot) => ({ slot, index: 10 + slot, row: rowOf(10 + slot) })),
      context(),
    );
    const [first, second, third] = [...body.children];
    painter.paint(
      [
        { slot: 0, index: 10, row: rowOf(10) },
        { slot: 2, index: 12, row: rowOf(12) },
      ],
      context(),
    );
    expect([...body.children]).toEqual([first, third]);
    painter.paint(
      [0, 1, 2].map((slot) => ({ slot, index: 20 + slot, row: rowOf(20 + slot) })),
      context(),
    );
    expect([...body.children]).toEqual([first, second, third]);
    expect([...body.children].map((r) => r.id)).toEqual([
      'orders-row-20',
      'orders-row-21',
      'orders-row-22',
    ]);
  });

  it('rebuilds the cells when the view changes between orders and fills, and for a bad record', () => {
    painter.paint([{ slot: 0, index: 0, row: fillRowOf(4) }], context({ view: 'trades' }));
    const row = body.firstElementChild;
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
    expect(row?.querySelector('canvas')).toBeNull();
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
