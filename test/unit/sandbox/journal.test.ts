import {
  appendFileSync,
  chmodSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DamagedFile, Journal, readJournal } from '../../../src-sandbox/journal.js';
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

  it('cuts a torn last line and calls a damaged middle damaged, naming the line', () => {
    const dir = tempDir();
    const file = join(dir, 'journal.ndjson');
    appendFileSync(
      file,
      '{"t":"genesis","at":1,"salt":"00","seed":1}\n{"t":"reset","at":2}\n{"t":"res',
    );
    expect(readJournal(dir).map((e) => e.t)).toEqual(['genesis', 'reset']);
    expect(readFileSync(file, 'utf8').endsWith('{"t":"reset","at":2}\n')).toBe(true);
    appendFileSync(file, 'garbage\n{"t":"reset","at":3}\n');
    expect(() => readJournal(dir)).toThrow(DamagedFile);
    expect(() => readJournal(dir)).toThrow('journal.ndjson: line 3 cannot be read');
  });

  it('compaction adds to the archive, writes the snapshot after what was queued before, and starts the journal afresh', async () => {
    const dir = tempDir();
    const journal = await Journal.open(dir);
    const first = journal.append({ t: 'reset', at: 1 });
    const archive = { name: 'orders-0123456789abcdef.ndjson', lines: '[1]\n', fresh: true };
    const compacted = journal.compact(
      '{"state":1}\n',
      { t: 'snapshot', generation: 1, at: 2 },
      archive,
    );
    const next = journal.append({ t: 'reset', at: 3 });
    await Promise.all([first, compacted, next]);
    await journal.compact(
      '{"state":2}\n',
      { t: 'snapshot', generation: 2, at: 4 },
      {
        ...archive,
        lines: '[2]\n',
        fresh: false,
      },
    );
    await journal.close();
    expect(readJournal(dir)).toEqual([{ t: 'snapshot', generation: 2, at: 4 }]);
    expect(readFileSync(join(dir, 'snapshot.json'), 'utf8')).toBe('{"state":2}\n');
    expect(readFileSync(join(dir, archive.name), 'utf8')).toBe('[1]\n[2]\n');
    // Every write went through a temporary file of its own, and none is left behind.
    expect(readdirSync(dir).sort()).toEqual(['journal.ndjson', archive.name, 'snapshot.json']);
  });

  it('synced() resolves at once when nothing is pending', async () => {
    const journal = await Journal.open(tempDir());
    await expect(journal.synced()).resolves.toBeUndefined();
    await journal.close();
  });
});

describe('the data folder', () => {
  it('is for the sandbox alone: folder 0700, files 0600, even when they existed before', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'journal.ndjson'), '', { mode: 0o644 });
    const sandbox = await startTestSandbox({ dataDir: dir });
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const name of readdirSync(dir)) {
        expect([name, statSync(join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('removes temporary files a crash left, and refuses a second sandbox on the same folder', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'snapshot.json.0123456789abcdef.tmp'), 'half a snapshot');
    const sandbox = await startTestSandbox({ dataDir: dir });
    try {
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      await expect(startTestSandbox({ dataDir: dir })).rejects.toThrow(
        /another sandbox .* is using this data folder/,
      );
    } finally {
      await sandbox.close();
    }
    // Closed, the folder is free again.
    await (await startTestSandbox({ dataDir: dir })).close();
  });
});
