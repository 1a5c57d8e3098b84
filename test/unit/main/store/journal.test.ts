import { spawn } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import {
  appendFile,
  open,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../../src-main/store/atomic-file';
import {
  JOURNAL_FILE,
  OperationJournal,
  type JournalEntry,
} from '../../../../src-main/store/journal';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-journal-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const entry = (changes: Partial<JournalEntry> = {}): JournalEntry => ({
  id: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
  kind: 'place-order',
  title: 'Buy 100 ADA at 0.45 USDM',
  network: 'sandbox',
  signedAt: '2026-11-23T10:00:00.000Z',
  txId: 'ab'.repeat(32),
  signedTxHex: '84a4',
  orderId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  cancelsOrderId: null,
  expiresAt: null,
  submitStartedAt: null,
  ...changes,
});
const second = (changes: Partial<JournalEntry> = {}) =>
  entry({
    id: '22222222-1d0a-4c1b-9b1e-2f7f6f9d1a01',
    signedAt: '2026-11-23T10:01:00.000Z',
    ...changes,
  });

/** The one folder the journal made (the sandbox network's). */
const folder = async (): Promise<string> => {
  const [name] = await readdir(join(dir, 'journal'));
  return join(dir, 'journal', name ?? '');
};

describe('the pending-operation journal', () => {
  it('keeps a signed operation across a restart until it is removed', async () => {
    await new OperationJournal(dir).record(entry());
    const again = new OperationJournal(dir);
    expect(await again.list('sandbox')).toEqual([entry()]);
    await again.remove(entry());
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([]);
  });

  it('keeps an order recorded when it was built, before it has a transaction id or signature', async () => {
    const built = entry({ txId: null, signedTxHex: null });
    await new OperationJournal(dir).record(built);
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([built]);
    const signed = entry({ submitStartedAt: '2026-11-23T10:00:01.000Z' });
    await new OperationJournal(dir).record(signed, { flush: 'soon' });
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([signed]);
  });

  it('lists the latest version of an entry, oldest entry first', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(second());
    await journal.record(entry());
    const started = await journal.update(entry(), { submitStartedAt: '2026-11-23T10:02:00.000Z' });
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([started, second()]);
  });

  it('keeps each network apart: nothing signed for one is listed on another', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    await journal.record(entry({ id: '11111111-1d0a-4c1b-9b1e-2f7f6f9d1a01', network: 'staging' }));
    expect((await journal.list('sandbox')).map((e) => e.network)).toEqual(['sandbox']);
    expect((await journal.list('staging')).map((e) => e.network)).toEqual(['staging']);
    expect(await journal.list('production')).toEqual([]);
  });

  it('sets a damaged file aside instead of offering what it cannot read, and keeps the rest', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    await journal.record(second());
    const file = join(await folder(), JOURNAL_FILE);
    // One byte of the first line changes: its checksum no longer matches.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('Buy 100 ADA', 'Buy 900 ADA'));
    expect(journal.notice()).toBeNull();
    expect(await journal.list('sandbox')).toEqual([second()]);
    const names = await readdir(await folder());
    expect(names.sort()).toEqual([
      JOURNAL_FILE,
      expect.stringMatching(/^operations\.ndjson\.damaged-/),
    ]);
    const kept = names.find((n) => n !== JOURNAL_FILE) ?? '';
    // The damaged file is kept whole; the journal goes on with what it could read.
    expect(await readFile(join(await folder(), kept), 'utf8')).toContain('Buy 900 ADA');
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([second()]);
    // Said in words, with the name it was kept under and never a path.
    expect(journal.notice()).toContain(`as ${kept} and will not send it`);
    expect(journal.notice()).not.toContain(dir);
  });

  it('leaves out a last line a crash cut short (never acknowledged), and appends after it cleanly', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    // The app stops in the middle of its next append.
    await journal.close();
    const file = join(await folder(), JOURNAL_FILE);
    await appendFile(file, '{"put":{"id":"22222222-1d0a-4c1b');
    const again = new OperationJournal(dir);
    expect(await again.list('sandbox')).toEqual([entry()]);
    await again.record(second());
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([entry(), second()]);
    expect(again.notice()).toBeNull();
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('reads, and removes, entries an earlier version wrote as a file each; a damaged one is set aside', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(second());
    const inside = await folder();
    await writeFile(join(inside, `${entry().id}.json`), JSON.stringify(entry()));
    const broken = '44444444-1d0a-4c1b-9b1e-2f7f6f9d1a01';
    await writeFile(join(inside, `${broken}.json`), '{"id": tor');
    const again = new OperationJournal(dir);
    expect(await again.list('sandbox')).toEqual([entry(), second()]);
    expect(again.notice()).toMatch(
      new RegExp(`as ${broken}\\.json\\.damaged-\\S+ and will not send it`),
    );
    await again.remove(entry());
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([second()]);
    expect((await readdir(inside)).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('puts a recorded entry on the disk before it answers, and flushes a removal soon after', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(second());
    // Flushes that earlier tests' removals left for later have happened by now.
    await new Promise((r) => setTimeout(r, 100));
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as {
      datasync: () => Promise<void>;
      write: (...args: unknown[]) => Promise<unknown>;
    };
    await probe.close();
    const { datasync, write } = proto;
    // Each write or flush as it happens: a flush, a write the disk has before it answers
    // (through a handle opened O_DSYNC, as /proc tells), or a write left to the system.
    const seen: string[] = [];
    const synchronous = (fd: number): boolean => {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      return (Number.parseInt(flags?.[1] ?? '0', 8) & (constants.O_DSYNC ?? 0)) !== 0;
    };
    proto.datasync = function counted(this: { fd: number }) {
      seen.push('flush');
      return datasync.call(this);
    };
    proto.write = function counted(this: { fd: number }, ...args: unknown[]) {
      seen.push(synchronous(this.fd) ? 'durable write' : 'write');
      return write.apply(this, args);
    };
    try {
      await journal.record(entry());
      expect(seen).toSatisfy(
        (s: string[]) => s.join() === 'durable write' || s.join() === 'write,flush',
      );
      // A removal, or an entry recorded with `flush: 'soon'`, is in the file when the call
      // answers (written at once, no trip to the thread pool), and flushed right after.
      const file = join(await folder(), JOURNAL_FILE);
      const lines = (): string[] => readFileSync(file, 'utf8').trim().split('\n');
      seen.length = 0;
      const before = lines().length;
      await journal.remove(entry());
      expect(lines()).toHaveLength(before + 1);
      expect(lines().at(-1)).toMatch(/^\{"remove":/);
      expect(seen).toEqual([]);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual(['flush']);
      seen.length = 0;
      await journal.record(entry({ signedTxHex: '84a5' }), { flush: 'soon' });
      expect(lines().at(-1)).toContain('"signedTxHex":"84a5"');
      expect(seen).toEqual([]);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual(['flush']);
      await journal.remove(entry());
      await new Promise((r) => setTimeout(r, 100));
      // A recorded entry that follows a removal not flushed yet flushes both.
      seen.length = 0;
      await journal.record(entry());
      await journal.remove(entry());
      await journal.record(entry({ submitStartedAt: '2026-11-23T10:00:01.000Z' }));
      expect(seen.slice(-2)).toEqual(['write', 'flush']);
    } finally {
      proto.datasync = datasync;
      proto.write = write;
    }
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([
      entry({ submitStartedAt: '2026-11-23T10:00:01.000Z' }),
      second(),
    ]);
  });

  it('takes turns with the file: a removal waits for a write in progress, and both land', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    const path = resolve(await folder(), JOURNAL_FILE);
    let release!: () => void;
    const held = withFileLock(path, () => new Promise<void>((r) => (release = r)));
    let removed = false;
    const removal = journal.remove(entry()).then(() => (removed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(removed).toBe(false);
    release();
    await Promise.all([held, removal]);
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([]);
  });

  it('writes privately: file 0600, folders 0700, no temporary file left', async () => {
    const journal = new OperationJournal(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        journal.record(
          entry({ submitStartedAt: `2026-11-23T10:00:${String(i).padStart(2, '0')}.000Z` }),
        ),
      ),
    );
    const inside = await folder();
    expect(await readdir(inside)).toEqual([JOURNAL_FILE]);
    expect((await stat(join(inside, JOURNAL_FILE))).mode & 0o777).toBe(0o600);
    expect((await stat(inside)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'journal'))).mode & 0o777).toBe(0o700);
    expect(await journal.list('sandbox')).toHaveLength(1);
  });

  it('rewrites its file with only what is pending once it grows long', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(second({ signedTxHex: 'cd'.repeat(2000) }));
    const file = join(await folder(), JOURNAL_FILE);
    let written = 0;
    let rewrites = 0;
    let size = (await stat(file)).size;
    for (let i = 0; i < 300; i++) {
      const id = `${String(i).padStart(8, '0')}-1d0a-4c1b-9b1e-2f7f6f9d1a01`;
      await journal.record(entry({ id, signedTxHex: 'ef'.repeat(2000) }));
      await journal.remove(entry({ id }));
      const now = (await stat(file)).size;
      if (now < size) rewrites++;
      else written += now - size;
      size = now;
    }
    // 300 operations wrote more than the limit, and the file was cut back once, to the one left.
    expect(written).toBeGreaterThan(1024 * 1024);
    expect(rewrites).toBe(1);
    expect(size).toBeLessThan(1024 * 1024);
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([
      second({ signedTxHex: 'cd'.repeat(2000) }),
    ]);
    expect(await readdir(await folder())).toEqual([JOURNAL_FILE]);
    await journal.close();
  });
});

