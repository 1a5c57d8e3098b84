import { describe, expect, it } from 'vitest';
import { RowSlots, type Placed, type RowRange } from './row-slots.svelte';

interface Rec {
  key: string;
}

/** A list of `count` records keyed `k<index>`; `read` says which indices have been read. */
const listOf = (count: number, read: (index: number) => boolean = () => true) => {
  const records: Rec[] = Array.from({ length: count }, (_, i) => ({ key: `k${i}` }));
  return { records, rowAt: (index: number) => (read(index) ? records[index] : undefined) };
};

const slotsFor = (rowAt: (index: number) => Rec | undefined) =>
  new RowSlots<Rec>(
    () => ({ start: 0, end: 0, viewStart: 0, viewEnd: 0 }),
    rowAt,
    (r) => r.key,
  );

/** Rows [start, end) all in view. */
const all = (start: number, end: number): RowRange => ({
  start,
  end,
  viewStart: start,
  viewEnd: end,
});
/** Rows [start, end) with `overscan` of them either side beyond the view. */
const around = (start: number, end: number, overscan: number): RowRange => ({
  start,
  end,
  viewStart: start + overscan,
  viewEnd: end - overscan,
});

const byIndex = (placed: readonly Placed<Rec>[]) => [...placed].sort((a, b) => a.index - b.index);
const slotAt = (placed: readonly Placed<Rec>[], index: number) =>
  placed.find((p) => p.index === index)?.slot;
const slotOfKey = (placed: readonly Placed<Rec>[], key: string) =>
  placed.find((p) => p.row?.key === key)?.slot;

