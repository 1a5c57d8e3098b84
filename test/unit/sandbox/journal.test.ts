import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../../src-sandbox/journal.js';
import { startTestSandbox, tempDir } from './helpers.js';

describe('journal', () => {
  it('appends concurrent entries in order and resolves each once on disk', async () => {
    const dir = tempDir();
    const journal = await Journal.open(dir);
    const writes = Array.from({ length: 50 }, (_, i) => journal.append({ t: 'reset', at: i }));
    const synced = journal.synced();
    await Promise.all(writes);
    await synced;
    expect(readJournal(dir).map((e) => e.at)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    await journal.close();
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8').split('\n')).toHaveLength(51);
  });

  it('cuts a torn last line and refuses a damaged middle', () => {
    const dir = tempDir();
    const file = join(dir, 'journal.ndjson');
    appendFileSync(
      file,
      '{"t":"genesis","at":1,"salt":"00","seed":1}\n{"t":"reset","at":2}\n{"t":"res',
    );
    expect(readJournal(dir).map((e) => e.t)).toEqual(['genesis', 'reset']);
    expect(readFileSync(file, 'utf8').endsWith('{"t":"reset","at":2}\n')).toBe(true);
    appendFileSync(file, 'garbage\n{"t":"reset","at":3}\n');
    expect(() => readJournal(dir)).toThrow(/damaged/);
  });

  it('refuses to start on a journal that does not begin with its genesis', async () => {
    const dir = tempDir();
    appendFileSync(join(dir, 'journal.ndjson'), '{"t":"reset","at":1}\n');
    await expect(startTestSandbox({ dataDir: dir })).rejects.toThrow(/genesis/);
  });

  it('replace starts the file afresh after what was queued before, and appends follow it', async () => {
    const dir = tempDir();
    const journal = await Journal.open(dir);
    const first = journal.append({ t: 'reset', at: 1 });
    const replaced = journal.replace([{ t: 'reset', at: 2, counter: 7 }]);
    const next = journal.append({ t: 'reset', at: 3 });
    await Promise.all([first, replaced, next]);
    await journal.close();
    expect(readJournal(dir)).toEqual([
      { t: 'reset', at: 2, counter: 7 },
      { t: 'reset', at: 3 },
    ]);
  });

  it('synced() resolves at once when nothing is pending', async () => {
    const journal = await Journal.open(tempDir());
    await expect(journal.synced()).resolves.toBeUndefined();
    await journal.close();
  });
});
