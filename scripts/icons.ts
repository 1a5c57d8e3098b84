import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type generateIcon from 'icon-gen';
import sharp from 'sharp';

/**
 * Every platform's app icon, rendered at build time from resources/icon.svg (nothing binary is
 * committed): PNGs for Linux (`icons/<size>x<size>.png`), `icon.ico` for Windows, `icon.icns`
 * for macOS. sharp renders the SVG at each size (no upscaling); icon-gen packs ICO and ICNS.
 */
export const ICON_SIZES = {
  png: [16, 24, 32, 48, 64, 128, 256, 512, 1024],
  ico: [16, 24, 32, 48, 64, 128, 256],
  icns: [16, 32, 64, 128, 256, 512, 1024],
} as const;

// icon-gen's module is the function itself (its typings say `default`).
const iconGen = createRequire(import.meta.url)('icon-gen') as typeof generateIcon;

/** Renders the SVG at exactly `size`×`size` pixels, from the vector, on a transparent ground. */
export const renderPng = async (svg: Buffer, size: number): Promise<Buffer> => {
  const { width = 0, height = 0 } = await sharp(svg).metadata();
  const density = (72 * size) / Math.max(width, height, 1);
  return sharp(svg, { density })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
};

export interface BuiltIcons {
  pngDir: string;
  ico: string;
  icns: string;
}

export const buildIcons = async (svgPath: string, outDir: string): Promise<BuiltIcons> => {
  const svg = await readFile(svgPath);
  const pngDir = join(outDir, 'icons');
  await mkdir(pngDir, { recursive: true });
  // icon-gen reads `<size>.png` from a folder.
  const sources = await mkdtemp(join(outDir, '.icon-sources-'));
  try {
    for (const size of ICON_SIZES.png) {
      const png = await renderPng(svg, size);
      await writeFile(join(pngDir, `${size}x${size}.png`), png);
      await writeFile(join(sources, `${size}.png`), png);
    }
    await iconGen(sources, outDir, {
      report: false,
      ico: { name: 'icon', sizes: [...ICON_SIZES.ico] },
      icns: { name: 'icon', sizes: [...ICON_SIZES.icns] },
    });
  } finally {
    await rm(sources, { recursive: true, force: true });
  }
  return { pngDir, ico: join(outDir, 'icon.ico'), icns: join(outDir, 'icon.icns') };
};

const root = resolve(import.meta.dirname, '..');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildIcons(join(root, 'resources/icon.svg'), join(root, 'build')).then(
    () => console.log('Icons written to build/ (icons/*.png, icon.ico, icon.icns).'),
    (error: unknown) => {
      console.error(`The icons could not be made from resources/icon.svg: ${String(error)}`);
      process.exit(1);
    },
  );
}
