import { createHash } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from './atomic-file';

/**
 * The pending-operation journal: a signed transaction is written here (atomically: write, fsync,
 * rename) before it is submitted, and removed once the exchange has it. After a crash the next
 * start finds what was left, and the app asks the exchange what became of each before offering to
 * submit or discard it. One folder per network, so nothing signed for one exchange is ever
 * offered to another.
 */
export const JournalEntry = z.object({
  id: z.string().uuid(),
  kind: z.enum(['place-order', 'cancel-order', 'deposit', 'withdrawal']),
  title: z.string(),
  network: z.string(),
  signedAt: z.string(),
  txId: z.string().regex(/^[0-9a-f]{64}$/),
  signedTxHex: z.string().regex(/^[0-9a-f]+$/),
  /** Orders: the id the build answered (submit needs it; the record tells if it landed). */
  orderId: z.string().nullable(),
  /** Cancels: the order being cancelled (its status tells if the cancel landed). */
  cancelsOrderId: z.string().nullable(),
  /** Epoch ms after which the exchange refuses it (4300). */
  expiresAt: z.number().nullable(),
  /** Set just before the submit request leaves: a crash after it means "ask the exchange". */
  submitStartedAt: z.string().nullable(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

const folderOf = (network: string): string =>
  createHash('sha256').update(network).digest('hex').slice(0, 16);

export class OperationJournal {
  readonly #root: string;

  constructor(dataDir: string) {
    this.#root = join(dataDir, 'journal');
  }

  #dir(network: string): string {
    return join(this.#root, folderOf(network));
  }

  #file(entry: { network: string; id: string }): string {
    return join(this.#dir(entry.network), `${entry.id}.json`);
  }

  /** Records a signed transaction; resolves once it is on disk. */
  async record(entry: JournalEntry): Promise<void> {
    await writeJsonFile(this.#file(entry), JournalEntry.parse(entry));
  }

  async update(entry: JournalEntry, change: Partial<JournalEntry>): Promise<JournalEntry> {
    const next = { ...entry, ...change };
    await this.record(next);
    return next;
  }

  /** The exchange has it (or it was discarded): it leaves the journal. */
  async remove(entry: { network: string; id: string }): Promise<void> {
    await rm(this.#file(entry), { force: true });
  }

  /** Every entry of a network, oldest first. A damaged entry is kept aside, never submitted. */
  async list(network: string): Promise<JournalEntry[]> {
    const dir = this.#dir(network);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: JournalEntry[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const read = await readJsonFile(join(dir, name), JournalEntry);
      if (read.kind === 'ok' && read.value.network === network) entries.push(read.value);
      else if (read.kind === 'invalid') {
        await rename(join(dir, name), join(dir, `${name}.damaged`)).catch(() => undefined);
      }
    }
    return entries.sort((a, b) => a.signedAt.localeCompare(b.signedAt));
  }
}
