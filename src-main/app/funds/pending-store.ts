import { join } from 'node:path';
import { z } from 'zod';
import { Money } from '../../../src-shared/money';
import type { DepositIntent, WithdrawalIntent } from '../../signing';
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

/**
 * A watch-only wallet's deposit or withdrawal handed to its offline device (saved or shown as QR
 * codes) and not sent yet: the built transaction and what the trader asked, so that it is checked
 * again and waits for its signature after a restart as it did before.
 */
export interface Waiting {
  txHex: string;
  intent: DepositIntent | WithdrawalIntent;
  /** When the exchange stops accepting it (ms). */
  expiresAt: number;
}

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
const Quantity = z.string().regex(/^\d+$/);
const AmountsLine = z.record(Unit, Quantity);
const WaitingLine = z.object({
  operationId: z.string().min(1),
  /** The largest transaction the ledger takes is 16 KiB: 32 KiB of hex. */
  txHex: z
    .string()
    .regex(/^([0-9a-f]{2})+$/)
    .max(65_536),
  expiresAt: z.number().int().nonnegative(),
  intent: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('deposit'),
      amounts: AmountsLine,
      inputs: z
        .array(
          z.object({
            ref: z.string().max(200),
            address: z.string().max(200),
            amounts: AmountsLine,
          }),
        )
        .max(500),
    }),
    z.object({ kind: z.literal('withdrawal'), amounts: AmountsLine, statedFeeLovelace: Quantity }),
  ]),
});
const PendingFile = z.object({
  version: z.literal(1),
  pending: z.array(TrackedLine),
  expected: z.array(ExpectedLine),
  /** Added later: a file written before has none. */
  waiting: z.array(WaitingLine).default([]),
});

export interface PendingState {
  pending: Tracked[];
  /** By operation id, oldest first. */
  expected: Map<string, Expected>;
  /** By operation id: handed to the offline device, not sent yet. */
  waiting: Map<string, Waiting>;
}

const amountsOf = (line: Record<string, string>): Map<string, bigint> =>
  new Map(Object.entries(line).map(([unit, q]) => [unit, BigInt(q)]));
const amountsLine = (amounts: ReadonlyMap<string, bigint>): Record<string, string> =>
  Object.fromEntries([...amounts].map(([unit, q]) => [unit, q.toString()]));

const waitingOf = (line: z.output<typeof WaitingLine>): Waiting => ({
  txHex: line.txHex,
  expiresAt: line.expiresAt,
  intent:
    line.intent.kind === 'deposit'
      ? {
          kind: 'deposit',
          amounts: amountsOf(line.intent.amounts),
          inputs: new Map(
            line.intent.inputs.map((i) => [
              i.ref,
              { address: i.address, amounts: amountsOf(i.amounts) },
            ]),
          ),
        }
      : {
          kind: 'withdrawal',
          amounts: amountsOf(line.intent.amounts),
          statedFeeLovelace: BigInt(line.intent.statedFeeLovelace),
        },
});

const waitingLine = (operationId: string, w: Waiting): z.input<typeof WaitingLine> => ({
  operationId,
  txHex: w.txHex,
  expiresAt: w.expiresAt,
  intent:
    w.intent.kind === 'deposit'
      ? {
          kind: 'deposit',
          amounts: amountsLine(w.intent.amounts),
          inputs: [...w.intent.inputs].map(([ref, coin]) => ({
            ref,
            address: coin.address,
            amounts: amountsLine(coin.amounts),
          })),
        }
      : {
          kind: 'withdrawal',
          amounts: amountsLine(w.intent.amounts),
          statedFeeLovelace: w.intent.statedFeeLovelace.toString(),
        },
});

const expectedOf = (line: z.output<typeof ExpectedLine>): Expected => ({
  kind: line.kind,
  title: line.title,
  network: line.network,
  walletId: line.walletId,
  amounts: amountsOf(line.amounts),
  totalBefore: new Map(Object.entries(line.totalBefore).map(([unit, t]) => [unit, new Money(t)])),
});

const expectedLine = (operationId: string, e: Expected): z.input<typeof ExpectedLine> => ({
  operationId,
  kind: e.kind,
  title: e.title,
  network: e.network,
  walletId: e.walletId,
  amounts: amountsLine(e.amounts),
  totalBefore: Object.fromEntries([...e.totalBefore].map(([unit, t]) => [unit, t.toFixed()])),
});

/**
 * The deposits and withdrawals on their way, kept in `<dataDir>/funds/pending.json`: a trader
 * who closes the app (or whose app is killed) before the exchange credits a deposit still sees it
 * "On its way" at the next start, and one sent from the recovery prompt after a crash is followed
 * like any other; a watch-only wallet's deposit or withdrawal at its offline device still waits
 * for its signature. A file that cannot be read is moved aside and described (`notice`), and the
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
    if (read.kind !== 'ok') return { pending: [], expected: new Map(), waiting: new Map() };
    return {
      pending: read.value.pending.map((line) => ({
        ...expectedOf({ ...line, operationId: '' }),
        txHash: line.txHash,
        submittedAt: line.submittedAt,
        submittedAtMs: line.submittedAtMs,
      })),
      expected: new Map(read.value.expected.map((line) => [line.operationId, expectedOf(line)])),
      waiting: new Map(read.value.waiting.map((line) => [line.operationId, waitingOf(line)])),
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
        waiting: [...state.waiting].map(([id, w]) => waitingLine(id, w)),
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
