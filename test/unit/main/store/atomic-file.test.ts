import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  KeyedMutex,
  loadJsonFile,
  readJsonFile,
  updateJsonFile,
  writeFileAtomic,
  writeJsonFile,
} from '../../../../src-main/store/atomic-file';

const Counter = z.object({ count: z.number().int(), writers: z.array(z.string()) });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const temporaries = async (folder: string) =>
  (await readdir(folder)).filter((name) => name.endsWith('.tmp'));

describe('a read-modify-write', () => {
  it('takes turns: 30 concurrent updates all land, none lost, none failed', async () => {
    const path = join(dir, 'data', 'counter.json');
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        updateJsonFile(path, Counter, async (current) => {
          // Yield in the middle, as a real update does: without turns, others would read the
          // same old value here.
          await new Promise((resolve) => setTimeout(resolve, 1));
          return {
            count: (current?.count ?? 0) + 1,
            writers: [...(current?.writers ?? []), `w${i}`],
          };
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const read = await readJsonFile(path, Counter);
    expect(read).toMatchObject({ kind: 'ok', value: { count: 30 } });
    if (read.kind === 'ok') expect(new Set(read.value.writers).size).toBe(30);
    expect(await temporaries(join(dir, 'data'))).toEqual([]);
  });

  it('writes nothing when the update refuses or gives content the schema rejects', async () => {
    const path = join(dir, 'counter.json');
    await writeJsonFile(path, { count: 1, writers: [] });
    const before = await readFile(path, 'utf8');
    await expect(
      updateJsonFile(path, Counter, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(
      updateJsonFile(path, Counter, () => ({ count: 'two' }) as never),
    ).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe(before);
    expect(await temporaries(dir)).toEqual([]);
  });

  it('tells its in-memory copy about each commit in the order of the file', async () => {
    const path = join(dir, 'counter.json');
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, () =>
        updateJsonFile(
          path,
          Counter,
          (current) => ({ count: (current?.count ?? 0) + 1, writers: [] }),
          { committed: (next) => seen.push(next.count) },
        ),
      ),
    );
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('an atomic write', () => {
  it('all of 30 concurrent writes to one file succeed, and one of them is what is left', async () => {
    const path = join(dir, 'settings.json');
    const values = Array.from({ length: 30 }, (_, i) => ({ count: i, writers: [] }));
    const results = await Promise.allSettled(values.map((v) => writeJsonFile(path, v)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const read = await readJsonFile(path, Counter);
    expect(read.kind).toBe('ok');
    expect(await temporaries(dir)).toEqual([]);
  });

  it('uses a temporary name nobody can guess or plant: a planted link is never followed', async () => {
    const path = join(dir, 'settings.json');
    const target = join(dir, 'elsewhere.txt');
    await writeFile(target, 'untouched');
    // The name a predictable scheme would use (pid and time), planted before the write.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    for (const name of [`${path}.${process.pid}.${now.toString(36)}.tmp`, `${path}.tmp`]) {
      await symlink(target, name);
    }
    try {
      await writeJsonFile(path, { count: 1, writers: [] });
    } finally {
      clock.mockRestore();
    }
    expect(await readFile(target, 'utf8')).toBe('untouched');
    expect(await readJsonFile(path, Counter)).toMatchObject({ kind: 'ok', value: { count: 1 } });
  });

  it('reported as failed, did not land, and leaves no temporary file', async () => {
    const path = join(dir, 'taken');
    // A folder where the file should go: the rename fails.
    await mkdir(join(path, 'inside'), { recursive: true });
    await expect(writeFileAtomic(path, 'new content')).rejects.toThrow();
    expect((await stat(path)).isDirectory()).toBe(true);
    expect(await temporaries(dir)).toEqual([]);
  });

  it('keeps data files 0600 and the folders it creates 0700, tightening an existing one', async () => {
    const folder = join(dir, 'fresh', 'wallet');
    await writeJsonFile(join(folder, 'a.json'), { count: 1, writers: [] });
    expect((await stat(join(folder, 'a.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'fresh'))).mode & 0o777).toBe(0o700);

    const loose = join(dir, 'loose');
    await mkdir(loose, { mode: 0o755 });
    await chmod(loose, 0o755);
    await writeFile(join(loose, 'b.json'), '{}', { mode: 0o644 });
    await writeJsonFile(join(loose, 'b.json'), { count: 2, writers: [] });
    expect((await stat(join(loose, 'b.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(loose)).mode & 0o777).toBe(0o700);
  });
});

describe('loading a data file', () => {
  it('moves a damaged file aside, names it without a path, and removes leftovers of a killed write', async () => {
    const path = join(dir, 'wallets.json');
    await writeFile(path, '{"count": "broken"}');
    await writeFile(`${path}.0123456789abcdef.tmp`, 'half a write');
    await writeFile(join(dir, 'unrelated.tmp'), 'not ours');
    const read = await loadJsonFile(path, Counter);
    expect(read.kind).toBe('damaged');
    if (read.kind !== 'damaged') return;
    expect(read.damage).toMatchObject({ file: 'wallets.json', json: { count: 'broken' } });
    expect(read.damage.movedTo).toMatch(/^wallets\.json\.damaged-[\w-]+$/);
    expect(read.damage.reason).toMatch(/count/);
    expect(JSON.stringify(read.damage)).not.toContain(dir);
    expect((await readdir(dir)).sort()).toEqual([read.damage.movedTo, 'unrelated.tmp'].sort());
    expect(await readFile(join(dir, read.damage.movedTo), 'utf8')).toBe('{"count": "broken"}');
    expect(await loadJsonFile(path, Counter)).toEqual({ kind: 'missing' });
  });

  it('hands a damaged file to an update as moved aside, so it never overwrites it', async () => {
    const path = join(dir, 'counter.json');
    await writeFile(path, 'garbage');
    const damages: string[] = [];
    await updateJsonFile(path, Counter, (current, damage) => {
      if (damage) damages.push(damage.file);
      return { count: current?.count ?? 7, writers: [] };
    });
    expect(damages).toEqual(['counter.json']);
    const aside = (await readdir(dir)).filter((n) => n.includes('damaged'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0] ?? ''), 'utf8')).toBe('garbage');
  });
});

describe('the keyed mutex', () => {
  it('runs one task at a time per key, in order, others at once, and survives a failure', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (key: string, name: string, fail = false) =>
      mutex.run(key, async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([
      task('a', 'a1', true),
      task('a', 'a2'),
      task('b', 'b1'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(mutex.busyKeys).toBe(0);
  });
});