/** One run of the storm child, killed with SIGKILL after `ms`; what it asked and what it was told. */
const stormAndKill = (
  dataDir: string,
  round: number,
  ms: number,
): Promise<{ sent: Change[]; acked: Change[] }> =>
  new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(import.meta.dirname, 'journal-storm.fixture.ts'),
        dataDir,
        `${round}`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const sent: Change[] = [];
    const acked: Change[] = [];
    let killer: ReturnType<typeof setTimeout> | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as { ready?: boolean; sent?: Change; ack?: Change };
      if (event.ready) killer = setTimeout(() => child.kill('SIGKILL'), ms);
      if (event.sent) sent.push(event.sent);
      if (event.ack) acked.push(event.ack);
    });
    child.once('exit', (_code, signal) => {
      clearTimeout(killer);
      if (signal === 'SIGKILL') done({ sent, acked });
      else fail(new Error(`the storm child ended by itself (${signal ?? _code})`));
    });
  });

interface Change {
  seq: number;
  op: 'record' | 'remove';
  id: string;
}

describe('kill -9 during a storm of journal writes', () => {
  it('keeps every acknowledged entry, and brings back none whose removal was acknowledged', async () => {
    await mkdir(dir, { recursive: true });
    let acknowledged = 0;
    let pendingBefore = new Set<string>();
    for (let round = 1; round <= 3; round++) {
      const { sent, acked } = await stormAndKill(dir, round, 400 + 300 * round);
      acknowledged += acked.length;
      const answered = new Set(acked.map((c) => c.seq));
      const inFlight = sent.filter((c) => !answered.has(c.seq));
      const journal = new OperationJournal(dir);
      const listed = new Set((await journal.list('sandbox')).map((e) => e.id));
      expect(journal.notice()).toBeNull();
      const recorded = new Set(acked.filter((c) => c.op === 'record').map((c) => c.id));
      const removed = new Set(acked.filter((c) => c.op === 'remove').map((c) => c.id));
      const recording = new Set(inFlight.filter((c) => c.op === 'record').map((c) => c.id));
      const removing = new Set(inFlight.filter((c) => c.op === 'remove').map((c) => c.id));
      for (const id of [...recorded, ...pendingBefore]) {
        if (!removed.has(id) && !removing.has(id)) expect(listed, `lost ${id}`).toContain(id);
      }
      for (const id of removed) expect(listed, `back ${id}`).not.toContain(id);
      for (const id of listed) {
        const known = recorded.has(id) || recording.has(id) || pendingBefore.has(id);
        expect(known, `unknown ${id}`).toBe(true);
      }
      pendingBefore = listed;
      await journal.close();
    }
    expect(acknowledged).toBeGreaterThan(50);
  }, 60_000);
});
