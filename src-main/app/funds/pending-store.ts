import { join } from 'node:path';
import { z } from 'zod';
import { Money } from '../../../src-shared/money';
import { loadJsonFile, updateJsonFile, type Damage } from '../../store/atomic-file';

/** A deposit or withdrawal the trader confirmed, followed until it lands. */
export interface Tracked {
  kind: 'deposit' | 'withdrawal';
  title: string;
  network: string;
  /** The wallet it moves funds of: another wallet's balances say nothing of it. */
  walletId: string;
  /** Deposits: what went in, to tell when the exchange credits it. */
  amounts: Map<string, bigint>;
  /** Deposits: free + locked of each unit when it was built. */
  totalBefore: Map<string, Money>;
  txHash: string;
  submittedAt: string;
  submittedAtMs: number;
}

/** What is known of one before it is sent: all but its transaction and when it left. */
export type Expected = Omit<Tracked, 'txHash' | 'submittedAt' | 'submittedAtMs'>;

const Unit = z.string().min(1).max(120);
const ExpectedLine = z.object({
  operationId: z.string().min(1),
  kind: z.enum(['deposit', 'withdrawal']),
  title: z.string(),
  network: z.string(),
  walletId: z.string(),
  amounts: z.record(Unit, z.string().regex(/^\d+$/)),
  totalBefore: z.record(Unit, z.string().regex(/^-?\d+(\.\d+)?$/)),
});
const TrackedLine = ExpectedLine.omit({ operationId: true }).extend({
  txHash: z.string().regex(/^[0-9a-f]{64}$/),
  submittedAt: z.string(),
  submittedAtMs: z.number().int().nonnegative(),
});
const PendingFile = z.object({
  version: z.literal(1),
  pending: z.array(TrackedLine),
  expected: z.array(ExpectedLine),
});

export interface PendingState {
  pending: Tracked[];
  /** By operation id, oldest first. */
  expected: Map<string, Expected>;
}

const expectedOf = (line: z.output<typeof ExpectedLine>): Expected => ({
  kind: line.kind,
  title: line.title,
  network: line.network,
  walletId: line.walletId,
  amounts: new Map(Object.entries(line.amounts).map(([unit, q]) => [unit, BigInt(q)])),
  totalBefore: new Map(Object.entries(line.totalBefore).map(([unit, t]) => [unit, new Money(t)])),
});

const expectedLine = (operationId: string, e: Expected): z.input<typeof ExpectedLine> => ({
  operationId,
  kind: e.kind,
  title: e.title,
  network: e.network,
  walletId: e.walletId,
  amounts: Object.fromEntries([...e.amounts].map(([unit, q]) => [unit, q.toString()])),
  totalBefore: Object.fromEntries([...e.totalBefore].map(([unit, t]) => [unit, t.toFixed()])),
});

/**
 * The deposits and withdrawals on their way, kept in `<dataDir>/funds/pending.json`: a trader
 * who closes the app (or whose app is killed) before the exchange credits a deposit still sees it
 * "On its way" at the next start, and one sent from the recovery prompt after a crash is followed
 * like any other. A file that cannot be read is moved aside and described (`notice`), and the
 * list starts empty: a deposit missing from it is only not shown, never lost.
 */
export class PendingFundsStore {
  readonly #path: string;
  #damage: Damage | undefined;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'funds', 'pending.json');
  }

  async load(): Promise<PendingState> {
    const read = await loadJsonFile(this.#path, PendingFile);
    if (read.kind === 'damaged') this.#damage = read.damage;
    if (read.kind !== 'ok') return { pending: [], expected: new Map() };
    return {
      pending: read.value.pending.map((line) => ({
        ...expectedOf({ ...line, operationId: '' }),
        txHash: line.txHash,
        submittedAt: line.submittedAt,
        submittedAtMs: line.submittedAtMs,
      })),
      expected: new Map(read.value.expected.map((line) => [line.operationId, expectedOf(line)])),
    };
  }

  /** Writes the whole state (in the file's turn: saves land in the order they were asked). */
  async save(state: PendingState): Promise<void> {
    await updateJsonFile(this.#path, PendingFile, (_current, damage) => {
      if (damage) this.#damage = damage;
      return {
        version: 1 as const,
        pending: state.pending.map((t) => {
          const { operationId: _, ...line } = expectedLine('', t);
          return {
            ...line,
            txHash: t.txHash,
            submittedAt: t.submittedAt,
            submittedAtMs: t.submittedAtMs,
          };
        }),
        expected: [...state.expected].map(([id, e]) => expectedLine(id, e)),
      };
    });
  }

  /** A plain-words note when the file was damaged during this run, else null. */
  notice(): string | null {
    const damage = this.#damage;
    if (!damage) return null;
    return (
      `The list of deposits and withdrawals on their way (${damage.file}) could not be read ` +
      `(${damage.reason}). It was moved aside as ${damage.movedTo}. Your funds are not affected: ` +
      'the balances shown come from the exchange and the chain.'
    );
  }
}
