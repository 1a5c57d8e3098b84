import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { report } from './measure';

/**
 * The renderer's size as a user's machine loads it: every file of the built renderer, raw and
 * gzipped (level 9), JavaScript and CSS apart. Builds first when there is no build.
 */
const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'out/renderer');
if (!existsSync(join(out, 'index.html'))) {
  const built = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
  if (built.status !== 0) throw new Error('npm run build failed; run it to see why');
}

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

const totals = { js: [0, 0], css: [0, 0], all: [0, 0] };
for (const file of files(out)) {
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes, { level: 9 }).length;
  const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : null;
  for (const key of kind ? [kind, 'all'] : ['all']) {
    const entry = totals[key as keyof typeof totals];
    entry[0] = (entry[0] ?? 0) + bytes.length;
    entry[1] = (entry[1] ?? 0) + gz;
  }
}
const kb = (n: number | undefined) => Number(((n ?? 0) / 1024).toFixed(1));
report('renderer.bundle_gzip_kb', {
  unit: 'KiB',
  js_gzip: kb(totals.js[1]),
  css_gzip: kb(totals.css[1]),
  total_gzip: kb(totals.all[1]),
  js_raw: kb(totals.js[0]),
  total_raw: kb(totals.all[0]),
});
