import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalEntry } from './journal-entries.js';

export const JOURNAL_FILE = 'journal.ndjson';
export const SNAPSHOT_FILE = 'snapshot.json';
/** The order archive of one history (a reset starts another): `orders-<16 hex>.ndjson`. */
export const ARCHIVE_FILE = /^orders-[0-9a-f]{16}\.ndjson$/;
/** The index of an archive, beside it: `orders-<16 hex>.index`. */
export const ARCHIVE_INDEX_FILE = /^orders-[0-9a-f]{16}\.index$/;

/** The name of an archive's index. */
export const indexNameOf = (archiveName: string): string =>
  archiveName.replace(/\.ndjson$/, '.index');
/** Data files are the sandbox's alone: read and write for its user only. */
export const FILE_MODE = 0o600;

/**
 * The first line of a journal that continues a snapshot: the entries below it apply on top of
 * the snapshot of that generation. A journal that starts with `genesis` instead is generation 0.
 */
export interface JournalHeader {
  t: 'snapshot';
  generation: number;
  at: number;
}

export type JournalLine = JournalEntry | JournalHeader;

/** The data folder's files cannot be read as the sandbox wrote them. */
export class DamagedFile extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'DamagedFile';
  }
}

/**
 * Reads the journal of a data folder. A torn last line (a crash mid-write) is cut off, since it
 * was never acknowledged; a bad line anywhere else means the file is damaged.
 */
export function readJournal(dataDir: string): JournalLine[] {
  const path = join(dataDir, JOURNAL_FILE);
  if (!existsSync(path)) return [];
  const bytes = readFileSync(path);
  const text = bytes.toString('utf8');
  const lines: JournalLine[] = [];
  let offset = 0;
  let lineNumber = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    if (end < 0) break;
    lineNumber++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(offset, end));
    } catch {
      parsed = undefined;
    }
    if (!isLine(parsed)) {
      if (text.indexOf('\n', end + 1) >= 0) {
        throw new DamagedFile(JOURNAL_FILE, `line ${lineNumber} cannot be read`);
      }
      break;
    }
    lines.push(parsed);
    offset = end + 1;
  }
  const kept = Buffer.byteLength(text.slice(0, offset));
  if (kept < bytes.length) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, kept);
    closeSync(fd);
  }
  return lines;
}

function isLine(value: unknown): value is JournalLine {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { t?: unknown }).t === 'string' &&
    typeof (value as { at?: unknown }).at === 'number'
  );
}

/**
 * A queued write: lines to append, a compaction (a new snapshot and a journal afresh), or a
 * file replaced whole (an archive's index).
 */
type QueuedWrite = {
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
} & ({ readonly line: string } | Compaction | Replacement);

interface Replacement {
  readonly replace: string;
  readonly content: string;
}

interface Compaction {
  readonly snapshot: string;
  readonly header: JournalHeader;
  readonly archive: ArchiveWrite;
}

/** What a compaction adds to the order archive: lines appended, or a new archive begun. */
export interface ArchiveWrite {
  readonly name: string;
  readonly lines: string;
  /** A new history (the first one, or after a reset): the other archives go once it is in use. */
  readonly fresh: boolean;
  /** The archive's index once the lines are in, written beside it (`indexNameOf(name)`). */
  readonly index?: string;
}

/**
 * The journal, the snapshot it continues and the order archive, written by one queue: every
 * change to the data folder's files happens in order, one at a time. `append` queues a line and
 * resolves once it is on disk (written and fdatasync'ed); concurrent appends share one sync.
 * `compact` appends newly closed orders to the archive, writes a new snapshot and starts the
 * journal afresh, the last two atomically (temporary file with a random name, sync, rename, sync
 * the folder), so a crash at any point leaves files that together hold every acknowledged
 * change (an archive longer than its snapshot says is cut back on start). A failed write breaks
 * the journal: every later change is refused until a restart reads the files again.
 */
export class Journal {
  private queue: QueuedWrite[] = [];
  /** The write being done now, if any. */
  private inFlight: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private broken: Error | undefined;
  /** Entries and bytes written since the journal last started afresh. */
  tailEntries = 0;
  tailBytes = 0;

  private constructor(
    private file: FileHandle,
    private readonly dataDir: string,
  ) {}

  static async open(dataDir: string): Promise<Journal> {
    const path = join(dataDir, JOURNAL_FILE);
    const created = !existsSync(path);
    const file = await open(path, 'a', FILE_MODE);
    await file.chmod(FILE_MODE);
    if (created) await syncFolder(dataDir);
    const journal = new Journal(file, dataDir);
    journal.tailBytes = (await file.stat()).size;
    return journal;
  }

