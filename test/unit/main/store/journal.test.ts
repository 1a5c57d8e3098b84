import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../../src-main/store/atomic-file';
import { OperationJournal, type JournalEntry } from '../../../../src-main/store/journal';

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

describe('the pending-operation journal', () => {
  it('keeps a signed operation across a restart until it is removed', async () => {
    await new OperationJournal(dir).record(entry());
    const again = new OperationJournal(dir);
    expect(await again.list('sandbox')).toEqual([entry()]);
    await again.remove(entry());
    expect(await new OperationJournal(dir).list('sandbox')).toEqual([]);
  });

  it('keeps each network apart: nothing signed for one is listed on another', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    await journal.record(entry({ id: '11111111-1d0a-4c1b-9b1e-2f7f6f9d1a01', network: 'staging' }));
    expect((await journal.list('sandbox')).map((e) => e.network)).toEqual(['sandbox']);
    expect((await journal.list('staging')).map((e) => e.network)).toEqual(['staging']);
    expect(await journal.list('production')).toEqual([]);
  });

  it('sets a damaged entry aside instead of offering it', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    const [folder] = await readdir(join(dir, 'journal'));
    await writeFile(join(dir, 'journal', folder ?? '', `${entry().id}.json`), '{"id": tor');
    expect(journal.notice()).toBeNull();
    expect(await journal.list('sandbox')).toEqual([]);
    const names = await readdir(join(dir, 'journal', folder ?? ''));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^${entry().id}\\.json\\.damaged-`));
    // Said in words, with the name it was kept under and never a path.
    expect(journal.notice()).toContain(`as ${names[0]} and will not send it`);
    expect(journal.notice()).not.toContain(dir);
  });

  it('takes turns with the file: a removal waits for a write in progress, and both are durable', async () => {
    const journal = new OperationJournal(dir);
    await journal.record(entry());
    const [folder] = await readdir(join(dir, 'journal'));
    const path = join(dir, 'journal', folder ?? '', `${entry().id}.json`);
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

  it('writes each entry privately: file 0600, folders 0700, no temporary file left', async () => {
    const journal = new OperationJournal(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        journal.record(
          entry({ submitStartedAt: `2026-11-23T10:00:${String(i).padStart(2, '0')}.000Z` }),
        ),
      ),
    );
    const [folder] = await readdir(join(dir, 'journal'));
    const inside = join(dir, 'journal', folder ?? '');
    expect(await readdir(inside)).toEqual([`${entry().id}.json`]);
    expect((await stat(join(inside, `${entry().id}.json`))).mode & 0o777).toBe(0o600);
    expect((await stat(inside)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'journal'))).mode & 0o777).toBe(0o700);
  });
});
