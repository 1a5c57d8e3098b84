import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import {
  ArchiveFile,
  encodeArchiveIndex,
  encodeSnapshot,
  moveAside,
  readArchiveIndex,
  readSnapshot,
  takeDataFolder,
} from './data-folder.js';
import { DEFAULT_RULES, Exchange, type ExchangeRules, type ExchangeSnapshot } from './exchange.js';
import { IdSequence } from './ids.js';
import type { JournalEntry } from './journal-entries.js';
import {
  DamagedFile,
  JOURNAL_FILE,
  Journal,
  SNAPSHOT_FILE,
  indexNameOf,
  readJournal,
  removeArchivesBut,
  type JournalHeader,
  type JournalLine,
} from './journal.js';
import { fillPastDay } from './market-history.js';
import { int, str } from './snapshot-codec.js';

/** `history`: a day of past trades on a new exchange's tape (see market-history.ts). */
type Genesis = Extract<JournalEntry, { t: 'genesis' }> & {
  rules: ExchangeRules;
  history?: boolean;
};

/**
 * What a snapshot holds: everything needed to go on as if the journal had been replayed, but
 * the closed orders of traders, which are in the order archive (its first `bytes`).
 */
interface SnapshotBody {
  genesis: Genesis;
  counter: number;
  lastAt: number;
  exchange: ExchangeSnapshot;
  archive: Archive | null;
}

interface Archive {
  epoch: string;
  bytes: number;
}

const archiveName = (epoch: string) => `orders-${epoch}.ndjson`;

/** When the journal since the last snapshot is this long, a new snapshot replaces it. */
export interface CompactionPolicy {
  entries: number;
  bytes: number;
}

/**
 * About 0.3 s of replay on this project's machines at most (orders replay at ~0.07 ms an entry,
 * most of it building their transactions again), and a snapshot written seldom enough to cost
 * little next to the entries it replaces.
 */
export const DEFAULT_COMPACTION: CompactionPolicy = { entries: 4_000, bytes: 4 * 1024 * 1024 };

/**
 * The sandbox's state and its files together: `commit` applies an entry and resolves once the
 * entry is on disk; `open` loads the data folder's snapshot and replays the journal after it.
 * When the journal grows long, the state is written as a new snapshot and the journal starts
 * afresh, so a restart costs the same however old the folder is.
 */
export class SandboxCore {
  exchange: Exchange;
  /** Time of the last accepted change that was not the market's own (maker, takers). */
  lastActivityAt = 0;
  /** Set when the data folder was damaged and a fresh exchange was started (plain words). */
  notice: string | undefined;
  /** Called after every accepted change (the streams push from it). */
  onChange: (() => void) | undefined;
  private lastAt = 0;
  private generation = 0;
  /** The order archive the last snapshot points to (none before the first, or after a reset). */
  private archive: Archive | null = null;
  /** The archive file archived orders of earlier runs are read back from. */
  private archiveFile: ArchiveFile | undefined;
  /** Bytes of the archive its index file on disk covers (none written yet: -1). */
  private indexedBytes = -1;
  /** The index read at the start disagreed with the archive: none is written from it again. */
  private indexDistrusted = false;

  private constructor(
    private readonly dataDir: string,
    private readonly journal: Journal,
    private readonly genesis: Genesis,
    private readonly ids: IdSequence,
    private readonly release: () => void,
    private readonly compaction: CompactionPolicy,
  ) {
    this.exchange = new Exchange(genesis.rules, ids, genesis.seed);
  }

  static async open(
    dataDir: string,
    seed: number,
    rules: Partial<ExchangeRules>,
    compaction: CompactionPolicy = DEFAULT_COMPACTION,
    history = false,
  ): Promise<SandboxCore> {
    const release = takeDataFolder(dataDir);
    try {
      try {
        return await SandboxCore.load(dataDir, seed, rules, compaction, release, history);
      } catch (e) {
        if (!(e instanceof DamagedFile)) throw e;
        const kept = moveAside(dataDir, new Date());
        const core = await SandboxCore.load(dataDir, seed, rules, compaction, release, history);
        core.notice =
          `The practice exchange's saved data could not be read (${e.file}: ${e.detail}), so a ` +
          'fresh practice exchange was started: earlier practice accounts, balances and orders ' +
          `are not in it. The old data was kept in the sandbox's data folder as ${kept.join(' and ')}.`;
        return core;
      }
    } catch (e) {
      release();
      throw e;
    }
  }

