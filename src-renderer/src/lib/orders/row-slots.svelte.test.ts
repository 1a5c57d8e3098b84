import { describe, expect, it } from 'vitest';
import { RowSlots, type Placed } from './row-slots.svelte';

interface Rec {
  key: string;
}

/** A list of `count` records keyed `k<index>`; `read` says which indices have been read. */
const listOf = (count: number, read: (index: number) => boolean = () => true) => {
  const records: Rec[] = Array.from({ length: count }, (_, i) => ({ key: `k${i}` }));
  return {
    records,
    rowAt: (index: number) => (read(index) ? records[index] : undefined),
  };
};

const slotsOf = (placed: readonly Placed<Rec>[]) => placed.map((p) => p.slot);
const slotOfKey = (placed: readonly Placed<Rec>[], key: string) =>
  placed.find((p) => p.row?.key === key)?.slot;

describe('RowSlots', () => {
  it('gives each row of the window its own element, in list order', () => {
    const { rowAt, records } = listOf(100);
    const slots = new RowSlots(
      () => 0,
      () => 5,
      rowAt,
      (r) => r.key,
    );
    const placed = slots.place(0, 5);
    expect(placed.map((p) => p.index)).toEqual([0, 1, 2, 3, 4]);
    expect(placed.map((p) => p.row)).toEqual(records.slice(0, 5));
    expect(new Set(slotsOf(placed)).size).toBe(5);
  });

  it('keeps a record’s element while it is in view and gives the leaving row’s to the new one', () => {
    const { rowAt } = listOf(100);
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const before = slots.place(10, 20);
    const after = slots.place(11, 21);
    for (let i = 11; i < 20; i++) {
      expect(slotOfKey(after, `k${i}`)).toBe(slotOfKey(before, `k${i}`));
    }
    // The row that came into view (k20) took the element of the one that left (k10).
    expect(slotOfKey(after, 'k20')).toBe(slotOfKey(before, 'k10'));
    expect(new Set(slotsOf(after)).size).toBe(10);
  });

  it('re-fills every element in place after a jump: none is made and none moves', () => {
    const { rowAt } = listOf(100_000);
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const before = slotsOf(slots.place(100, 130));
    slots.place(101, 131);
    slots.place(103, 133);
    const settled = slotsOf(slots.place(103, 133));
    const jumped = slots.place(60_000, 60_030);
    // The same elements, in the same page order (a slot to each row, in the order they stood).
    expect(slotsOf(jumped)).toEqual(settled);
    expect(new Set(slotsOf(jumped))).toEqual(new Set(before));
    expect(jumped.map((p) => p.row?.key)).toEqual(
      Array.from({ length: 30 }, (_, i) => `k${60_000 + i}`),
    );
  });

  it('shows a record in the element of the placeholder that waited at its place', () => {
    const read = new Set<number>();
    const { rowAt } = listOf(1000, (i) => read.has(i));
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const waiting = slots.place(500, 510);
    expect(waiting.every((p) => p.row === undefined)).toBe(true);
    for (let i = 500; i < 510; i++) read.add(i);
    const shown = slots.place(500, 510);
    expect(slotsOf(shown)).toEqual(slotsOf(waiting));
    expect(shown.every((p) => p.row !== undefined)).toBe(true);
  });

  it('keeps a waiting row’s element at its place as the window moves on', () => {
    const read = new Set<number>();
    const { rowAt } = listOf(1000, (i) => read.has(i));
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const waiting = slots.place(500, 510);
    const slotAt = (placed: readonly Placed<Rec>[], index: number) =>
      placed.find((p) => p.index === index)?.slot;
    // One row down while 503 and 504 are read: every row still in the window keeps its element.
    read.add(503).add(504);
    const moved = slots.place(501, 511);
    for (let i = 501; i < 510; i++) expect(slotAt(moved, i)).toBe(slotAt(waiting, i));
    expect(slotAt(moved, 510)).toBe(slotAt(waiting, 500));
  });

  it('moves a record’s element with it when the list changes under it (live orders)', () => {
    let records: Rec[] = [{ key: 'o-1' }, { key: 'o-2' }];
    const slots = new RowSlots(
      () => 0,
      () => 0,
      (i) => records[i],
      (r) => r.key,
    );
    const before = slots.place(0, 2);
    records = [{ key: 'o-3' }, ...records];
    const after = slots.place(0, 3);
    expect(after.map((p) => p.row?.key)).toEqual(['o-3', 'o-1', 'o-2']);
    expect(slotOfKey(after, 'o-1')).toBe(slotOfKey(before, 'o-1'));
    expect(slotOfKey(after, 'o-2')).toBe(slotOfKey(before, 'o-2'));
    expect(new Set(slotsOf(after)).size).toBe(3);
  });

  it('hands back the same entry for a row unchanged, and a new one for a row that changed', () => {
    const read = new Set([0, 1, 2]);
    const { rowAt } = listOf(10, (i) => read.has(i));
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const first = slots.place(0, 4);
    read.add(3);
    const second = slots.place(0, 4);
    expect(second.slice(0, 3)).toEqual(first.slice(0, 3));
    for (let i = 0; i < 3; i++) expect(second[i]).toBe(first[i]);
    expect(second[3]).not.toBe(first[3]);
    expect(second[3]?.row).toEqual({ key: 'k3' });
  });

  it('never holds more elements than the largest window', () => {
    const { rowAt } = listOf(100_000);
    const slots = new RowSlots(
      () => 0,
      () => 0,
      rowAt,
      (r) => r.key,
    );
    const seen = new Set<number>();
    for (let top = 0; top < 50_000; top += 997) {
      for (const p of slots.place(top, top + 30)) seen.add(p.slot);
      // The list's end: a shorter window for a moment.
      for (const p of slots.place(top, top + 12)) seen.add(p.slot);
    }
    expect(seen.size).toBe(30);
    expect(slots.place(0, 0)).toEqual([]);
  });

  it('follows the window and the rows read as they change', () => {
    let start = $state(0);
    let end = $state(3);
    const read = $state<Record<number, boolean>>({});
    const { records } = listOf(100);
    const slots = new RowSlots(
      () => start,
      () => end,
      (i) => (read[i] ? records[i] : undefined),
      (r) => r.key,
    );
    expect(slots.placed.map((p) => p.row)).toEqual([undefined, undefined, undefined]);
    read[1] = true;
    expect(slots.placed.map((p) => p.row?.key)).toEqual([undefined, 'k1', undefined]);
    start = 1;
    end = 5;
    expect(slots.placed.map((p) => p.index)).toEqual([1, 2, 3, 4]);
  });
});
