import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    expect(await journal.list('sandbox')).toEqual([]);
    expect(await readdir(join(dir, 'journal', folder ?? ''))).toEqual([
      `${entry().id}.json.damaged`,
    ]);
  });
});
