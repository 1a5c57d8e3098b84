import { randomBytes } from 'node:crypto';
import { constants as fsConstants, writeSync } from 'node:fs';
import {
  chmod,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';

/**
 * The app's data files. Every file has one writer at a time (a per-file queue shared by the whole
 * process), every write goes through a temporary file with a random name that is fsynced and then
 * renamed over the target (or, for an append-only file, is appended and flushed: see below), so:
 * - a write that answers "done" is on disk and survives kill -9;
 * - a write that fails did not land (the old content stays, the temporary file is removed);
 * - a read-modify-write (`updateJsonFile`) ends as if the callers had taken turns.
 * Files are created 0600 and the folders the app creates 0700: nothing here is for other users.
 */

/**
 * Runs tasks one at a time per key, in the order they were asked for. Tasks of different keys
 * run concurrently. A task that asks for its own key again waits for itself: never nest.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((done) => (release = done));
    const tail = previous.then(() => turn);
    this.#tails.set(key, tail);
    return previous.then(task).finally(() => {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
  }

  /** Keys with a task running or queued (for tests and diagnostics). */
  get busyKeys(): number {
    return this.#tails.size;
  }
}

/** The one queue per file for the whole process: every store of the app writes through it. */
export const fileLocks = new KeyedMutex();

/** Runs `task` while holding the given file's turn. Never call a locking helper inside it. */
export const withFileLock = <T>(path: string, task: () => Promise<T> | T): Promise<T> =>
  fileLocks.run(resolve(path), task);

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Makes sure a folder of the app exists and is private (0700). A folder owned by someone else,
 * or a shared one such as /tmp (sticky bit), is left as it is.
 */
export const ensurePrivateDir = async (dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return;
  const info = await stat(dir);
  const ours = typeof process.getuid !== 'function' || info.uid === process.getuid();
  const sticky = (info.mode & 0o1000) !== 0;
  if (ours && !sticky && (info.mode & 0o777) !== PRIVATE_DIR_MODE) {
    await chmod(dir, PRIVATE_DIR_MODE);
  }
};

const TEMP_SUFFIX = /^\.[0-9a-f]{16}\.tmp$/;
const tempNameOf = (path: string): string => `${path}.${randomBytes(8).toString('hex')}.tmp`;

