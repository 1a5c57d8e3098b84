/**
 * The Orders table's text, drawn on a canvas in each row rather than laid out as the page's text.
 *
 * Why: a row that comes into view changes some ten cell texts, and a text the page lays out anew
 * is garbage for the browser's own collector (its layout and shaping objects), whatever the
 * cell's style. A scroll frame changes up to three hundred of them, and the collections that
 * follow, with their sweeping, were what made the table's worst frames. Drawn here, a number is
 * copies of glyphs drawn once (an atlas per style) and a word is a picture drawn once (kept while
 * it is used), so a row that changes costs some sixty small copies and no garbage.
 *
 * The copies are made here, pixel by pixel into one frame of memory, which is then put on the
 * row's canvas in one call (`putImageData`), rather than by the canvas (`drawImage`): each
 * `drawImage` call makes a small object on the browser's own heap (its image argument), sixty of
 * them a row and a thousand rows a scroll, and that heap filling up is what sets off the full
 * collections whose pauses make the table's worst frames. A glyph's or word's picture is read
 * once as its inked pixels only (`Sprite`), so a copy touches only the pixels that have ink.
 *
 * The cells stay in the page, empty, with their text in `aria-label`: the grid is what assistive
 * technology reads and what a click finds. The canvas is hidden from it.
 */

import { forcedColors } from '../theme/forced-colors';

/** How a piece of a cell's text looks: the styles the table's cells use. */
const INK_STYLES = ['text', 'muted', 'number', 'numberMuted', 'buy', 'sell', 'failed'] as const;
export type InkStyle = (typeof INK_STYLES)[number];

/** A piece of a cell's text in one style. */
export interface InkRun {
  text: string;
  style: InkStyle;
}

/** One cell's text as drawn: its pieces, left to right, and which side of the cell they keep to. */
export interface InkCell {
  runs: InkRun[];
  right: boolean;
}

/** Draws the rows' texts. The table's is `CanvasInk`; tests record what is drawn. */
export interface RowInk {
  /**
   * Reads how rows are laid out and styled from `row`, a row element with its cells (in the
   * order `draw` is given them): after the table's width, columns, theme or zoom changed.
   */
  measure(row: HTMLElement, cells: readonly HTMLElement[]): void;
  /**
   * Draws one row's cells on `canvas` in place of what its strip showed: the strip `top` CSS
   * pixels from the canvas's top, as high as a row as last measured. The canvas stands over rows
   * `height` CSS pixels in all and as wide as a row; it is sized to that here (which clears it).
   */
  draw(canvas: HTMLCanvasElement, height: number, top: number, cells: readonly InkCell[]): void;
  /** Clears the strip `top` CSS pixels from `canvas`'s top, or all of it without `top`. */
  clear(canvas: HTMLCanvasElement, top?: number): void;
  /** Gives up `canvas`'s pixels: it is not drawn on again. */
  release(canvas: HTMLCanvasElement): void;
}

/**
 * Where a cell's pieces go, given the widths of its first `count` pieces, the cell's content
 * width and the ellipsis's: `x`, the left edge of the first piece, and `cut`, the width past
 * which nothing is drawn and the ellipsis goes (Infinity when all fits), written into `into` as
 * [x, cut] (this runs for every cell drawn: an object returned would be garbage each time). As
 * the page draws text: kept to its side when it fits, and otherwise shown from its start, cut,
 * with an ellipsis at the end.
 */
export const placeRuns = (
  widths: ArrayLike<number>,
  count: number,
  box: number,
  right: boolean,
  ellipsis: number,
  into: Float64Array = new Float64Array(2),
): Float64Array => {
  let total = 0;
  for (let k = 0; k < count; k++) total += widths[k] ?? 0;
  if (total <= box + 0.01) {
    into[0] = right ? box - total : 0;
    into[1] = Number.POSITIVE_INFINITY;
  } else {
    into[0] = 0;
    into[1] = Math.max(0, box - ellipsis);
  }
  return into;
};

/** The characters a number's pieces are drawn from, glyph by glyph, in a monospaced font. */
export const GLYPHS = '0123456789.,-+:%/ —…';

/** Room either side of a glyph or word in its picture, for what a letter draws past its box. */
const PAD = 2;
/** Words kept drawn at most (all of them are drawn again when the table is). */
const MAX_WORDS = 2000;

interface Look {
  font: string;
  color: string;
  mono: boolean;
}