  append(entry: JournalEntry): Promise<void> {
    const line = JSON.stringify(entry) + '\n';
    this.tailEntries++;
    this.tailBytes += line.length;
    return this.enqueue({ line });
  }

  /**
   * After everything queued before: replaces the snapshot with `snapshot` (the state with every
   * entry queued so far applied) and starts the journal afresh with `header`.
   */
  compact(snapshot: string, header: JournalHeader, archive: ArchiveWrite): Promise<void> {
    this.tailEntries = 0;
    this.tailBytes = 0;
    return this.enqueue({ snapshot, header, archive });
  }

  /** After everything queued before: replaces the file `name` with `content`, atomically. */
  replace(name: string, content: string): Promise<void> {
    return this.enqueue({ replace: name, content });
  }

  /** Resolves once everything queued so far is on disk (not what is queued later). */
  synced(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.queue.length) return this.enqueue({ line: '' });
    return this.inFlight ?? Promise.resolve();
  }

  private enqueue(write: { line: string } | Compaction | Replacement): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ ...write, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length) {
        const head = this.queue[0] as QueuedWrite;
        let batch: QueuedWrite[];
        if ('snapshot' in head) {
          batch = this.queue.splice(0, 1);
          this.inFlight = this.swap(head);
        } else if ('replace' in head) {
          batch = this.queue.splice(0, 1);
          this.inFlight = writeAtomically(this.dataDir, head.replace, head.content);
        } else {
          const end = this.queue.findIndex((w) => !('line' in w));
          batch = this.queue.splice(0, end < 0 ? this.queue.length : end);
          const lines = batch.map((w) => ('line' in w ? w.line : '')).join('');
          this.inFlight = this.file.write(lines).then(() => this.file.datasync());
        }
        try {
          await this.inFlight;
        } catch (e) {
          this.broken = e instanceof Error ? e : new Error(String(e));
          for (const w of [...batch, ...this.queue]) w.reject(this.broken);
          this.queue = [];
          return;
        }
        for (const w of batch) w.resolve();
      }
    } finally {
      this.inFlight = undefined;
      this.flushing = undefined;
    }
  }

  private async swap({ snapshot, header, archive }: Compaction): Promise<void> {
    const archivePath = join(this.dataDir, archive.name);
    const orders = await open(archivePath, archive.fresh ? 'w' : 'a', FILE_MODE);
    try {
      if (archive.lines) await orders.write(archive.lines);
      await orders.datasync();
    } finally {
      await orders.close();
    }
    if (archive.fresh) await syncFolder(this.dataDir);
    // Before the snapshot: should the snapshot not follow (a crash), a start keeps only what
    // the index says of the archive's first bytes the old snapshot counts.
    if (archive.index !== undefined) {
      await writeAtomically(this.dataDir, indexNameOf(archive.name), archive.index);
    }
    await writeAtomically(this.dataDir, SNAPSHOT_FILE, snapshot);
    // From here on the journal must start afresh: appending to the old one would add entries
    // a restart ignores (its generation is older than the snapshot's).
    await this.file.close();
    try {
      await writeAtomically(this.dataDir, JOURNAL_FILE, JSON.stringify(header) + '\n');
    } finally {
      this.file = await open(join(this.dataDir, JOURNAL_FILE), 'a', FILE_MODE);
    }
    if (archive.fresh) await removeArchivesBut(this.dataDir, archive.name);
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.file.close();
  }
}

/** Temporary files of an atomic write: the target's name, a random part, `.tmp`. */
export const TEMPORARY_FILE = /\.[0-9a-f]{16}\.tmp$/;

/** Writes a file so that it is either wholly the old one or wholly the new one, even on a crash. */
export async function writeAtomically(dir: string, name: string, content: string): Promise<void> {
  const path = join(dir, name);
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', FILE_MODE);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (e) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw e;
  }
  await handle.close();
  await rename(temporary, path);
  await syncFolder(dir);
}

/**
 * Removes the order archives of other histories (a reset's, or a crashed compaction's), and
 * their indexes.
 */
export async function removeArchivesBut(dataDir: string, keep: string | undefined): Promise<void> {
  const keepIndex = keep === undefined ? undefined : indexNameOf(keep);
  for (const name of await readdir(dataDir)) {
    if (ARCHIVE_FILE.test(name) && name !== keep) await unlink(join(dataDir, name));
    if (ARCHIVE_INDEX_FILE.test(name) && name !== keepIndex) await unlink(join(dataDir, name));
  }
}

async function syncFolder(dir: string): Promise<void> {
  // Makes a created or renamed file's directory entry durable, not only its contents.
  const handle = await open(dir, 'r');
  await handle.sync();
  await handle.close();
}