const syncFolder = async (dir: string): Promise<void> => {
  // Some systems cannot open a folder for fsync (Windows); the rename has landed by then, so a
  // failure here must not turn a write that happened into one reported as failed.
  try {
    const folder = await open(dir, 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    /* best effort: the content is already in place */
  }
};

export interface WriteOptions {
  /**
   * The folder is the app's own (the default): created 0700 if missing, tightened to 0700 if
   * not. False for a place the trader chose (a save dialog): that folder is left as it is.
   */
  ownFolder?: boolean;
}

/** The write itself; the caller holds the file's turn. */
const writeUnlocked = async (
  path: string,
  data: string | Uint8Array,
  { ownFolder = true }: WriteOptions = {},
): Promise<void> => {
  const dir = dirname(path);
  if (ownFolder) await ensurePrivateDir(dir);
  const tmp = tempNameOf(path);
  try {
    // 'wx': a temporary name is never shared, even by a leftover of an earlier run.
    const file = await open(tmp, 'wx', PRIVATE_FILE_MODE);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(dir);
};

/**
 * Writes a file so that a crash at any moment leaves either the old or the new content, never a
 * torn one. Waits for the file's turn.
 */
export const writeFileAtomic = (
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> => withFileLock(path, () => writeUnlocked(path, data, options));

/**
 * Removes a data file in its turn (never while it is being written), and makes the removal
 * durable. A file that is not there is not an error.
 */
export const removeFile = (path: string): Promise<void> =>
  withFileLock(path, async () => {
    await rm(path, { force: true });
    await syncFolder(dirname(path));
  });

const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const writeJsonFile = (path: string, value: unknown): Promise<void> =>
  writeFileAtomic(path, jsonText(value));

export type ReadJsonResult<T> =
  { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'invalid'; reason: string };

const readUnlocked = async <S extends z.ZodType>(
  path: string,
  schema: S,
): Promise<ReadJsonResult<z.output<S>>> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'the file is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { kind: 'ok', value: parsed.data }
    : { kind: 'invalid', reason: describeProblem(parsed.error) };
};

const describeProblem = (error: z.ZodError): string => {
  const issue = error.issues[0];
  if (!issue) return 'unexpected content';
  const where = issue.path.length ? ` (at ${issue.path.join('.')})` : '';
  return `unexpected content${where}: ${issue.message}`;
};

/**
 * Reads a JSON file and checks it against a schema; says precisely why it could not. A rename
 * replaces a file in one step, so a read never sees half a write and needs no turn.
 */
export const readJsonFile = <S extends z.ZodType>(
  path: string,
  schema: S,
): Promise<ReadJsonResult<z.output<S>>> => readUnlocked(path, schema);

/** What became of a damaged file: names only, never a path (they end up in messages). */
export interface Damage {
  /** The file's name, e.g. `wallets.json`. */
  file: string;
  /** The name it was moved aside to, in the same folder. */
  movedTo: string;
  /** Why it could not be read, in words. */
  reason: string;
  /** The JSON it held when it still parsed (for a repair), else undefined. */
  json: unknown;
}

/** Moves a damaged file aside (same folder, `<name>.damaged-<time>-<random>`); the caller holds the turn. */
const quarantineUnlocked = async (path: string, reason: string): Promise<Damage> => {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    json = undefined;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const movedTo = `${basename(path)}.damaged-${stamp}-${randomBytes(3).toString('hex')}`;
  await rename(path, join(dirname(path), movedTo));
  await syncFolder(dirname(path));
  return { file: basename(path), movedTo, reason, json };
};

/** Moves a damaged file aside (see `Damage`) for a caller that holds the file's turn. */
export const setAsideInTurn = (path: string, reason: string): Promise<Damage> =>
  quarantineUnlocked(path, reason);

/** Removes temporary files a killed writer left next to this file; the caller holds the turn. */
const sweepTemporaries = async (path: string): Promise<void> => {
  const name = basename(path);
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const other of names) {
    if (other.startsWith(name) && TEMP_SUFFIX.test(other.slice(name.length))) {
      await rm(join(dirname(path), other), { force: true }).catch(() => undefined);
    }
  }
};

export type LoadJsonResult<T> =
  { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'damaged'; damage: Damage };

/**
 * Reads a data file at start-up, in its turn: leftovers of a killed write are removed, and a file
 * that cannot be read is moved aside (never deleted, never overwritten) and described, so the
 * caller can tell the trader and carry on.
 */
export const loadJsonFile = <S extends z.ZodType>(
  path: string,
  schema: S,
): Promise<LoadJsonResult<z.output<S>>> =>
  withFileLock(path, async () => {
    await sweepTemporaries(path);
    const read = await readUnlocked(path, schema);
    if (read.kind !== 'invalid') return read;
    return { kind: 'damaged', damage: await quarantineUnlocked(path, read.reason) };
  });

export interface UpdateOptions<T> {
  /** Called in the file's turn once the new content has landed: keep in-memory copies here. */
  committed?: (value: T) => void;
}

/**
 * Read-modify-write in the file's turn: `update` gets the current content (undefined when there
 * is none; when the file was damaged it was moved aside first and `damage` says so) and returns
 * the next one, which must pass the schema before it is written. Throwing from `update` writes
 * nothing. Answers the content written.
 */
export const updateJsonFile = <S extends z.ZodType>(
  path: string,
  schema: S,
  update: (
    current: z.output<S> | undefined,
    damage: Damage | undefined,
  ) => z.input<S> | Promise<z.input<S>>,
  options: UpdateOptions<z.output<S>> = {},
): Promise<z.output<S>> =>
  withFileLock(path, async () => {
    const read = await readUnlocked(path, schema);
    const damage =
      read.kind === 'invalid' ? await quarantineUnlocked(path, read.reason) : undefined;
    const next = schema.parse(await update(read.kind === 'ok' ? read.value : undefined, damage));
    await writeUnlocked(path, jsonText(next));
    options.committed?.(next);
    return next;
  });

// ---------------------------------------------------------------- append-only files

/**
 * An append-only data file of lines, for records that must be on disk before the app acts on
 * them (the pending-operation journal):
 * - an append that answers "done" was written and flushed (fdatasync): it survives kill -9 and
 *   a power cut;
 * - a crash in the middle of an append leaves at most a last line without its newline, which was
 *   never acknowledged: reads ignore it and it is cut off before the next append;
 * - appends, reads and replacements of one file take turns in the queue every data file of the
 *   app uses (above), through one open handle per file for the whole process.
 * An append costs one write and one flush, where replacing a file atomically costs a temporary
 * file, two flushes, a rename and two opens (about four times as long on this project's machines).
 * Where the system has O_DSYNC, an append that waits for the disk is one write through a second
 * handle opened with it (the write answers once its lines are on the disk): one system call and
 * one trip to the thread pool instead of two, on the path of every order. That write flushes only
 * its own lines, so it is used only when nothing written before it still waits for a flush;
 * otherwise the append is written and the whole file flushed, as before.
 */

interface Open {
  handle: FileHandle;
  /** The same file opened for appends with O_DSYNC, once needed; null where there is none. */
  durable?: FileHandle | null;
  /** Bytes in the file: every line the handle appended ends here. */
  size: number;
  /** A flush asked for by an append that did not wait for it. */
  flushSoon?: ReturnType<typeof setTimeout> | undefined;
  /** That flush, while it runs (outside the file's turn: appends need not wait for it). */
  flushing?: Promise<void> | undefined;
}

/**
 * How soon an append that does not wait for its flush is flushed: at once, in the background, so
 * that the next append that must wait for the disk (the next order's) finds nothing left unflushed
 * and needs only its own write.
 */
const FLUSH_SOON_MS = 0;

/** O_DSYNC where the system has it (Linux, macOS); Windows has none. */
const O_DSYNC: number | undefined = (fsConstants as { O_DSYNC?: number }).O_DSYNC;

/** One handle per file for the whole process, opened on the first append. */
const handles = new Map<string, Open>();

/** The file's content up to its last newline, and whether a torn line came after it. */
export interface Lines {
  lines: string[];
  torn: boolean;
}

const split = (text: string): Lines => {
  const end = text.lastIndexOf('\n');
  const lines = end < 0 ? [] : text.slice(0, end).split('\n');
  return { lines, torn: end < text.length - 1 };
};

/** The file's whole lines; none when it does not exist. */
const readHeld = async (path: string): Promise<{ text: string } & Lines> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { text: '', lines: [], torn: false };
    throw error;
  }
  return { text, ...split(text) };
};