/**
 * A picture's inked pixels (those not fully transparent), read once from its canvas: where each
 * is (`x`, `y`, in device pixels) and its colour, four bytes each as `ImageData` holds them (red,
 * green, blue, alpha, not premultiplied).
 */
export interface Sprite {
  x: Uint16Array;
  y: Uint16Array;
  rgba: Uint8ClampedArray;
  /** `rgba` as whole words, a pixel each. */
  pixels: Uint32Array;
}

/** A style's glyphs, each `cell` device pixels wide in the picture they were drawn in. */
interface Atlas {
  glyphs: Sprite[];
  /** A glyph's advance, in CSS pixels. */
  advance: number;
  cell: number;
}

/** A word drawn once: its inked pixels, its width in CSS pixels and its picture's, in device pixels. */
interface Word {
  sprite: Sprite;
  width: number;
  across: number;
}

/**
 * Where a row's pixels are made before they are put on its canvas: `image`'s pixels, and the
 * pixels written since it was last cleared (by index), so that clearing it touches only those.
 */
export interface Frame {
  image: ImageData;
  /** `image`'s pixels as whole words, for copying and clearing a pixel in one write. */
  words: Uint32Array;
  written: Uint32Array;
  count: number;
}

export const newFrame = (image: ImageData): Frame => ({
  image,
  words: new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height),
  written: new Uint32Array(1024),
  count: 0,
});

/** The inked pixels of the picture `data` (`width` across) between columns `from` and `to`. */
export const spriteOf = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  from: number,
  to: number,
): Sprite => {
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = from; x < to; x++) if ((data[(y * width + x) * 4 + 3] ?? 0) > 0) count++;
  }
  const rgba = new Uint8ClampedArray(count * 4);
  const sprite: Sprite = {
    x: new Uint16Array(count),
    y: new Uint16Array(count),
    rgba,
    pixels: new Uint32Array(rgba.buffer),
  };
  let n = 0;
  for (let y = 0; y < height; y++) {
    for (let x = from; x < to; x++) {
      const at = (y * width + x) * 4;
      if ((data[at + 3] ?? 0) === 0) continue;
      sprite.x[n] = x - from;
      sprite.y[n] = y;
      sprite.rgba.set(data.subarray(at, at + 4), n * 4);
      n++;
    }
  }
  return sprite;
};

/** A picture with no ink (what a glyph or word is where there is no canvas to draw it on). */
const NO_INK = spriteOf(new Uint8ClampedArray(0), 0, 0, 0, 0);

/**
 * Copies `sprite`'s pixels into `frame` with its left edge at column `left`, leaving out those at
 * or past `across` columns of the sprite and those outside the frame. Drawn over what is there as
 * a canvas draws (source over): a pixel over a transparent one is copied, and the few where two
 * pictures' edges overlap are blended.
 */
export const blit = (frame: Frame, sprite: Sprite, left: number, across: number): void => {
  const { image, words } = frame;
  const { data, width, height } = image;
  const { x: xs, y: ys, rgba, pixels } = sprite;
  for (let k = 0; k < xs.length; k++) {
    const sx = xs[k] ?? 0;
    const y = ys[k] ?? 0;
    const x = left + sx;
    if (sx >= across || x < 0 || x >= width || y >= height) continue;
    const pixel = y * width + x;
    const at = pixel * 4;
    const under = data[at + 3] ?? 0;
    if (under === 0) {
      words[pixel] = pixels[k] ?? 0;
      if (frame.count === frame.written.length) {
        const more = new Uint32Array(frame.written.length * 2);
        more.set(frame.written);
        frame.written = more;
      }
      frame.written[frame.count++] = pixel;
      continue;
    }
    // Source over, on colours that are not premultiplied.
    const from = k * 4;
    const alpha = (rgba[from + 3] ?? 0) / 255;
    const below = (under / 255) * (1 - alpha);
    const out = alpha + below;
    for (let c = 0; c < 3; c++) {
      data[at + c] = ((rgba[from + c] ?? 0) * alpha + (data[at + c] ?? 0) * below) / out;
    }
    data[at + 3] = out * 255;
  }
};

/** Makes `frame` transparent again, clearing only the pixels written since it last was. */
export const clearFrame = (frame: Frame): void => {
  const { words, written } = frame;
  for (let k = 0; k < frame.count; k++) words[written[k] ?? 0] = 0;
  frame.count = 0;
};

