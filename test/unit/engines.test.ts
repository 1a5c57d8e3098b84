import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `engines` tells the truth: the Node versions everything installed supports. npm warns about
 * each package whose own `engines` a Node version misses, so this reads them all from the lock.
 */
const root = resolve(import.meta.dirname, '../..');
const read = <T>(file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;
const manifest = read<{ engines: { node: string } }>('package.json');
const lock = read<{
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}>('package-lock.json');

/** The Node the README names for starting, building installers and developing. */
const README_NODE = ['22.13.0', '24.0.0'];

/**
 * The only packages that want more than the oldest Node the project admits (20.19): Electron's
 * download and packaging tools, used by `npm start` and `npm run dist` (the README asks for
 * Node 22.13 there), and fastify's cookie parser, which the harness runs on Node 20 in CI.
 */
const NEEDS_NEWER_NODE = new Set([
  'electron',
  '@electron/get',
  '@electron/rebuild',
  '@electron-internal/extract-zip',
  'node-abi',
  'cookie',
]);

const nodeRanges = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
  if (!path || !range) return [];
  return [{ name: path.replace(/^.*node_modules\//, ''), version: entry.version, range }];
});

describe('the Node versions', () => {
  it('admit Node 20.19 (the tests, harness and build run there) and the README’s Node', () => {
    for (const version of ['20.19.0', '20.20.2', ...README_NODE]) {
      expect(semver.satisfies(version, manifest.engines.node), version).toBe(true);
    }
    for (const version of ['18.20.0', '20.18.0', '21.7.0', '22.12.0', '23.5.0']) {
      expect(semver.satisfies(version, manifest.engines.node), version).toBe(false);
    }
  });

  it('satisfy every installed package on the README’s Node, so npm install warns of nothing', () => {
    const unhappy = nodeRanges.filter(({ range }) =>
      README_NODE.some((version) => !semver.satisfies(version, range)),
    );
    expect(unhappy).toEqual([]);
  });

  it('satisfy every package but Electron’s own tools on every Node the project admits', () => {
    const unhappy = nodeRanges.filter(
      ({ name, range }) =>
        !NEEDS_NEWER_NODE.has(name) && !semver.subset(manifest.engines.node, range),
    );
    expect(unhappy).toEqual([]);
  });

  it('are the ones the README states', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('Node 22.13');
    expect(readme).toContain('Node 20.19');
  });
});
