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
 * The cells stay in the page, empty, with their text in `aria-label`: the grid is what assistive
 * technology reads and what a click finds. The canvas is hidden from it.
 */

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
  /** Draws one row's cells on its canvas, sized to the row as last measured. */
  draw(canvas: HTMLCanvasElement, cells: readonly InkCell[]): void;
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

/** A style's glyphs: one picture with every glyph of `GLYPHS`, each `cell` device pixels wide. */
interface Atlas {
  canvas: HTMLCanvasElement;
  /** A glyph's advance, in CSS pixels. */
  advance: number;
  cell: number;
}

/** A word drawn once: its picture and its width in CSS pixels. */
interface Word {
  canvas: HTMLCanvasElement;
  width: number;
}

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

  measure(row: HTMLElement, cells: readonly HTMLElement[]): void {
    const style = getComputedStyle(row);
    const dpr = globalThis.devicePixelRatio || 1;
    const size = style.fontSize;
    const sans = style.fontFamily;
    const mono = style.getPropertyValue('--font-mono').trim() || 'monospace';
    const prop = (name: string, fallback: string) =>
      style.getPropertyValue(name).trim() || fallback;
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

  draw(canvas: HTMLCanvasElement, cells: readonly InkCell[]): void {
    const looks = this.#looks;
    if (!looks) return;
    const dpr = this.#dpr;
    const width = Math.round(this.#width * dpr);
    const height = Math.round(this.#height * dpr);
    const context = canvas.getContext('2d');
    if (!context) return;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    } else {
      context.clearRect(0, 0, width, height);
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
        this.#drawRun(context, runs[k] as InkRun, looks, box.left, cut);
      }
      if (cut !== Number.POSITIVE_INFINITY) {
        this.#drawRun(context, ellipsis, looks, box.left, box.width);
      }
    }
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
    context: CanvasRenderingContext2D,
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
      const height = atlas.canvas.height;
      for (let k = 0; k < text.length; k++) {
        const x = pen[0] ?? 0;
        if (x + atlas.advance > cut + 0.01) return;
        const glyph = GLYPH_AT[text.charCodeAt(k)] ?? 0;
        const at = Math.round((left + x) * dpr) - PAD;
        context.drawImage(
          atlas.canvas,
          glyph * atlas.cell,
          0,
          atlas.cell,
          height,
          at,
          0,
          atlas.cell,
          height,
        );
        pen[0] = x + atlas.advance;
      }
      return;
    }
    const word = this.#word(run);
    const x = pen[0] ?? 0;
    const shown = Math.min(word.width, cut - x);
    if (shown <= 0) return;
    const at = Math.round((left + x) * dpr) - PAD;
    const across = Math.min(word.canvas.width, Math.round(shown * dpr) + PAD);
    const height = word.canvas.height;
    context.drawImage(word.canvas, 0, 0, across, height, at, 0, across, height);
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
    const atlas = { canvas, advance, cell };
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
    this.#context(canvas, look)?.fillText(run.text, PAD, this.#baseline * dpr);
    const word = { canvas, width };
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
