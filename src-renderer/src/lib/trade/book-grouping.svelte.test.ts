import { describe, expect, it } from 'vitest';
import { BookGrouping } from './book-grouping.svelte';

const memory = () => {
  const saved = new Map<string, string>();
  return {
    saved,
    getItem: (key: string) => saved.get(key) ?? null,
    setItem: (key: string, value: string) => void saved.set(key, value),
  };
};

describe('BookGrouping', () => {
  it("shows each market's book as quoted until a step is chosen for it", () => {
    const grouping = new BookGrouping(memory());
    expect(grouping.stepOf('ADAUSDM', 4).toFixed()).toBe('0.0001');
    expect(grouping.groupingOf('ADAUSDM', 4)).toBeNull();
    grouping.choose('ADAUSDM', '0.01');
    expect(grouping.groupingOf('ADAUSDM', 4)?.toFixed()).toBe('0.01');
    expect(grouping.groupingOf('NIGHTUSDM', 4)).toBeNull();
    grouping.choose('ADAUSDM', '0.0001');
    expect(grouping.groupingOf('ADAUSDM', 4)).toBeNull();
  });

  it('keeps the choice across restarts, and reads a step the market no longer has as its tick', () => {
    const storage = memory();
    new BookGrouping(storage).choose('ADAUSDM', '0.001');
    expect(new BookGrouping(storage).groupingOf('ADAUSDM', 4)?.toFixed()).toBe('0.001');
    // The market now quotes two decimals: 0.001 is finer than its tick.
    expect(new BookGrouping(storage).stepOf('ADAUSDM', 2).toFixed()).toBe('0.01');
    expect(new BookGrouping(storage).groupingOf('ADAUSDM', 2)).toBeNull();
    storage.saved.set('countersign.trade.book-step.NIGHTUSDM', 'lots');
    expect(new BookGrouping(storage).groupingOf('NIGHTUSDM', 4)).toBeNull();
  });
});
