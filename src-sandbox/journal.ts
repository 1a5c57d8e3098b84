import { closeSync, existsSync, mkdirSync, openSync, readFileSync, ftruncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
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

/**
 * The append-only journal. `append` queues a line and returns a promise that resolves once the
 * line is on disk (written and fdatasync'ed); concurrent appends share one sync.
 */
export class Journal {
  private queued: string[] = [];
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** The batch being written and synced now, if any. */
  private inFlight: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private broken: Error | undefined;

  private constructor(private readonly file: FileHandle) {}

  static async open(dataDir: string): Promise<Journal> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, JOURNAL_FILE);
    const created = !existsSync(path);
    const file = await open(path, 'a');
    if (created) {
      // Make the new file's directory entry durable too, not only its contents.
      const dir = await open(dataDir, 'r');
      await dir.sync();
      await dir.close();
    }
    return new Journal(file);
  }

  append(entry: JournalEntry): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    this.queued.push(JSON.stringify(entry) + '\n');
    return this.nextBatch();
  }

  /** Resolves once everything appended so far is on disk (not what is appended later). */
  synced(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.queued.length) return this.nextBatch();
    return this.inFlight ?? Promise.resolve();
  }

  private nextBatch(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queued.length) {
        const lines = this.queued.join('');
        const waiters = this.waiters;
        this.queued = [];
        this.waiters = [];
        this.inFlight = this.file.write(lines).then(() => this.file.datasync());
        try {
          await this.inFlight;
        } catch (e) {
          this.broken = e instanceof Error ? e : new Error(String(e));
          for (const w of [...waiters, ...this.waiters]) w.reject(this.broken);
          this.waiters = [];
          this.queued = [];
          return;
        }
        for (const w of waiters) w.resolve();
      }
    } finally {
      this.inFlight = undefined;
      this.flushing = undefined;
    }
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.file.close();
  }
}
