import { describe, expect, it } from 'vitest';
import { GLYPHS, placeRuns } from './row-ink';

const placed = (widths: number[], box: number, right: boolean, ellipsis: number) => {
  const [x, cut] = placeRuns(widths, widths.length, box, right, ellipsis);
  return { x, cut };
};

describe('placeRuns', () => {
  it('keeps text that fits to its side of the cell', () => {
    expect(placed([30, 20], 100, false, 6)).toEqual({ x: 0, cut: Infinity });
    expect(placed([30, 20], 100, true, 6)).toEqual({ x: 50, cut: Infinity });
    expect(placed([], 100, true, 6)).toEqual({ x: 100, cut: Infinity });
  });

  it('shows text that does not fit from its start, cut where the ellipsis still fits', () => {
    // As the page does with `text-overflow: ellipsis`: a number too wide for its column shows
    // its first digits, not its last, whichever side it keeps to.
    expect(placed([80, 40], 100, true, 6)).toEqual({ x: 0, cut: 94 });
    expect(placed([80, 40], 100, false, 6)).toEqual({ x: 0, cut: 94 });
  });

  it('draws nothing but the ellipsis in a cell narrower than it', () => {
    expect(placed([40], 4, false, 6)).toEqual({ x: 0, cut: 0 });
  });

  it('treats text as fitting when it is wider only by rounding', () => {
    expect(placed([33.333, 33.333, 33.334], 100, true, 6).cut).toBe(Infinity);
  });
});

describe('GLYPHS', () => {
  it('holds every character of the numbers and times the table shows', () => {
    // Times ("2025-03-01 12:00:00"), grouped amounts, percentages, the dash of a missing value.
    for (const text of ['2025-03-01 12:00:00', '60,010.0000', '-0.5', '37%', '—']) {
      for (const c of text) expect(GLYPHS).toContain(c);
    }
  });
});
