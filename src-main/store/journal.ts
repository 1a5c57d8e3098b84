import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  appendLines,
  closeAppendFile,
  loadJsonFile,
  readLines,
  removeFile,
  rewriteLines,
  setAsideInTurn,
  type Damage,
} from './atomic-file';

/**
 * The pending-operation journal: a signed transaction is written here before it is submitted,
 * and removed once the exchange has it. An order or a cancel is first recorded, unsigned, as soon
 * as the exchange has built it (on the disk before it is signed), and its signed transaction
 * follows in the same file before it is sent: see `record`. After a crash the next start finds what was left, and
 * the app asks the exchange what became of each before offering to submit or discard it. One
 * folder per network, so nothing signed for one exchange is ever offered to another.
 *
 * Each folder holds one append-only file, `operations.ndjson`: a line per change (an entry
 * recorded or replaced, an entry removed), each with a checksum, flushed to disk before `record`
 * answers (a removal is written at once and flushed soon after). One write and one flush per
 * order is a small part of what a file per entry (temporary file, flush, rename, flush of the
 * folder, then a removal and another flush of the folder) cost on the path of every order. The
 * file is rewritten with only the entries still pending when it grows long. Entries an earlier
 * version wrote as one `<id>.json` file each are still read, and removed with their operation.
 */
