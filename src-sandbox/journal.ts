import { closeSync, existsSync, mkdirSync, openSync, readFileSync, ftruncateSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalEntry } from './journal-entries.js';

export const JOURNAL_FILE = 'journal.ndjson';

/**
 * Reads the journal of a data folder. A torn last line (a crash mid-write) is cut off, since it
 * was never acknowledged; a bad line anywhere else means the file is damaged, and start fails.
 */
export function readJournal(dataDir: string): JournalEntry[] {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, JOURNAL_FILE);
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    if (end < 0) break;
    const line = text.slice(offset, end);
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      if (text.indexOf('\n', end + 1) >= 0) {
        throw new Error(`journal ${path} is damaged at byte ${offset}`);
      }
      break;
    }
    offset = end + 1;
  }
  if (offset < Buffer.byteLength(text)) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, offset)));
    closeSync(fd);
  }
  return entries;
}

/** A queued write: a line to append, or a whole new file content (after a reset). */
interface QueuedWrite {
  readonly line?: string;
  readonly replacement?: string;
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
}

/**
 * The append-only journal. `append` queues a line and returns a promise that resolves once the
 * line is on disk (written and fdatasync'ed); concurrent appends share one sync. `replace`
 * starts the file afresh (atomically: temporary file, sync, rename, sync the folder).
 */
export class Journal {
  private queue: QueuedWrite[] = [];
  /** The write being done now, if any. */
  private inFlight: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private broken: Error | undefined;

  private constructor(
    private file: FileHandle,
    private readonly dataDir: string,
  ) {}

  static async open(dataDir: string): Promise<Journal> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, JOURNAL_FILE);
    const created = !existsSync(path);
    const file = await open(path, 'a');
    if (created) await syncFolder(dataDir);
    return new Journal(file, dataDir);
  }

  append(entry: JournalEntry): Promise<void> {
    return this.enqueue({ line: JSON.stringify(entry) + '\n' });
  }

  /** Replaces the whole journal with `entries`, after everything queued before. */
  replace(entries: readonly JournalEntry[]): Promise<void> {
    return this.enqueue({ replacement: entries.map((e) => JSON.stringify(e) + '\n').join('') });
  }

  /** Resolves once everything queued so far is on disk (not what is queued later). */
  synced(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.queue.length) return this.enqueue({ line: '' });
    return this.inFlight ?? Promise.resolve();
  }

  private enqueue(write: { line?: string; replacement?: string }): Promise<void> {
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
        if (head.replacement !== undefined) {
          batch = this.queue.splice(0, 1);
          this.inFlight = this.swap(head.replacement);
        } else {
          const end = this.queue.findIndex((w) => w.replacement !== undefined);
          batch = this.queue.splice(0, end < 0 ? this.queue.length : end);
          const lines = batch.map((w) => w.line).join('');
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

  private async swap(content: string): Promise<void> {
    const path = join(this.dataDir, JOURNAL_FILE);
    const temporary = `${path}.tmp`;
    const fresh = await open(temporary, 'w');
    await fresh.writeFile(content);
    await fresh.sync();
    await fresh.close();
    await this.file.close();
    await rename(temporary, path);
    await syncFolder(this.dataDir);
    this.file = await open(path, 'a');
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.file.close();
  }
}

async function syncFolder(dir: string): Promise<void> {
  // Makes a created or renamed file's directory entry durable, not only its contents.
  const handle = await open(dir, 'r');
  await handle.sync();
  await handle.close();
}