  private static async load(
    dataDir: string,
    seed: number,
    rules: Partial<ExchangeRules>,
    compaction: CompactionPolicy,
    release: () => void,
    history: boolean,
  ): Promise<SandboxCore> {
    const snapshot = readSnapshot(dataDir);
    const lines = readJournal(dataDir);
    const first = lines[0];
    let body: SnapshotBody | undefined;
    let genesis: Genesis;
    let replay: JournalLine[] = [];
    let stale = false;
    if (snapshot) {
      body = snapshot.body as SnapshotBody;
      genesis = body.genesis;
      const journalGeneration = !first ? -1 : first.t === 'snapshot' ? first.generation : 0;
      if (first && first.t !== 'snapshot' && first.t !== 'genesis') {
        throw new DamagedFile(JOURNAL_FILE, 'its first line is neither a start nor a snapshot');
      }
      if (journalGeneration > snapshot.generation) {
        throw new DamagedFile(JOURNAL_FILE, 'it continues a snapshot that is missing');
      }
      // An older journal is one the last snapshot already holds (a crash between writing the
      // snapshot and starting the journal afresh): nothing of it is replayed.
      if (journalGeneration === snapshot.generation) replay = lines.slice(1);
      else stale = true;
    } else if (first?.t === 'genesis') {
      genesis = first as Genesis;
      replay = lines.slice(1);
    } else if (first) {
      throw new DamagedFile(
        JOURNAL_FILE,
        first.t === 'snapshot'
          ? 'it continues a snapshot that is missing'
          : 'it does not begin with its start',
      );
    } else {
      genesis = {
        t: 'genesis',
        at: Date.now(),
        salt: randomBytes(16).toString('hex'),
        seed,
        rules: { ...DEFAULT_RULES, ...rules },
        ...(history ? { history: true } : {}),
      };
    }

    const journal = await Journal.open(dataDir);
    const ids = new IdSequence(genesis.salt);
    const core = new SandboxCore(dataDir, journal, genesis, ids, release, compaction);
    try {
      if (body) {
        try {
          ids.counter = int(body.counter);
          core.lastAt = int(body.lastAt);
          core.exchange.restore(body.exchange);
          core.generation = snapshot?.generation ?? 0;
          core.archive =
            body.archive === null
              ? null
              : { epoch: str(body.archive.epoch), bytes: int(body.archive.bytes) };
        } catch {
          throw new DamagedFile(SNAPSHOT_FILE, 'its content is not a state this sandbox wrote');
        }
      }
      // A snapshot has the tape; otherwise the state starts at genesis, with its past day.
      if (!body && genesis.history) fillPastDay(core.exchange.engine, genesis.at, genesis.seed);
      core.loadArchive();
      await removeArchivesBut(dataDir, core.archive ? archiveName(core.archive.epoch) : undefined);
      let legacyKeys = false;
      replay.forEach((line, i) => {
        if (line.t === 'genesis' || line.t === 'snapshot') {
          throw new DamagedFile(JOURNAL_FILE, `line ${i + 2} starts a journal inside another`);
        }
        if (line.t === 'account' && 'apiKey' in line) legacyKeys = true;
        try {
          core.applyEntry(line);
        } catch (e) {
          throw new DamagedFile(
            JOURNAL_FILE,
            `line ${i + 2} (${line.t}) cannot be applied: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      });
      core.lastAt = Math.max(core.lastAt, genesis.at);
      journal.tailEntries = replay.length;
      if (!first) {
        await journal.append(genesis);
      } else if (stale || legacyKeys || journal.tailEntries >= compaction.entries) {
        // Journals of earlier versions hold API keys in plain text: a snapshot keeps only
        // their hashes, and the old journal is replaced.
        await core.compact();
      }
      return core;
    } catch (e) {
      await journal.close();
      throw e;
    }
  }

  /** Monotonic time in ms: never earlier than any journaled entry. */
  now(): number {
    this.lastAt = Math.max(this.lastAt, Date.now());
    return this.lastAt;
  }

  /** The state as of now: due deposits confirmed and withdrawals settled. */
  current(): Exchange {
    this.exchange.settle(this.now());
    return this.exchange;
  }

  /** Applies the entry (throws if refused, nothing journaled), then waits until it is on disk. */
  async commit<T>(entry: JournalEntry): Promise<T> {
    if (entry.t === 'reset') {
      // Nothing before a reset matters any more: a snapshot of the fresh exchange replaces it.
      this.applyEntry(entry);
      this.lastActivityAt = entry.at;
      this.onChange?.();
      // The old history goes with everything else: the next snapshot begins a new archive.
      this.archive = null;
      await this.compact();
      return undefined as T;
    }
    const result = this.applyEntry(entry) as T;
    if (entry.t !== 'marketMaker' && entry.t !== 'taker') this.lastActivityAt = entry.at;
    const written = this.journal.append(entry);
    this.onChange?.();
    if (
      this.journal.tailEntries >= this.compaction.entries ||
      this.journal.tailBytes >= this.compaction.bytes
    ) {
      this.compact().catch(() => undefined);
    }
    await written;
    return result;
  }

  /**
   * Writes the state as it is now (every entry applied so far) after the journal lines queued
   * before it: newly closed orders to the archive, the rest as a new snapshot, and starts the
   * journal afresh.
   */
  compact(): Promise<void> {
    this.generation++;
    const lines = this.exchange.archiveClosed();
    const fresh = this.archive === null;
    const archive: Archive = {
      epoch: this.archive?.epoch ?? randomBytes(8).toString('hex'),
      bytes: (this.archive?.bytes ?? 0) + Buffer.byteLength(lines),
    };
    this.archive = archive;
    const name = archiveName(archive.epoch);
    // The index goes with every snapshot whose archive grew (or began): a start reads it
    // instead of the archive.
    const index =
      (fresh || archive.bytes !== this.indexedBytes) && !this.indexDistrusted
        ? encodeArchiveIndex(archive.epoch, this.exchange.archive.indexOf())
        : undefined;
    this.indexedBytes = archive.bytes;
    const body: SnapshotBody = {
      genesis: this.genesis,
      counter: this.ids.counter,
      lastAt: this.lastAt,
      exchange: this.exchange.snapshot(),
      archive,
    };
    const header: JournalHeader = { t: 'snapshot', generation: this.generation, at: this.lastAt };
    return this.journal.compact(encodeSnapshot(body, this.generation), header, {
      name,
      lines,
      fresh,
      ...(index === undefined ? {} : { index }),
    });
  }

  /**
   * Reads the order archive the snapshot points to: at least as long as the snapshot says (lines
   * past that come from a compaction that did not finish, and the journal has them). Its index
   * is read instead of the archive where it can be trusted; the rest of the archive (all of it,
   * without an index) is read line by line, and the index is then written again.
   */
  private loadArchive(): void {
    if (!this.archive) return;
    const name = archiveName(this.archive.epoch);
    const path = join(this.dataDir, name);
    const size = existsSync(path) ? statSync(path).size : -1;
    if (size < this.archive.bytes) {
      throw new DamagedFile(name, 'it is shorter than the snapshot says');
    }
    if (size > this.archive.bytes) truncateSync(path, this.archive.bytes);
    const file = new ArchiveFile(path, join(this.dataDir, indexNameOf(name)), () => {
      this.indexDistrusted = true;
    });
    this.archiveFile = file;
    const archive = this.exchange.archive;
    const index = readArchiveIndex(this.dataDir, indexNameOf(name), this.archive.epoch);
    if (index) {
      try {
        archive.loadIndex(index, this.archive.bytes, file);
      } catch {
        // Not an index of this archive: the archive alone is read.
      }
    }
    const from = archive.coveredBytes;
    try {
      if (from < this.archive.bytes)
        archive.load(readRange(path, from, this.archive.bytes), from, file);
    } catch {
      throw new DamagedFile(name, 'its content is not what this sandbox wrote');
    }
    if (from < this.archive.bytes) {
      // Rebuilt from the archive: written again (after the start, in the journal's turn).
      const rebuilt = encodeArchiveIndex(this.archive.epoch, archive.indexOf());
      this.indexedBytes = this.archive.bytes;
      this.journal.replace(indexNameOf(name), rebuilt).catch(() => undefined);
    } else this.indexedBytes = this.archive.bytes;
  }

  /** Resolves once every state already applied is on disk (reads wait for it). */
  synced(): Promise<void> {
    return this.journal.synced();
  }

  /** Waits for the journal, leaves a snapshot if the journal has grown, releases the folder. */
  async close(): Promise<void> {
    try {
      if (this.journal.tailEntries >= Math.min(1_000, this.compaction.entries)) {
        await this.compact().catch(() => undefined);
      }
      await this.journal.close();
    } finally {
      this.archiveFile?.close();
      this.release();
    }
  }

  private applyEntry(entry: JournalEntry): unknown {
    this.lastAt = Math.max(this.lastAt, entry.at);
    if (entry.t === 'reset') {
      if (entry.counter !== undefined) this.ids.counter = entry.counter;
      // The old history's archive is not read again (a new one begins, with its own index).
      this.archiveFile?.close();
      this.archiveFile = undefined;
      this.indexDistrusted = false;
      this.exchange = new Exchange(this.genesis.rules, this.ids, this.genesis.seed);
      if (this.genesis.history) fillPastDay(this.exchange.engine, entry.at, this.genesis.seed);
      return undefined;
    }
    return this.exchange.apply(entry);
  }
}

/** Bytes `from` to `to` of a file. */
function readRange(path: string, from: number, to: number): Buffer {
  const bytes = Buffer.allocUnsafe(to - from);
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
