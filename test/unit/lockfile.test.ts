import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every package `npm ci` may fetch is pinned by its hash, on every platform. npm checks a tarball
 * against the lock's `integrity` and, where the lock has none, installs whatever the registry
 * serves. Optional packages for other platforms (a resolver's binary for macOS or Windows) are
 * never fetched on the machine that wrote the lock, and npm leaves their entries without a hash:
 * a developer on that platform would then install them unchecked.
 */
const root = resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<
    string,
    { version?: string; integrity?: string; resolved?: string; link?: boolean; optional?: boolean }
  >;
};
const installed = Object.entries(lock.packages).filter(([path]) => path !== '');

describe('the lock file', () => {
  it('is in the format npm ci reads without rewriting it', () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(installed.length).toBeGreaterThan(0);
  });

  it('pins every package, for every platform, by a SHA-512 hash', () => {
    const unpinned = installed
      .filter(
        ([, entry]) => !entry.link && !/^sha512-[A-Za-z0-9+/]{86}==$/.test(entry.integrity ?? ''),
      )
      .map(([path]) => path);
    expect(unpinned).toEqual([]);
  });

  it('fetches every package from the registry by version, none from a URL, a path or git', () => {
    const elsewhere = installed
      .filter(([, entry]) => entry.link || entry.resolved !== undefined || !entry.version)
      .map(([path]) => path);
    expect(elsewhere).toEqual([]);
  });
});