/** Opens the file for appending (created 0600 in a private folder), cutting off a torn line. */
const openHeld = async (path: string): Promise<Open> => {
  const known = handles.get(path);
  if (known) return known;
  await ensurePrivateDir(dirname(path));
  const { text, torn } = await readHeld(path);
  const handle = await open(path, 'a', PRIVATE_FILE_MODE);
  try {
    let size = Buffer.byteLength(text);
    if (torn) {
      size = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
      await handle.truncate(size);
      await handle.datasync();
    }
    const opened = { handle, size };
    handles.set(path, opened);
    return opened;
  } catch (error) {
    await handle.close();
    throw error;
  }
};

const closeHeld = async (path: string): Promise<void> => {
  const known = handles.get(path);
  if (!known) return;
  handles.delete(path);
  try {
    await known.flushing;
    if (known.flushSoon) {
      clearTimeout(known.flushSoon);
      await known.handle.datasync();
    }
  } finally {
    await known.durable?.close();
    await known.handle.close();
  }
};

/** The file's O_DSYNC handle, opened on first use (after `openHeld` made the file). */
const durableHandle = async (path: string, opened: Open): Promise<FileHandle | null> => {
  if (opened.durable !== undefined) return opened.durable;
  opened.durable =
    O_DSYNC === undefined
      ? null
      : await open(path, fsConstants.O_WRONLY | fsConstants.O_APPEND | O_DSYNC);
  return opened.durable;
};

/** Writes all of `bytes` (appended) with one call, or throws. */
const writeAll = async (handle: FileHandle, bytes: Buffer): Promise<void> => {
  const { bytesWritten } = await handle.write(bytes);
  if (bytesWritten !== bytes.length) throw new Error('the disk took only part of the write');
};

