import { chromium, type Browser, type Locator } from '@playwright/test';
import { generate } from 'lean-qr';
import { writeFile } from 'node:fs/promises';
import config from '../../playwright.config';

/**
 * A camera for the e2e tests: what one app shows as QR codes, filmed for another. The codes are
 * read off the showing page's canvas as a trader's eyes would see them (its pixels, not the text
 * behind them), written as a Y4M video, and a Chromium started with that video as its camera
 * (Chromium's fake capture device, which plays the file round and round).
 */

/** A QR code as drawn on the page: one canvas pixel a module, quiet zone included. */
export interface ShownCode {
  side: number;
  /** 1 for a dark module, row by row. */
  dark: number[];
}

/** The code a page shows in `canvas` right now. */
export const shownCode = (canvas: Locator): Promise<ShownCode> =>
  canvas.evaluate((element) => {
    const c = element as HTMLCanvasElement;
    const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
    if (!pixels || c.width !== c.height) throw new Error('no square QR code on this canvas');
    const dark: number[] = [];
    for (let i = 0; i < pixels.length; i += 4) dark.push((pixels[i] ?? 255) < 128 ? 1 : 0);
    return { side: c.width, dark };
  });

/** A QR code of any text, as a page would draw it (for codes that are not Countersign's). */
export const codeOf = (text: string): ShownCode => {
  const code = generate(text);
  const pad = 4;
  const side = code.size + pad * 2;
  const dark: number[] = [];
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) dark.push(code.get(x - pad, y - pad) ? 1 : 0);
  }
  return { side, dark };
};

/**
 * Every code of a turning set (paused, then stepped through with "Next code"), in order; the
 * single code of a set of one.
 */
export const allShownCodes = async (figure: Locator): Promise<ShownCode[]> => {
  const canvas = figure.locator('canvas');
  const pause = figure.getByRole('button', { name: 'Pause' });
  if ((await pause.count()) === 0) return [await shownCode(canvas)];
  await pause.click();
  const caption = await figure.locator('figcaption').innerText();
  const count = Number(/of (\d+)/.exec(caption)?.[1] ?? '1');
  const codes: ShownCode[] = [];
  for (let k = 0; k < count; k++) {
    codes.push(await shownCode(canvas));
    await figure.getByRole('button', { name: 'Next code' }).click();
  }
  return codes;
};

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 10;

/**
 * A Y4M video (4:2:0, grey) of the codes one after another, each held `framesEach` frames and
 * drawn at `scale` video pixels a module in the middle of a white frame, as a screen held up to
 * a webcam shows them.
 */
export const writeCameraVideo = async (
  path: string,
  codes: readonly ShownCode[],
  { framesEach = 5, scale = 4 }: { framesEach?: number; scale?: number } = {},
): Promise<void> => {
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`);
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frames: Buffer[] = [header];
  for (const code of codes) {
    const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
    const size = code.side * scale;
    if (size > HEIGHT) throw new Error(`a ${code.side}-module code does not fit at ${scale}×`);
    const left = Math.floor((WIDTH - size) / 2);
    const top = Math.floor((HEIGHT - size) / 2);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const module = code.dark[Math.floor(y / scale) * code.side + Math.floor(x / scale)];
        if (module) luma[(top + y) * WIDTH + left + x] = 16;
      }
    }
    const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
    for (let f = 0; f < framesEach; f++) frames.push(frame);
  }
  await writeFile(path, Buffer.concat(frames));
};

/** Chromium as the tests run it, with `video` as its only camera, allowed without asking. */
export const browserWithCamera = (video: string): Promise<Browser> => {
  const launch = config.use?.launchOptions ?? {};
  return chromium.launch({
    ...launch,
    args: [
      ...(launch.args ?? []),
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
};
