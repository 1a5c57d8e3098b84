import { describe, expect, it } from 'vitest';
import { blit, clearFrame, GLYPHS, newFrame, placeRuns, spriteOf } from './row-ink';

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

/** A picture of `width` × `height` pixels, transparent but for `inked` ([x, y, r, g, b, a]). */
const picture = (width: number, height: number, inked: number[][] = []) => {
  const data = new Uint8ClampedArray(width * height * 4);
  for (const [x = 0, y = 0, ...rgba] of inked) data.set(rgba, (y * width + x) * 4);
  return { data, width, height, colorSpace: 'srgb' } as ImageData;
};
const pixelAt = (image: ImageData, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];

describe('spriteOf', () => {
  it('keeps only the inked pixels of its columns, placed from its first column', () => {
    const { data } = picture(6, 2, [
      [1, 0, 10, 20, 30, 255],
      [3, 1, 40, 50, 60, 128],
      [5, 1, 70, 80, 90, 255],
    ]);
    const sprite = spriteOf(data, 6, 2, 2, 5);
    expect([...sprite.x]).toEqual([1]);
    expect([...sprite.y]).toEqual([1]);
    expect([...sprite.rgba]).toEqual([40, 50, 60, 128]);
  });
});

describe('blit and clearFrame', () => {
  const glyph = spriteOf(
    picture(3, 1, [
      [0, 0, 255, 0, 0, 255],
      [1, 0, 255, 0, 0, 128],
      [2, 0, 255, 0, 0, 255],
    ]).data,
    3,
    1,
    0,
    3,
  );

  it('copies a picture where the frame is clear, up to `across` columns and inside the frame', () => {
    const frame = newFrame(picture(4, 1));
    blit(frame, glyph, 2, 3);
    // The third pixel is past the frame's edge; nothing is drawn left of the picture.
    expect([0, 1, 2, 3].map((x) => pixelAt(frame.image, x, 0)[3])).toEqual([0, 0, 255, 128]);
    blit(frame, glyph, -1, 2);
    // From one column left of the frame, two columns across: only the second lands.
    expect(pixelAt(frame.image, 0, 0)).toEqual([255, 0, 0, 128]);
  });

  it('draws over what is there as a canvas does, where two pictures overlap', () => {
    const frame = newFrame(picture(3, 1, [[1, 0, 0, 0, 255, 128]]));
    blit(frame, glyph, 0, 3);
    // Half-covered blue under half-covered red: three quarters covered, mostly red.
    const [r = 0, g = 0, b = 0, a = 0] = pixelAt(frame.image, 1, 0);
    expect(a).toBeGreaterThanOrEqual(191);
    expect(a).toBeLessThanOrEqual(192);
    expect(g).toBe(0);
    expect(r).toBeGreaterThan(b);
    expect(r + b).toBeGreaterThanOrEqual(254);
  });

  it('clears exactly what was written, however much that was', () => {
    const frame = newFrame(picture(40, 40));
    const full = spriteOf(picture(40, 40).data.fill(255), 40, 40, 0, 40);
    blit(frame, full, 0, 40);
    expect(frame.count).toBe(1600);
    clearFrame(frame);
    expect(frame.count).toBe(0);
    expect(frame.image.data.every((byte) => byte === 0)).toBe(true);
  });
});
