import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICON_SIZES, buildIcons, type BuiltIcons } from '../../../scripts/icons';

const root = resolve(import.meta.dirname, '../../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or null when it is not a PNG. */
const pngSize = (data: Buffer): { width: number; height: number } | null => {
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (data.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
};

/** The images of an .ico: the directory's sizes, and each image's own size. */
const readIco = (data: Buffer) => {
  expect(data.readUInt16LE(0)).toBe(0);
  expect(data.readUInt16LE(2)).toBe(1);
  const count = data.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + i * 16;
    const listed = data.readUInt8(entry) || 256;
    const length = data.readUInt32LE(entry + 8);
    const offset = data.readUInt32LE(entry + 12);
    const image = data.subarray(offset, offset + length);
    expect(image.length).toBe(length);
    // PNG-compressed, or a BMP whose header gives width and double height (image + mask).
    const size = pngSize(image) ?? {
      width: image.readInt32LE(4),
      height: image.readInt32LE(8) / 2,
    };
    return { listed, ...size };
  });
};

/** The PNG images of an .icns, by type. */
const readIcns = (data: Buffer) => {
  expect(data.subarray(0, 4).toString('latin1')).toBe('icns');
  expect(data.readUInt32BE(4)).toBe(data.length);
  const images = new Map<string, { width: number; height: number }>();
  for (let at = 8; at < data.length;) {
    const type = data.subarray(at, at + 4).toString('latin1');
    const length = data.readUInt32BE(at + 4);
    expect(length).toBeGreaterThan(8);
    const size = pngSize(data.subarray(at + 8, at + length));
    if (size) images.set(type, size);
    at += length;
  }
  return images;
};

let dir: string;
let icons: BuiltIcons;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cs-icons-'));
  icons = await buildIcons(join(root, 'resources/icon.svg'), dir);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the app icons made from resources/icon.svg', () => {
  it('are PNGs of every Linux size, named as electron-builder expects', async () => {
    const names = (await readdir(icons.pngDir)).sort();
    expect(names).toEqual(ICON_SIZES.png.map((size) => `${size}x${size}.png`).sort());
    for (const size of ICON_SIZES.png) {
      const png = await readFile(join(icons.pngDir, `${size}x${size}.png`));
      expect(pngSize(png)).toEqual({ width: size, height: size });
    }
    // Nothing else is left behind in the build folder.
    expect((await readdir(dir)).sort()).toEqual(['icon.icns', 'icon.ico', 'icons']);
  });

  it('are rendered from the drawing, not blank: the shield is there, the corners clear', async () => {
    const { data, info } = await sharp(join(icons.pngDir, '256x256.png'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels;
      return [...data.subarray(at, at + info.channels)];
    };
    expect(pixel(0, 0)[3]).toBe(0);
    // The shield's blue (#4c8dff) above the check mark.
    const [r, g, b, a] = pixel(128, 60);
    expect(a).toBe(255);
    expect(
      Math.abs((r ?? 0) - 0x4c) + Math.abs((g ?? 0) - 0x8d) + Math.abs((b ?? 0) - 0xff),
    ).toBeLessThan(12);
  });

  it('make a Windows .ico with each size from 16 to 256', async () => {
    const images = readIco(await readFile(icons.ico));
    expect(images.map((image) => image.listed).sort((a, b) => a - b)).toEqual([...ICON_SIZES.ico]);
    for (const image of images) {
      expect(image.width).toBe(image.listed);
      expect(image.height).toBe(image.listed);
    }
  });

  it('make a macOS .icns with the retina sizes up to 1024', async () => {
    const images = readIcns(await readFile(icons.icns));
    // ic07 128, ic08 256, ic09 512, ic10 1024 (512@2x)
    expect(images.get('ic07')).toEqual({ width: 128, height: 128 });
    expect(images.get('ic08')).toEqual({ width: 256, height: 256 });
    expect(images.get('ic09')).toEqual({ width: 512, height: 512 });
    expect(images.get('ic10')).toEqual({ width: 1024, height: 1024 });
  });
});
