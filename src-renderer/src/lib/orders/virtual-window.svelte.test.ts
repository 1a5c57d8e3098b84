import { describe, expect, it } from 'vitest';
import { VirtualWindow } from './virtual-window.svelte';

describe('VirtualWindow', () => {
  it('renders only the rows in view plus a few either side', () => {
    const w = new VirtualWindow(() => 100_000, 28, 5);
    w.viewportHeight = 560;
    expect([w.start, w.end]).toEqual([0, 25]);
    w.scrollTop = 28 * 50_000;
    expect([w.start, w.end]).toEqual([49_995, 50_025]);
    expect([w.viewStart, w.viewEnd]).toEqual([50_000, 50_020]);
    expect(w.height).toBe(2_800_000);
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
    expect(w.end).toBe(50);
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
