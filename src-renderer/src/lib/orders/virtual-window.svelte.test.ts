import { describe, expect, it } from 'vitest';
import { VirtualWindow } from './virtual-window.svelte';

describe('VirtualWindow', () => {
  it('renders only the rows in view plus a few either side', () => {
    const w = new VirtualWindow(() => 100_000, 28, 5);
    w.viewportHeight = 560;
    // At the top: the 20 rows in view, one for a row cut at each edge when scrolled, and 10 below.
    expect([w.start, w.end]).toEqual([0, 31]);
    w.scrollTop = 28 * 50_000;
    expect([w.start, w.end]).toEqual([49_995, 50_026]);
    expect([w.viewStart, w.viewEnd]).toEqual([50_000, 50_020]);
    expect(w.height).toBe(2_800_000);
  });

  it('draws as many rows wherever the list is scrolled, the view and a few either side', () => {
    const w = new VirtualWindow(() => 1_000, 28, 5);
    w.viewportHeight = 570;
    const end = 1_000 * 28 - 570;
    for (const top of [0, 1, 14, 27, 28, 100, 140, 141, 5_000, 13_337, end - 100, end - 1, end]) {
      w.scrollTop = top;
      expect(w.end - w.start).toBe(32);
      expect(w.start).toBeLessThanOrEqual(Math.max(0, w.viewStart - 5));
      expect(w.end).toBeGreaterThanOrEqual(Math.min(1_000, w.viewEnd + 5));
    }
    // At the ends, the rows that cannot be drawn beyond the list are drawn on the other side.
    w.scrollTop = 0;
    expect([w.start, w.end]).toEqual([0, 32]);
    w.scrollTop = end;
    expect([w.start, w.end]).toEqual([968, 1_000]);
  });

  it('never runs past either end of the list', () => {
    const w = new VirtualWindow(() => 10, 28, 5);
    w.viewportHeight = 560;
    w.scrollTop = 10_000;
    expect(w.end).toBe(10);
    expect([w.viewStart, w.viewEnd]).toEqual([10, 10]);
    expect(new VirtualWindow(() => 0, 28).end).toBe(0);
  });

  it('follows the number of rows as it changes', () => {
    let count = $state(3);
    const w = new VirtualWindow(() => count, 20, 0);
    w.viewportHeight = 1000;
    expect(w.end).toBe(3);
    count = 70;
    // The 50 rows a view of 1000 px holds, and one for a row cut at each edge when scrolled.
    expect(w.end).toBe(51);
  });

  it('scrolls as little as possible to show a row whole', () => {
    const w = new VirtualWindow(() => 1000, 20, 0);
    w.viewportHeight = 200;
    w.scrollTop = 400;
    expect(w.scrollFor(25)).toBe(400);
    expect(w.scrollFor(10)).toBe(200);
    expect(w.scrollFor(40)).toBe(620);
    // With a 20 px header over the rows, the last row must clear it.
    expect(w.scrollFor(28, 20)).toBe(400);
    expect(w.scrollFor(29, 20)).toBe(420);
    expect(w.pageSize).toBe(9);
  });
});
