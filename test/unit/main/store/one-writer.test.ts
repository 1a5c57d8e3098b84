import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One piece of code writes the app's files: `src-main/store/atomic-file.ts` (per-file turns,
 * random temporary names, fsync, damaged files moved aside, private modes). Any other module of
 * the main process that imports a writing function of `fs`, or `fs` as a whole, would be a second
 * writer with none of that; this check names it.
 */
const ROOT = resolve(import.meta.dirname, '../../../../src-main');
const THE_WRITER = 'store/atomic-file.ts';
const FS_MODULES = /^(node:)?(fs|fs\/promises|original-fs)$/;
const WRITES = new Set([
  'appendFile',
  'appendFileSync',
  'chmod',
  'chmodSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'open',
  'openSync',
  'rename',
  'renameSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'symlink',
  'truncate',
  'unlink',
  'unlinkSync',
  'write',
  'writeFile',
  'writeFileSync',
  'writeSync',
]);

const sources = async (dir: string): Promise<string[]> => {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (/\.(ts|mts|cts|js)$/.test(entry.name)) found.push(path);
  }
  return found;
};

/** Every way a module can get at fs: named, default or namespace imports, require, import(). */
const fsUses = (text: string): Array<{ kind: 'named' | 'whole'; names: string[] }> => {
  const uses: Array<{ kind: 'named' | 'whole'; names: string[] }> = [];
  const imports = /import\s+([^'";]+?)\s+from\s+['"]([^'"]+)['"]/g;
  for (const [, clause = '', module = ''] of text.matchAll(imports)) {
    if (!FS_MODULES.test(module)) continue;
    const named = /\{([^}]*)\}/.exec(clause);
    const names = (named?.[1] ?? '')
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? '',
      )
      .filter(Boolean);
    if (names.length) uses.push({ kind: 'named', names });
    if (clause.replace(/\{[^}]*\}/, '').replace(/[\s,]/g, '') !== '') {
      uses.push({ kind: 'whole', names: [clause.trim()] });
    }
  }
  for (const [, module = ''] of text.matchAll(/(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    if (FS_MODULES.test(module)) uses.push({ kind: 'whole', names: [module] });
  }
  return uses;
};

describe('the app has one writer of files', () => {
  it('no module of the main process but atomic-file.ts can write, rename or remove a file', async () => {
    const offenders: string[] = [];
    const files = await sources(ROOT);
    for (const file of files) {
      const name = relative(ROOT, file).split('\\').join('/');
      if (name === THE_WRITER) continue;
      for (const use of fsUses(await readFile(file, 'utf8'))) {
        const bad = use.kind === 'whole' ? use.names : use.names.filter((n) => WRITES.has(n));
        if (bad.length) offenders.push(`${name}: ${bad.join(', ')}`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });

  it('the check itself sees each way of reaching fs', () => {
    expect(fsUses("import { readFile, writeFile as w } from 'node:fs/promises';")).toEqual([
      { kind: 'named', names: ['readFile', 'writeFile'] },
    ]);
    expect(fsUses("import fs from 'fs';")[0]?.kind).toBe('whole');
    expect(fsUses("import * as fs from 'node:fs';")[0]?.kind).toBe('whole');
    expect(fsUses("const fs = require('node:fs');")[0]?.kind).toBe('whole');
    expect(fsUses("await import('fs/promises')")[0]?.kind).toBe('whole');
    expect(fsUses("import { readFile } from 'node:fs/promises';")[0]?.names).toEqual(['readFile']);
  });
});