/**
 * The same for a write that does not wait for the disk: it lands in the system's cache at once,
 * so it is made right here rather than on the thread pool, whose round trip cost several times
 * as long as the write itself on the path of every order.
 */
const writeAllNow = (handle: FileHandle, bytes: Buffer): void => {
  if (writeSync(handle.fd, bytes) !== bytes.length) {
    throw new Error('the disk took only part of the write');
  }
};

/**
 * Flushes soon what an append left unflushed. Not in the file's turn: a flush may run beside an
 * append (each flushes what was written before it), and the handle is closed only after it.
 */
const scheduleFlush = (path: string, opened: Open): void => {
  opened.flushSoon ??= setTimeout(() => {
    opened.flushSoon = undefined;
    if (handles.get(path) !== opened) return;
    const flushing: Promise<void> = opened.handle
      .datasync()
      .catch(() => undefined)
      .finally(() => {
        if (opened.flushing === flushing) opened.flushing = undefined;
      });
    opened.flushing = flushing;
  }, FLUSH_SOON_MS);
  opened.flushSoon.unref?.();
};

/**
 * Appends whole lines (each ending with a newline) and resolves once they are on disk. A write
 * that fails or lands short is cut back, so the file never keeps half of it; the error is
 * thrown. With `flush: 'soon'` it resolves once the lines are written (they survive kill -9, as
 * the system holds them) and flushes them to the disk a few milliseconds later, or with the next
 * append that waits for its flush: for a change that a power cut may undo without harm.
 */
export const appendLines = (
  file: string,
  text: string,
  { flush = 'now' }: { flush?: 'now' | 'soon' } = {},
): Promise<{ size: number }> => {
  if (!text.endsWith('\n')) throw new RangeError('appendLines takes whole lines');
  const path = resolve(file);
  return withFileLock(path, async () => {
    const opened = await openHeld(path);
    const bytes = Buffer.from(text, 'utf8');
    try {
      if (flush === 'soon') {
        writeAllNow(opened.handle, bytes);
        scheduleFlush(path, opened);
      } else if (opened.flushSoon === undefined) {
        // Everything before these lines is on the disk, or being flushed there right now.
        await opened.flushing;
        const durable = await durableHandle(path, opened);
        await writeAll(durable ?? opened.handle, bytes);
        if (!durable) await opened.handle.datasync();
      } else {
        // Earlier lines wait for their flush: one flush of the whole file takes both.
        clearTimeout(opened.flushSoon);
        opened.flushSoon = undefined;
        await writeAll(opened.handle, bytes);
        await opened.handle.datasync();
      }
    } catch (error) {
      // Whatever landed of it goes, so the next line does not join a torn one.
      await opened.handle.truncate(opened.size).catch(() => closeHeld(path));
      throw error;
    }
    opened.size += bytes.length;
    return { size: opened.size };
  });
};

/** Reads the file's whole lines, in its turn (a missing file has none). */
export const readLines = (file: string): Promise<Lines> => {
  const path = resolve(file);
  return withFileLock(path, async () => {
    const { lines, torn } = await readHeld(path);
    return { lines, torn };
  });
};

/**
 * Replaces the whole file atomically (a crash leaves the old lines or the new ones), in its turn;
 * `prepare` gets the current lines and returns the new ones, or null to leave the file as it is.
 * It may move the file aside (`setAsideInTurn`): it holds the file's turn.
 */
export const rewriteLines = (
  file: string,
  prepare: (current: Lines) => Promise<string | null> | string | null,
): Promise<void> => {
  const path = resolve(file);
  return withFileLock(path, async () => {
    // Closed first: `prepare` may move the file aside, and no append may follow it there.
    await closeHeld(path);
    const { lines, torn } = await readHeld(path);
    const next = await prepare({ lines, torn });
    if (next !== null) await writeUnlocked(path, next);
  });
};

/** Closes the file's handle (the next append opens it again). */
export const closeAppendFile = (file: string): Promise<void> => {
  const path = resolve(file);
  return withFileLock(path, () => closeHeld(path));
};