/** A cell's content box in its row, in CSS pixels. */
interface Box {
  left: number;
  width: number;
}

/** Each character's place in `GLYPHS` by its code (-1: not there). By code, not by character:
 * a character read out of a string can be a new string, garbage for each glyph drawn. */
const GLYPH_AT = new Int8Array(0x2030).fill(-1);
for (let k = 0; k < GLYPHS.length; k++) GLYPH_AT[GLYPHS.charCodeAt(k)] = k;

const inGlyphs = (text: string): boolean => {
  for (let k = 0; k < text.length; k++) if ((GLYPH_AT[text.charCodeAt(k)] ?? -1) < 0) return false;
  return true;
};

/** The ellipsis of a cut text, in each style (made once: this runs for every cell drawn). */
const ELLIPSIS = Object.fromEntries(
  INK_STYLES.map((style) => [style, { text: '…', style }]),
) as Record<InkStyle, InkRun>;

/** The table's ink: glyphs and words drawn once per style and copied onto each row's canvas. */
export class CanvasInk implements RowInk {
  #dpr = 1;
  #width = 0;
  #height = 0;
  /** The baseline, in CSS pixels from the row's top, of text centred as the page centres it. */
  #baseline = 0;
  #boxes: Box[] = [];
  #looks: Record<InkStyle, Look> | null = null;
  #lookKey = '';
  #atlases = new Map<InkStyle, Atlas>();
  /** The words drawn, by style and text (a key made of the two would be a new string a look-up). */
  #words = new Map<InkStyle, Map<string, Word>>();
  #wordCount = 0;
  // Numbers the drawing works with, kept in typed arrays between cells: this runs for every
  // cell drawn, and a fractional number returned from a call or kept in an object is a new
  // object each time (garbage while scrolling).
  /** The widths of one cell's pieces, and after them the ellipsis's. */
  #widths = new Float64Array(8);
  /** Where a cell's pieces start and where they are cut (`placeRuns`). */
  readonly #place = new Float64Array(2);
  /** Where the next piece is drawn, in CSS pixels from the cell's left. */
  readonly #pen = new Float64Array(1);
  /** Where each row is made before it is put on its canvas (one for all: they are made in turn). */
  #frame: Frame | null = null;
  #contexts = new WeakMap<HTMLCanvasElement, CanvasRenderingContext2D>();

