import { randomBytes } from 'node:crypto';
import { DEFAULT_RULES, Exchange, type ExchangeRules } from './exchange.js';
import { IdSequence } from './ids.js';
import type { JournalEntry } from './journal-entries.js';
import { Journal, readJournal } from './journal.js';

type Genesis = Extract<JournalEntry, { t: 'genesis' }> & { rules: ExchangeRules };

/**
 * The sandbox's state and its journal together: `commit` applies an entry and resolves once
 * the entry is on disk; `open` replays the journal of a data folder.
 */
export class SandboxCore {
  exchange: Exchange;
  /** Time of the last accepted change that was not the market maker's. */
  lastActivityAt = 0;
  private lastAt = 0;

  private constructor(
    private readonly journal: Journal,
    private readonly genesis: Genesis,
    private readonly ids: IdSequence,
  ) {
    this.exchange = new Exchange(genesis.rules, ids, genesis.seed);
  }

  static async open(
    dataDir: string,
    seed: number,
    rules: Partial<ExchangeRules>,
  ): Promise<SandboxCore> {
    const entries = readJournal(dataDir);
    const journal = await Journal.open(dataDir);
    const first = entries[0];
    let genesis: Genesis;
    if (first?.t === 'genesis') {
      genesis = first as Genesis;
    } else if (first) {
      await journal.close();
      throw new Error(`the journal in ${dataDir} does not start with its genesis entry`);
    } else {
      genesis = {
        t: 'genesis',
        at: Date.now(),
        salt: randomBytes(16).toString('hex'),
        seed,
        rules: { ...DEFAULT_RULES, ...rules },
      };
      await journal.append(genesis);
    }
    const core = new SandboxCore(journal, genesis, new IdSequence(genesis.salt));
    for (const entry of entries.slice(1)) {
      try {
        core.applyEntry(entry);
      } catch (e) {
        throw new Error(
          `journal replay failed at an entry of type ${entry.t}: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      }
    }
    core.lastAt = Math.max(core.lastAt, genesis.at);
    return core;
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
      // Nothing before a reset matters any more: the journal starts afresh.
      const reset = { ...entry, counter: this.ids.counter };
      this.applyEntry(reset);
      this.lastActivityAt = entry.at;
      await this.journal.replace([this.genesis, reset]);
      return undefined as T;
    }
    const result = this.applyEntry(entry) as T;
    if (entry.t !== 'marketMaker') this.lastActivityAt = entry.at;
    await this.journal.append(entry);
    return result;
  }

  /** Resolves once every state already applied is on disk (reads wait for it). */
  synced(): Promise<void> {
    return this.journal.synced();
  }

  async close(): Promise<void> {
    await this.journal.close();
  }

  private applyEntry(entry: JournalEntry): unknown {
    this.lastAt = Math.max(this.lastAt, entry.at);
    if (entry.t === 'reset') {
      if (entry.counter !== undefined) this.ids.counter = entry.counter;
      this.exchange = new Exchange(this.genesis.rules, this.ids, this.genesis.seed);
      return undefined;
    }
    return this.exchange.apply(entry);
  }
}