describe('RowSlots', () => {
  it('gives each row of the window its own element', () => {
    const { rowAt, records } = listOf(100);
    const placed = slotsFor(rowAt).place(all(0, 5));
    expect(byIndex(placed).map((p) => p.row)).toEqual(records.slice(0, 5));
    expect(new Set(placed.map((p) => p.slot)).size).toBe(5);
  });

  it('keeps a record’s element while it is drawn and gives the leaving row’s to the new one', () => {
    const slots = slotsFor(listOf(100).rowAt);
    const before = slots.place(all(10, 20), true);
    const after = slots.place(all(11, 21));
    for (let i = 11; i < 20; i++) {
      expect(slotOfKey(after, `k${i}`)).toBe(slotOfKey(before, `k${i}`));
    }
    // The row that came into view (k20) took the element of the one that left (k10).
    expect(slotOfKey(after, 'k20')).toBe(slotOfKey(before, 'k10'));
    expect(after).toHaveLength(10);
  });

  it('lists the elements in one order that never changes: none is ever moved in the page', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    const order = (placed: readonly Placed<Rec>[]) => placed.map((p) => p.slot);
    const first = order(slots.place(all(100, 130)));
    for (const top of [101, 105, 90, 60_000, 60_010, 59_990, 99_970]) {
      expect(order(slots.place(all(top, top + 30)))).toEqual(first);
    }
  });

  it('re-fills every element after a jump: none is made', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    const before = slots.place(all(100, 130), true);
    const jumped = slots.place(all(60_000, 60_030), true);
    expect(new Set(jumped.map((p) => p.slot))).toEqual(new Set(before.map((p) => p.slot)));
    expect(byIndex(jumped).map((p) => p.row?.key)).toEqual(
      Array.from({ length: 30 }, (_, i) => `k${60_000 + i}`),
    );
  });

  it('shows a record in the element of the placeholder that waited at its place', () => {
    const read = new Set<number>();
    const slots = slotsFor(listOf(1000, (i) => read.has(i)).rowAt);
    const waiting = slots.place(all(500, 510));
    expect(waiting.every((p) => p.row === undefined)).toBe(true);
    for (let i = 500; i < 510; i++) read.add(i);
    const shown = slots.place(all(500, 510), true);
    for (let i = 500; i < 510; i++) expect(slotAt(shown, i)).toBe(slotAt(waiting, i));
    expect(shown.every((p) => p.row !== undefined)).toBe(true);
  });

  it('keeps a waiting row’s element at its place as the window moves on', () => {
    const read = new Set<number>();
    const slots = slotsFor(listOf(1000, (i) => read.has(i)).rowAt);
    const waiting = slots.place(all(500, 510));
    // One row down while 503 and 504 are read: every row still drawn keeps its element.
    read.add(503).add(504);
    const moved = slots.place(all(501, 511));
    for (let i = 501; i < 510; i++) expect(slotAt(moved, i)).toBe(slotAt(waiting, i));
    expect(slotAt(moved, 510)).toBe(slotAt(waiting, 500));
  });

  it('moves a record’s element with it when the list changes under it (live orders)', () => {
    let records: Rec[] = [{ key: 'o-1' }, { key: 'o-2' }];
    const slots = slotsFor((i) => records[i]);
    const before = slots.place(all(0, 2));
    records = [{ key: 'o-3' }, ...records];
    const after = slots.place(all(0, 3));
    expect(byIndex(after).map((p) => p.row?.key)).toEqual(['o-3', 'o-1', 'o-2']);
    expect(slotOfKey(after, 'o-1')).toBe(slotOfKey(before, 'o-1'));
    expect(slotOfKey(after, 'o-2')).toBe(slotOfKey(before, 'o-2'));
    expect(new Set(after.map((p) => p.slot)).size).toBe(3);
  });

  it('hands back the same entries when nothing changed, and a new one for a row that did', () => {
    const read = new Set([0, 1, 2]);
    const slots = slotsFor(listOf(10, (i) => read.has(i)).rowAt);
    const first = slots.place(all(0, 4));
    expect(slots.place(all(0, 4))).toBe(first);
    read.add(3);
    const second = slots.place(all(0, 4));
    for (let i = 0; i < 3; i++) expect(second[i]).toBe(first[i]);
    expect(slotAt(second, 3)).toBe(slotAt(first, 3));
    expect(second.find((p) => p.index === 3)?.row).toEqual({ key: 'k3' });
  });

  it('never holds more elements than the largest window, and drops those a smaller one leaves', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    const seen = new Set<number>();
    for (let top = 0; top < 50_000; top += 997) {
      for (const p of slots.place(all(top, top + 30))) seen.add(p.slot);
      // The list's end: a shorter window for a moment.
      const short = slots.place(all(top, top + 12));
      expect(short).toHaveLength(12);
      for (const p of short) seen.add(p.slot);
    }
    expect(seen.size).toBe(30);
    expect(slots.place(all(0, 0))).toEqual([]);
  });

  it('draws the rows in view before those beside them after a jump', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    // The first screen, too, shows the rows in view first.
    expect(slots.place(around(1000, 1030, 5))).toHaveLength(20);
    expect(slots.deferred).toBe(true);
    const before = slots.place(around(1000, 1030, 5), true);
    expect(before).toHaveLength(30);
    expect(slots.deferred).toBe(false);
    const jumped = slots.place(around(50_000, 50_030, 5), true);
    expect(slots.deferred).toBe(false);
    // Back, and a frame that does not catch up: the twenty rows in view are drawn (over two
    // frames, see the next test); the ten beside them wait, their elements as they were.
    slots.place(around(1000, 1030, 5), true);
    slots.place(around(50_000, 50_030, 5));
    const inView = slots.place(around(50_000, 50_030, 5));
    expect(slots.deferred).toBe(true);
    expect(slots.deferredInView).toBe(false);
    const view = inView.filter((p) => p.index >= 50_005 && p.index < 50_025);
    expect(view.map((p) => p.row?.key).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${50_005 + i}`).sort(),
    );
    const waiting = inView.filter((p) => p.index < 50_005 || p.index >= 50_025);
    expect(waiting).toHaveLength(10);
    for (const p of waiting) expect(p.index < 50_000 || p.index >= 50_030).toBe(true);
    expect(new Set(jumped.map((p) => p.slot))).toEqual(new Set(before.map((p) => p.slot)));

    const caughtUp = slots.place(around(50_000, 50_030, 5), true);
    expect(slots.deferred).toBe(false);
    expect(byIndex(caughtUp).map((p) => p.index)).toEqual(
      Array.from({ length: 30 }, (_, i) => 50_000 + i),
    );
    // Still the same thirty elements.
    expect(new Set(caughtUp.map((p) => p.slot))).toEqual(new Set(before.map((p) => p.slot)));
  });

  it('draws rows beside the view at once when nothing in view changes (a wheel’s step)', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    slots.place(around(1000, 1030, 5), true);
    const stepped = slots.place(around(1002, 1032, 5));
    expect(slots.deferred).toBe(false);
    expect(byIndex(stepped).map((p) => p.index)).toEqual(
      Array.from({ length: 30 }, (_, i) => 1002 + i),
    );
  });

  it('never leaves a row beside the view showing a record that is no longer there', () => {
    let records: Rec[] = Array.from({ length: 30 }, (_, i) => ({ key: `a${i}` }));
    const slots = slotsFor((i) => records[i]);
    slots.place(around(0, 30, 5), true);
    // Another list (another view or filter) in the same window: every row changes.
    records = Array.from({ length: 30 }, (_, i) => ({ key: `b${i}` }));
    const placed = slots.place(around(0, 30, 5));
    // Each row shows its new record or waits for it ("Reading…"): none shows an old one.
    expect(placed.every((p) => p.row === undefined || p.row.key.startsWith('b'))).toBe(true);
    expect(placed.filter((p) => p.row !== undefined).length).toBeGreaterThan(0);
    expect(placed).toHaveLength(30);
  });

  it('fills a screen of new records over frames: half a screen a frame, from the top', () => {
    const slots = slotsFor(listOf(100_000).rowAt);
    slots.place(around(1000, 1040, 5), true);
    // A jump (or a page): thirty rows in view, all new.
    const first = byIndex(slots.place(around(60_000, 60_040, 5)));
    const shown = (placed: readonly Placed<Rec>[]) =>
      placed.filter((p) => p.index >= 60_005 && p.index < 60_035 && p.row !== undefined);
    expect(shown(first).map((p) => p.index)).toEqual(
      Array.from({ length: 15 }, (_, i) => 60_005 + i),
    );
    // The rest of the view waits at its places, in elements of their own.
    const waiting = first.filter((p) => p.index >= 60_020 && p.index < 60_035);
    expect(waiting.map((p) => p.row)).toEqual(Array.from({ length: 15 }, () => undefined));
    expect(slots.deferred).toBe(true);
    expect(slots.deferredInView).toBe(true);
    // The next frame fills them in the elements that waited, and leaves the rows beside.
    const second = byIndex(slots.place(around(60_000, 60_040, 5)));
    expect(shown(second)).toHaveLength(30);
    for (const p of waiting) expect(slotAt(second, p.index)).toBe(p.slot);
    expect(slots.deferredInView).toBe(false);
    expect(slots.deferred).toBe(true);
    // A small screen fills at least eight rows a frame.
    const small = slotsFor(listOf(1000).rowAt);
    small.place(all(0, 10), true);
    const next = small.place(all(500, 510));
    expect(next.filter((p) => p.row !== undefined)).toHaveLength(8);
  });

  it('lists the rows in list order, the page’s own list when that is already in order', () => {
    let range = $state(all(100, 110));
    const slots = new RowSlots<Rec>(
      () => range,
      listOf(1000).rowAt,
      (r) => r.key,
    );
    expect(slots.inListOrder()).toBe(slots.placed);
    // Three rows down: the elements of the three that left show the three that came.
    range = all(103, 113);
    const order = slots.inListOrder();
    expect(order).not.toBe(slots.placed);
    expect(order.map((p) => p.index)).toEqual(Array.from({ length: 10 }, (_, i) => 103 + i));
    expect(new Set(order)).toEqual(new Set(slots.placed));
    // A jump: every element re-filled in order.
    range = all(700, 710);
    expect(slots.inListOrder()).toBe(slots.placed);
    // Fewer rows (a smaller window) out of order: the list kept between calls holds just them.
    range = all(705, 712);
    const fewer = slots.inListOrder();
    expect(fewer).not.toBe(slots.placed);
    expect(fewer.map((p) => p.index)).toEqual(Array.from({ length: 7 }, (_, i) => 705 + i));
  });

  it('follows the window and the rows read as they change, catching up when asked', () => {
    let range = $state(all(0, 3));
    const read = $state<Record<number, boolean>>({});
    const { records } = listOf(100);
    const slots = new RowSlots<Rec>(
      () => range,
      (i) => (read[i] ? records[i] : undefined),
      (r) => r.key,
    );
    expect(slots.placed.map((p) => p.row)).toEqual([undefined, undefined, undefined]);
    read[1] = true;
    expect(byIndex(slots.placed).map((p) => p.row?.key)).toEqual([undefined, 'k1', undefined]);
    range = around(20, 30, 2);
    expect(slots.deferred).toBe(false);
    void slots.placed;
    expect(slots.deferred).toBe(true);
    slots.catchUp();
    expect(byIndex(slots.placed).map((p) => p.index)).toEqual(
      Array.from({ length: 10 }, (_, i) => 20 + i),
    );
    expect(slots.deferred).toBe(false);
  });
});
