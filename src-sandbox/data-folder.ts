import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import {
  ARCHIVE_FILE,
  ARCHIVE_INDEX_FILE,
  DamagedFile,
  FILE_MODE,
  JOURNAL_FILE,
  SNAPSHOT_FILE,
  TEMPORARY_FILE,
} from './journal.js';
import type { ArchiveIndex, ArchiveSource } from './order-archive.js';

/** The data folder is the sandbox's alone. */
const FOLDER_MODE = 0o700;
const LOCK_FILE = 'sandbox.lock';
const SNAPSHOT_FORMAT = 'countersign-sandbox-snapshot';
const SNAPSHOT_VERSION = 1;
const INDEX_FORMAT = 'countersign-sandbox-order-index';
const INDEX_VERSION = 1;

/** Folders this process holds the lock of. */
const held = new Set<string>();

/**
 * Makes the data folder ready and takes it: created if missing (0700), its files 0600, leftover
 * temporary files removed, and a lock file naming this process so that a second sandbox on the
 * same folder refuses to start instead of writing beside the first. Returns the release.
 */
export function takeDataFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: FOLDER_MODE });
  chmodSync(dataDir, FOLDER_MODE);
  const lock = join(dataDir, LOCK_FILE);
  const key = join(dataDir);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, 'wx', FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST' || attempt > 0) throw e;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (held.has(key) || (pid !== process.pid && isRunning(pid))) {
        throw new Error(
          `another sandbox (process ${pid}) is using this data folder; stop it first, or delete ` +
            `${LOCK_FILE} in the folder if no sandbox is running`,
          { cause: e },
        );
      }
      // Left by a sandbox that ended without releasing it (kill -9, power loss).
      unlinkSync(lock);
    }
  }
  held.add(key);
  for (const name of readdirSync(dataDir)) {
    if (TEMPORARY_FILE.test(name)) unlinkSync(join(dataDir, name));
    else if (
      name === JOURNAL_FILE ||
      name === SNAPSHOT_FILE ||
      ARCHIVE_FILE.test(name) ||
      ARCHIVE_INDEX_FILE.test(name)
    )
      chmodSync(join(dataDir, name), FILE_MODE);
  }
  return () => {
    held.delete(key);
    try {
      unlinkSync(lock);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/** A snapshot file: a header line (format, generation, hash of the body) and the body. */
export function encodeSnapshot(body: unknown, generation: number): string {
  const text = JSON.stringify(body);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const header = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, generation, sha256 };
  return `${JSON.stringify(header)}\n${text}\n`;
}

/** The snapshot of the data folder, if any; a file that fails its checks is damaged. */
export function readSnapshot(dataDir: string): { generation: number; body: unknown } | null {
  const path = join(dataDir, SNAPSHOT_FILE);
  if (!existsSync(path)) return null;
  const file = readHashedFile(readFileSync(path));
  let header: { format?: unknown; version?: unknown; generation?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(file.header) as typeof header;
  } catch {
    throw new DamagedFile(SNAPSHOT_FILE, 'its first line cannot be read');
  }
  if (header.format !== SNAPSHOT_FORMAT || header.version !== SNAPSHOT_VERSION) {
    throw new DamagedFile(SNAPSHOT_FILE, 'it is not a snapshot this sandbox can read');
  }
  if (file.sha256 !== header.sha256 || typeof header.generation !== 'number') {
    throw new DamagedFile(SNAPSHOT_FILE, 'its content does not match its checksum');
  }
  return { generation: header.generation, body: JSON.parse(file.body()) as unknown };
}

/**
 * A file of a header line and a body (a snapshot, an archive's index): the header's text, the
 * SHA-256 of the body (without the file's last newline) and the body's text, read once. The hash
 * is taken over the file's bytes as they are, not over the text decoded and encoded again: the
 * start of a sandbox with a long history reads some ten megabytes this way.
 */
function readHashedFile(bytes: Buffer): { header: string; sha256: string; body: () => string } {
  const newline = bytes.indexOf(0x0a);
  const headerEnd = newline < 0 ? bytes.length : newline;
  let end = bytes.length;
  if (end > headerEnd + 1 && bytes[end - 1] === 0x0a) end--;
  const body = bytes.subarray(Math.min(headerEnd + 1, end), end);
  return {
    header: bytes.toString('utf8', 0, headerEnd),
    sha256: createHash('sha256').update(body).digest('hex'),
    body: () => body.toString('utf8'),
  };
}

/**
 * Moves the journal, the snapshot and the order archive aside (renamed, never deleted) so a
 * fresh exchange can start; returns the names they now have.
 */
export function moveAside(dataDir: string, at: Date): string[] {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const moved: string[] = [];
  const archives = readdirSync(dataDir).filter(
    (name) => ARCHIVE_FILE.test(name) || ARCHIVE_INDEX_FILE.test(name),
  );
  for (const name of [JOURNAL_FILE, SNAPSHOT_FILE, ...archives]) {
    const from = join(dataDir, name);
    if (!existsSync(from)) continue;
    const dot = name.lastIndexOf('.');
    const kept = `${name.slice(0, dot)}-damaged-${stamp}${name.slice(dot)}`;
    renameSync(from, join(dataDir, kept));
    moved.push(kept);
  }
  return moved;
}

/** An archive's index file: a header line (format, the archive's epoch, hash of the body) and the body. */
export function encodeArchiveIndex(epoch: string, index: ArchiveIndex): string {
  const text = JSON.stringify(index);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const header = { format: INDEX_FORMAT, version: INDEX_VERSION, epoch, sha256 };
  return `${JSON.stringify(header)}\n${text}\n`;
}

/**
 * The index of the archive of `epoch`, or null when there is none to trust: missing, of another
 * archive, cut short or changed since written (its hash), or not an index at all. It is derived
 * from the archive, so the caller then reads the archive instead (and writes the index again).
 */
export function readArchiveIndex(
  dataDir: string,
  name: string,
  epoch: string,
): ArchiveIndex | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dataDir, name));
  } catch {
    return null;
  }
  try {
    const file = readHashedFile(bytes);
    const header = JSON.parse(file.header) as Record<string, unknown>;
    if (
      header.format !== INDEX_FORMAT ||
      header.version !== INDEX_VERSION ||
      header.epoch !== epoch ||
      header.sha256 !== file.sha256
    ) {
      return null;
    }
    const index = JSON.parse(file.body()) as unknown;
    return typeof index === 'object' && index !== null ? (index as ArchiveIndex) : null;
  } catch {
    return null;
  }
}

/**
 * The archive file, read by byte range when an archived order is asked for (opened on the first
 * read, closed with the sandbox). `distrust` removes the index, so the next start rebuilds it
 * from the archive.
 */
export class ArchiveFile implements ArchiveSource {
  private fd: number | undefined;

  constructor(
    private readonly path: string,
    private readonly indexPath: string,
    private readonly onDistrust: () => void = () => undefined,
  ) {}

  read(offset: number, length: number): string {
    this.fd ??= openSync(this.path, 'r');
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, bytes, read, length - read, offset + read);
      if (n === 0) throw new DamagedFile(basename(this.path), 'it is shorter than its index says');
      read += n;
    }
    return bytes.toString('utf8');
  }

  distrust(): void {
    this.onDistrust();
    try {
      unlinkSync(this.indexPath);
    } catch {
      // Already gone.
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