export const JournalEntry = z.object({
  id: z.string().uuid(),
  kind: z.enum(['place-order', 'cancel-order', 'deposit', 'withdrawal']),
  title: z.string(),
  network: z.string(),
  signedAt: z.string(),
  /**
   * Both null for an order or a cancel recorded when it was built, before it was signed: its
   * order record tells what became of it, and there is nothing of it to send again.
   */
  txId: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  signedTxHex: z
    .string()
    .regex(/^[0-9a-f]+$/)
    .nullable(),
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

/** The journal's file in each network's folder. */
export const JOURNAL_FILE = 'operations.ndjson';
/** Past this size the file is rewritten with only what is still pending. */
const REWRITE_AFTER_BYTES = 1024 * 1024;

/** One change, as a line: `{"put": entry}` or `{"remove": id}`, a tab, a checksum. */
const Change = z.union([
  z.object({ put: JournalEntry }).strict(),
  z.object({ remove: z.string().uuid() }).strict(),
]);
type Change = z.infer<typeof Change>;

const checksum = (text: string): string =>
  createHash('sha256').update(text).digest('hex').slice(0, 16);

const lineOf = (change: Change): string => {
  const text = JSON.stringify(change);
  return `${text}\t${checksum(text)}\n`;
};

/** A line back to its change; null when it is not one this journal wrote. */
const changeOf = (line: string): Change | null => {
  const tab = line.lastIndexOf('\t');
  if (tab < 0 || checksum(line.slice(0, tab)) !== line.slice(tab + 1)) return null;
  try {
    const parsed = Change.safeParse(JSON.parse(line.slice(0, tab)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** The entries a file's lines leave pending (in the order first recorded), and its bad lines. */
const replay = (lines: readonly string[]): { entries: JournalEntry[]; bad: number } => {
  const entries = new Map<string, JournalEntry>();
  let bad = 0;
  for (const line of lines) {
    const change = changeOf(line);
    if (!change) bad++;
    else if ('put' in change) entries.set(change.put.id, change.put);
    else entries.delete(change.remove);
  }
  return { entries: [...entries.values()], bad };
};

const folderOf = (network: string): string =>
  createHash('sha256').update(network).digest('hex').slice(0, 16);

export class OperationJournal {
  readonly #root: string;
  readonly #damaged: Damage[] = [];
  /** Entries of the older layout (a file each) seen by `list`, by id: removed with their entry. */
  readonly #oneFileEach = new Map<string, string>();
  /** Files this journal appended to, closed by `close`. */
  readonly #opened = new Set<string>();

  constructor(dataDir: string) {
    this.#root = join(dataDir, 'journal');
  }

  #dir(network: string): string {
    return join(this.#root, folderOf(network));
  }

  #file(network: string): string {
    return join(this.#dir(network), JOURNAL_FILE);
  }

  async #append(network: string, change: Change, flush: 'now' | 'soon'): Promise<void> {
    const file = this.#file(network);
    this.#opened.add(file);
    const { size } = await appendLines(file, lineOf(change), { flush });
    if (size > REWRITE_AFTER_BYTES) await this.#rewrite(file);
  }

  /** Rewrites the file with only the entries still pending (one line each). */
  async #rewrite(file: string): Promise<void> {
    await rewriteLines(file, ({ lines }) => {
      const { entries, bad } = replay(lines);
      // Bad lines are set aside by `list`, never dropped silently here.
      if (bad > 0) return null;
      return entries.map((put) => lineOf({ put })).join('');
    });
  }

  /**
   * Records an operation (or replaces its entry); resolves once it is on the disk. With
   * `flush: 'soon'` it resolves once the line is written (a crash of the app cannot undo it) and
   * flushes it to the disk at once in the background: for an order's or a cancel's signed
   * transaction, whose entry is already on the disk. A power cut in that moment can lose only
   * the signed bytes; the entry stays, and the exchange's order record says what became of it.
   */
  async record(
    entry: JournalEntry,
    { flush = 'now' }: { flush?: 'now' | 'soon' } = {},
  ): Promise<void> {
    // Typed where it is made; every line is checked when it is read back.
    await this.#append(entry.network, { put: entry }, flush);
  }

  async update(entry: JournalEntry, change: Partial<JournalEntry>): Promise<JournalEntry> {
    const next = { ...entry, ...change };
    await this.record(next);
    return next;
  }

  /**
   * The exchange has it (or it was discarded): it leaves the journal. Written when this answers
   * (a kill -9 cannot undo it), flushed to the disk within milliseconds.
   */
  async remove(entry: { network: string; id: string }): Promise<void> {
    // A removal lost to a power cut brings back an entry the exchange already has: the next
    // start asks the exchange about it and finds it landed. So it is written at once (kill -9
    // cannot undo it) and flushed soon.
    await this.#append(entry.network, { remove: JournalEntry.shape.id.parse(entry.id) }, 'soon');
    const older = this.#oneFileEach.get(entry.id);
    if (older) {
      await removeFile(older);
      this.#oneFileEach.delete(entry.id);
    }
  }

  /**
   * What was set aside during this run, in plain words (no paths), or null. A damaged entry is
   * never submitted: the trader is told to check the exchange instead.
   */
  notice(): string | null {
    const count = this.#damaged.length;
    if (count === 0) return null;
    const names = this.#damaged.map((d) => d.movedTo).join(', ');
    const what = count === 1 ? 'A signed operation' : `${count} signed operations`;
    const it = count === 1 ? 'it' : 'them';
    return (
      `${what} waiting to be sent could not be read (${this.#damaged[0]?.reason ?? 'damaged'}), ` +
      `so Countersign set ${it} aside in its journal folder as ${names} and will not send ${it}. ` +
      'Check your orders and funds on the exchange, and place again anything that is missing.'
    );
  }

  /**
   * Every entry of a network, oldest first. A file with lines that cannot be read is moved aside
   * (never deleted) and written again with the entries that can: a damaged entry is never
   * submitted. A last line cut short by a crash was never acknowledged, and is left out.
   */
  async list(network: string): Promise<JournalEntry[]> {
    const file = this.#file(network);
    let { entries, bad } = replay((await readLines(file)).lines);
    if (bad > 0) {
      await rewriteLines(file, async ({ lines }) => {
        ({ entries, bad } = replay(lines));
        if (bad === 0) return null;
        const what = bad === 1 ? 'a line is damaged' : `${bad} lines are damaged`;
        this.#damaged.push(await setAsideInTurn(file, what));
        return entries.map((put) => lineOf({ put })).join('');
      });
    }
    const mine = entries.filter((e) => e.network === network);
    const ids = new Set(mine.map((e) => e.id));
    const older = (await this.#listOneFileEach(network)).filter((e) => !ids.has(e.id));
    return [...mine, ...older].sort((a, b) => a.signedAt.localeCompare(b.signedAt));
  }

  /** Entries an earlier version wrote as one `<id>.json` file each. */
  async #listOneFileEach(network: string): Promise<JournalEntry[]> {
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
      const path = join(dir, name);
      const read = await loadJsonFile(path, JournalEntry);
      if (read.kind === 'ok' && read.value.network === network) {
        entries.push(read.value);
        this.#oneFileEach.set(read.value.id, path);
      } else if (read.kind === 'damaged') this.#damaged.push(read.damage);
    }
    return entries;
  }

  /** Closes the journal's files (the app is stopping); a later change opens them again. */
  async close(): Promise<void> {
    const files = [...this.#opened];
    this.#opened.clear();
    await Promise.all(files.map((file) => closeAppendFile(file)));
  }
}