  measure(row: HTMLElement, cells: readonly HTMLElement[]): void {
    const style = getComputedStyle(row);
    const dpr = globalThis.devicePixelRatio || 1;
    const size = style.fontSize;
    const sans = style.fontFamily;
    const mono = style.getPropertyValue('--font-mono').trim() || 'monospace';
    // In forced colours (a high-contrast theme of the system) the page's texts take the
    // system's colour, and so does all the ink: the theme's own tones (its greens and reds) are
    // not forced, and a side still reads by its arrow and its word.
    const forced = forcedColors()?.matches === true;
    const prop = (name: string, fallback: string) =>
      (!forced && style.getPropertyValue(name).trim()) || fallback;
    const text = style.color;
    const looks: Record<InkStyle, Look> = {
      text: { font: `400 ${size} ${sans}`, color: text, mono: false },
      muted: { font: `400 ${size} ${sans}`, color: prop('--text-muted', text), mono: false },
      number: { font: `400 ${size} ${mono}`, color: text, mono: true },
      numberMuted: { font: `400 ${size} ${mono}`, color: prop('--text-muted', text), mono: true },
      buy: { font: `600 ${size} ${sans}`, color: prop('--buy-text', text), mono: false },
      sell: { font: `600 ${size} ${sans}`, color: prop('--sell-text', text), mono: false },
      failed: { font: `400 ${size} ${sans}`, color: prop('--sell-text', text), mono: false },
    };
    this.#width = row.clientWidth;
    this.#height = row.clientHeight;
    const key = `${dpr}|${this.#height}|${JSON.stringify(looks)}`;
    if (key !== this.#lookKey) {
      this.#lookKey = key;
      this.#looks = looks;
      this.#dpr = dpr;
      this.#atlases.clear();
      this.#words.clear();
      this.#wordCount = 0;
    }
    this.#boxes = cells.map((cell) => {
      const cellStyle = getComputedStyle(cell);
      const padLeft = parseFloat(cellStyle.paddingLeft) || 0;
      const padRight = parseFloat(cellStyle.paddingRight) || 0;
      const width = cell.offsetWidth - padLeft - padRight;
      return { left: cell.offsetLeft + padLeft, width: cell.offsetWidth > 0 ? width : -1 };
    });
    // The page centres a line box of the font's ascent and descent in the row.
    const probe = this.#context(document.createElement('canvas'), looks.text);
    if (!probe) {
      // No canvas here (a page without one, as in a test's simulated DOM): the cells still say
      // their texts to assistive technology, and nothing is drawn.
      this.#looks = null;
      this.#lookKey = '';
      return;
    }
    const metrics = probe.measureText('0');
    const ascent = metrics.fontBoundingBoxAscent / dpr;
    const descent = metrics.fontBoundingBoxDescent / dpr;
    this.#baseline = this.#height / 2 - (ascent + descent) / 2 + ascent;
  }

  draw(canvas: HTMLCanvasElement, height: number, top: number, cells: readonly InkCell[]): void {
    const looks = this.#looks;
    if (!looks) return;
    const dpr = this.#dpr;
    const width = Math.round(this.#width * dpr);
    const rowHeight = Math.round(this.#height * dpr);
    const context = this.#contextOf(canvas);
    if (!context || width <= 0 || rowHeight <= 0) return;
    const canvasHeight = Math.round(height * dpr);
    if (canvas.width !== width || canvas.height !== canvasHeight) {
      canvas.width = width;
      canvas.height = canvasHeight;
    }
    let frame = this.#frame;
    if (frame?.image.width !== width || frame.image.height !== rowHeight) {
      frame = this.#frame = newFrame(new ImageData(width, rowHeight));
    }
    const place = this.#place;
    const pen = this.#pen;
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c];
      const box = this.#boxes[c];
      if (!cell || !box || box.width < 0) continue;
      const { runs } = cell;
      const count = runs.length;
      if (this.#widths.length <= count) this.#widths = new Float64Array(2 * count + 2);
      const widths = this.#widths;
      let lastStyle: InkStyle = 'text';
      for (let k = 0; k < count; k++) {
        const run = runs[k] as InkRun;
        this.#measureRun(run, looks, widths, k);
        lastStyle = run.style;
      }
      const ellipsis = ELLIPSIS[lastStyle];
      this.#measureRun(ellipsis, looks, widths, count);
      placeRuns(widths, count, box.width, cell.right, widths[count] ?? 0, place);
      const cut = place[1] ?? 0;
      pen[0] = place[0] ?? 0;
      for (let k = 0; k < count && (pen[0] ?? 0) < cut; k++) {
        this.#drawRun(frame, runs[k] as InkRun, looks, box.left, cut);
      }
      if (cut !== Number.POSITIVE_INFINITY) {
        this.#drawRun(frame, ellipsis, looks, box.left, box.width);
      }
    }
    // The whole strip, so that what it showed before is replaced, not drawn over.
    context.putImageData(frame.image, 0, Math.round(top * dpr));
    clearFrame(frame);
  }

  clear(canvas: HTMLCanvasElement, top?: number): void {
    const context = this.#contextOf(canvas);
    if (!context) return;
    if (top === undefined) context.clearRect(0, 0, canvas.width, canvas.height);
    else {
      const dpr = this.#dpr;
      context.clearRect(0, Math.round(top * dpr), canvas.width, Math.round(this.#height * dpr));
    }
  }

  release(canvas: HTMLCanvasElement): void {
    canvas.width = 0;
    canvas.height = 0;
    this.#contexts.delete(canvas);
  }

  /** A canvas's context, kept: each `getContext` call makes an object on the page's heap. */
  #contextOf(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
    let context = this.#contexts.get(canvas);
    if (!context) {
      context = canvas.getContext('2d') ?? undefined;
      if (!context) return null;
      this.#contexts.set(canvas, context);
    }
    return context;
  }

  /** Writes a piece's width, in CSS pixels, into `widths` at `at`. */
  #measureRun(run: InkRun, looks: Record<InkStyle, Look>, widths: Float64Array, at: number): void {
    if (!run.text) widths[at] = 0;
    else if (looks[run.style].mono && inGlyphs(run.text)) {
      widths[at] = run.text.length * this.#atlas(run.style).advance;
    } else widths[at] = this.#word(run).width;
  }

  /** Draws a piece from the pen (CSS pixels in its cell), up to `cut`, and moves the pen on. */
  #drawRun(
    frame: Frame,
    run: InkRun,
    looks: Record<InkStyle, Look>,
    left: number,
    cut: number,
  ): void {
    const dpr = this.#dpr;
    const pen = this.#pen;
    const { text } = run;
    if (!text) return;
    if (looks[run.style].mono && inGlyphs(text)) {
      const atlas = this.#atlas(run.style);
      for (let k = 0; k < text.length; k++) {
        const x = pen[0] ?? 0;
        if (x + atlas.advance > cut + 0.01) return;
        const glyph = atlas.glyphs[GLYPH_AT[text.charCodeAt(k)] ?? 0];
        if (glyph) blit(frame, glyph, Math.round((left + x) * dpr) - PAD, atlas.cell);
        pen[0] = x + atlas.advance;
      }
      return;
    }
    const word = this.#word(run);
    const x = pen[0] ?? 0;
    const shown = Math.min(word.width, cut - x);
    if (shown <= 0) return;
    const across = Math.min(word.across, Math.round(shown * dpr) + PAD);
    blit(frame, word.sprite, Math.round((left + x) * dpr) - PAD, across);
    pen[0] = x + shown;
  }

  #atlas(style: InkStyle): Atlas {
    const known = this.#atlases.get(style);
    if (known) return known;
    const look = (this.#looks as Record<InkStyle, Look>)[style];
    const dpr = this.#dpr;
    const measure = this.#context(document.createElement('canvas'), look);
    const advance = (measure?.measureText('0').width ?? 0) / dpr;
    const cell = Math.ceil(advance * dpr) + 2 * PAD;
    const canvas = document.createElement('canvas');
    canvas.width = cell * GLYPHS.length;
    canvas.height = Math.max(1, Math.round(this.#height * dpr));
    const context = this.#context(canvas, look);
    for (let k = 0; k < GLYPHS.length; k++) {
      context?.fillText(GLYPHS.charAt(k), k * cell + PAD, this.#baseline * dpr);
    }
    const data = context?.getImageData(0, 0, canvas.width, canvas.height).data;
    const glyphs: Sprite[] = [];
    for (let k = 0; k < GLYPHS.length; k++) {
      glyphs.push(
        data ? spriteOf(data, canvas.width, canvas.height, k * cell, (k + 1) * cell) : NO_INK,
      );
    }
    const atlas = { glyphs, advance, cell };
    this.#atlases.set(style, atlas);
    return atlas;
  }

  #word(run: InkRun): Word {
    let ofStyle = this.#words.get(run.style);
    const known = ofStyle?.get(run.text);
    if (known) return known;
    if (this.#wordCount >= MAX_WORDS) {
      this.#words.clear();
      this.#wordCount = 0;
      ofStyle = undefined;
    }
    if (!ofStyle) this.#words.set(run.style, (ofStyle = new Map()));
    const look = (this.#looks as Record<InkStyle, Look>)[run.style];
    const dpr = this.#dpr;
    const canvas = document.createElement('canvas');
    const width = (this.#context(canvas, look)?.measureText(run.text).width ?? 0) / dpr;
    canvas.width = Math.ceil(width * dpr) + 2 * PAD;
    canvas.height = Math.max(1, Math.round(this.#height * dpr));
    // Resizing a canvas resets its context's state: set the look again before drawing.
    const context = this.#context(canvas, look);
    context?.fillText(run.text, PAD, this.#baseline * dpr);
    const data = context?.getImageData(0, 0, canvas.width, canvas.height).data;
    const sprite = data ? spriteOf(data, canvas.width, canvas.height, 0, canvas.width) : NO_INK;
    const word = { sprite, width, across: canvas.width };
    ofStyle.set(run.text, word);
    this.#wordCount++;
    return word;
  }

  /** A canvas's context set to draw `look` at the device's pixel ratio, from the baseline. */
  #context(canvas: HTMLCanvasElement, look: Look): CanvasRenderingContext2D | null {
    const context = canvas.getContext('2d');
    if (!context) return null;
    const dpr = this.#dpr;
    context.font = look.font.replace(
      /(\d+(?:\.\d+)?)px/,
      (_, px: string) => `${Number(px) * dpr}px`,
    );
    context.fillStyle = look.color;
    context.textBaseline = 'alphabetic';
    return context;
  }
}
