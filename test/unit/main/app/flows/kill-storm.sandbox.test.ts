import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { OperationJournal } from '../../../../../src-main/store/journal';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../../../src-main/store/settings';
import { KeychainSecretStore } from '../../../../../src-main/wallet';
import type { PendingOperation } from '../../../../../src-shared/contract';
import { Money } from '../../../../../src-shared/money';
import { startSandbox } from '../../../../../src-sandbox/index';
import { USDM } from '../../../../fixtures/app/app-world';
import {
  DEPOSIT,
  WITHDRAWAL,
  settingsCandidates,
  type StormEvent,
  type StormKind,
} from '../../../../fixtures/app/trading-storm';

/**
 * kill -9 of the app (a child process running the real composition) in the middle of a storm of
 * 100 trading and funds operations against a sandbox that keeps running, at three points: an
 * operation signed and journaled but not sent, a submit on the wire, and deep in the storm. The
 * next start recovers what the journal holds (each entry resolved twice at once, as a double
 * click would), and what the exchange recorded is compared with what was acknowledged: every
 * acknowledged operation is there once, nothing the journal did not hold landed unacknowledged,
 * nothing is sent twice, the journal ends empty, and balances moved by exactly what landed. Run
 * inside `test/with-keychain.sh`.
 */
const CHILD = resolve(import.meta.dirname, '../../../../fixtures/crash/app-storm-child.ts');
const keychainService = `Countersign-storm-${randomUUID()}`;

interface Line {
  event?: StormEvent;
  submit?: { method: string; txId: string; op: string | null };
  progress?: { operationId: string; step: string };
  internal?: string;
  storm?: Array<{
    id: string;
    kind: StormKind;
    orderId?: string;
    change?: Record<string, unknown>;
  }>;
  before?: { open: string[]; exchange: Balance[] };
  state?: { open: string[]; exchange: Balance[] };
  pending?: PendingOperation[];
  resolved?: { id: string; action: string; answers: string[] };
  left?: PendingOperation[];
  finished?: boolean;
}
interface Balance {
  unit: string;
  free: string;
  locked: string;
}

/** One run of the child: every line it printed, and how it ended. */
interface Run {
  lines: Line[];
  signal: NodeJS.Signals | null;
  code: number | null;
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let sandboxDir = '';
let appDir = '';
const children: ChildProcess[] = [];

/** A child loaded and waiting; `go` runs it until it ends, or kills it when `killWhen` says. */
const warm = (action: 'setup' | 'recover', round: string) => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      ACTION: action,
      ROUND: round,
      SEED: String(7000 + children.length),
      DATA_DIR: appDir,
      SANDBOX_URL: sandbox.url,
      SANDBOX_TOKEN: sandbox.adminToken,
      KEYCHAIN_SERVICE: keychainService,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const lines: Line[] = [];
  return {
    go: (killWhen: (lines: Line[]) => boolean = () => false): Promise<Run> =>
      new Promise((done, fail) => {
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
          lines.push(JSON.parse(text) as Line);
          // A storm that ended before its kill point is killed too (and the test says so).
          const due = killWhen(lines) || lines.at(-1)?.finished === true;
          if (child.exitCode === null && child.signalCode === null && due) {
            child.kill('SIGKILL');
          }
        });
        child.once('exit', (code, signal) => {
          if (signal !== 'SIGKILL' && code !== 0) {
            fail(new Error(`the app child failed (${code}): ${stderr.slice(-2000)}`));
          } else done({ lines, signal, code });
        });
        child.stdin?.write('go\n');
      }),
  };
};

/** Lines after the storm began (its plan printed). */
const inStorm = (lines: Line[]): Line[] => {
  const at = lines.findIndex((l) => l.storm);
  return at < 0 ? [] : lines.slice(at);
};

const KILL_POINTS: Array<{ what: string; when: (lines: Line[]) => boolean }> = [
  {
    what: 'an operation signed and journaled, not yet sent',
    when: (lines) =>
      inStorm(lines).filter((l) => l.storm === undefined && l.progress?.step === 'journaled')
        .length >= 2,
  },
  {
    what: 'a submit on the wire',
    when: (lines) => inStorm(lines).filter((l) => l.submit).length >= 5,
  },
  {
    what: 'deep in the storm',
    when: (lines) => inStorm(lines).filter((l) => l.event?.phase === 'ok').length >= 40,
  },
];

/** Submits the sandbox accepted, from its journal (its own record of what it took). */
const acceptedByExchange = async (): Promise<Array<{ t: string; txId: string }>> =>
  (await readFile(join(sandboxDir, 'journal.ndjson'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { t: string; txId?: string })
    .filter((l): l is { t: string; txId: string } => l.t.endsWith('Submit') && !!l.txId);

/** What the app's journal holds on disk for the sandbox, read as the next start reads it. */
/** The journal's entries on disk: id, and whether it holds signed bytes (unsigned: built only). */
const journalOnDisk = async (): Promise<Array<{ id: string; signed: boolean }>> => {
  const journal = new OperationJournal(appDir);
  try {
    return (await journal.list('sandbox')).map((e) => ({ id: e.id, signed: e.txId !== null }));
  } finally {
    await journal.close();
  }
};

const totals = (balances: Balance[]) =>
  new Map(balances.map((b) => [b.unit, new Money(b.free).plus(b.locked)]));

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'countersign-storm-sandbox-'));
  appDir = await mkdtemp(join(tmpdir(), 'countersign-storm-app-'));
  sandbox = await startSandbox({
    dataDir: sandboxDir,
    port: 0,
    marketMaker: false,
    takers: false,
    history: false,
    confirmationDelayMs: 0,
    withdrawalDelayMs: 0,
    rateLimit: false,
  });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sandbox?.close();
  const store = new KeychainSecretStore(keychainService);
  const keytar = (await import('keytar')).default;
  for (const c of await keytar.findCredentials(keychainService)) await store.remove(c.account);
  await rm(sandboxDir, { recursive: true, force: true });
  await rm(appDir, { recursive: true, force: true });
});

/** A killed run's storm: from the balances it read just before (its setup left out). */
const stormPart = (lines: Line[]): Line[] => lines.slice(lines.findIndex((l) => l.before));
/** A recovering run's recovery: up to what it read of the exchange after resolving. */
const recoveryPart = (lines: Line[]): Line[] => lines.slice(0, lines.findIndex((l) => l.state) + 1);

describe('kill -9 of the app during a storm of trading and funds operations', () => {
  it('recovers to exactly what was acknowledged, at three kill points', async () => {
    const figures: Record<string, unknown>[] = [];
    // Every start loads at once and waits: a restart costs the app's own start alone.
    const starts = [
      warm('setup', '1'),
      ...KILL_POINTS.map((_, i) =>
        warm('recover', i + 1 < KILL_POINTS.length ? `${i + 2}` : 'last'),
      ),
    ];
    let killed = await (starts[0] as ReturnType<typeof warm>).go(KILL_POINTS[0]?.when);
    for (const [i, point] of KILL_POINTS.entries()) {
      expect(killed.signal, 'killed mid-storm').toBe('SIGKILL');
      expect(killed.lines.some((l) => l.finished)).toBe(false);
      const journalAtKill = await journalOnDisk();
      const settingsAtKill = await new SettingsStore(appDir).read();
      // The next start recovers, then runs the next storm until the next kill point.
      const following = KILL_POINTS[i + 1];
      const recovered = await (starts[i + 1] as ReturnType<typeof warm>).go(following?.when);
      expect(recovered.lines.some((l) => l.state)).toBe(true);
      figures.push(
        await compare(
          point.what,
          { killed: stormPart(killed.lines), recovery: recoveryPart(recovered.lines) },
          journalAtKill,
          settingsAtKill,
        ),
      );
      killed = recovered;
    }
    expect(killed.code).toBe(0);
    expect(await journalOnDisk(), 'journal after the last, unkilled run').toEqual([]);
    console.info(`app kill -9 storm ${JSON.stringify(figures)}`);
  }, 150_000);
});

/** Compares one killed run and the recovery after it with what the exchange and the disk hold. */
const compare = async (
  what: string,
  run: { killed: Line[]; recovery: Line[] },
  journalAtKill: Array<{ id: string; signed: boolean }>,
  settings: Awaited<ReturnType<SettingsStore['read']>>,
): Promise<Record<string, unknown>> => {
  const storm = run.killed.find((l) => l.storm)?.storm ?? [];
  const events = run.killed.flatMap((l) => (l.event ? [l.event] : []));
  const kindOf = new Map(storm.map((op) => [op.id, op.kind]));
  const operationOf = new Map(
    events.filter((e) => e.operationId).map((e) => [e.operationId as string, e.op]),
  );
  const confirmsOk = events.filter((e) => e.phase === 'ok' && e.step.startsWith('confirm'));
  const confirmsSent = events.filter((e) => e.phase === 'sent' && e.step.startsWith('confirm'));
  // A confirmation cut off by the kill: asked, never answered (per step: a double confirm has two).
  const stepOf = (e: StormEvent) => `${e.op} ${e.step}`;
  const answered = new Set(
    events.filter((e) => e.phase !== 'sent' && e.step.startsWith('confirm')).map(stepOf),
  );
  const inFlight = new Set(confirmsSent.filter((e) => !answered.has(stepOf(e))).map((e) => e.op));
  const pending = run.recovery.find((l) => l.pending)?.pending ?? [];
  const left = run.recovery.find((l) => l.left)?.left;
  const lost: string[] = [];
  const unexplained: string[] = [];

  // A signed entry on disk after the kill is of an operation whose confirmation was cut off. An
  // unsigned one (an order or cancel journaled when it was built) may be of any operation this
  // run built: killed before the trader confirmed it or before it was signed, or refused or
  // discarded with its clearing not yet on disk (that is not awaited). Nothing of it was signed.
  for (const { id, signed } of journalAtKill) {
    const op = operationOf.get(id);
    if (!op || (signed && !inFlight.has(op))) unexplained.push(`journal entry of ${op ?? id}`);
  }
  // The trader is offered every signed entry; an unsigned one has nothing to send, and the
  // recovery settles it without asking (after the last, unkilled run the journal is empty).
  const signedAtKill = journalAtKill.filter((e) => e.signed).map((e) => e.id);
  expect(pending.map((p) => p.id).sort()).toEqual(signedAtKill.sort());

  // Every acknowledged operation is at the exchange; nothing else from this run landed but what
  // the journal held (and the recovery settled).
  const accepted = await acceptedByExchange();
  const acceptedTx = new Set(accepted.map((a) => a.txId));
  for (const e of confirmsOk) {
    if (!acceptedTx.has(e.txHash ?? '')) lost.push(`${e.op} ${e.txHash}`);
  }
  const sentBy = (lines: Line[]) => lines.flatMap((l) => (l.submit ? [l.submit.txId] : []));
  const sentKilled = sentBy(run.killed);
  const sentRecovery = sentBy(run.recovery);
  const ackedTx = new Set(confirmsOk.map((e) => e.txHash));
  const journaledTx = new Set(pending.map((p) => p.txId));
  // A submit the exchange took whose answer the kill cut off (the journal had let it go): it
  // must belong to an operation the trader confirmed, whose confirmation was under way.
  const opOfTx = new Map(
    run.killed.flatMap((l) => (l.submit?.op ? [[l.submit.txId, l.submit.op] as const] : [])),
  );
  let answerLost = 0;
  for (const txId of new Set([...sentKilled, ...sentRecovery])) {
    if (acceptedTx.has(txId) && !ackedTx.has(txId) && !journaledTx.has(txId)) {
      const op = opOfTx.get(txId);
      if (op && inFlight.has(op)) answerLost++;
      else unexplained.push(`${txId} of ${op} landed, neither acknowledged nor journaled`);
    }
  }
  // Each journaled operation is at the exchange if and only if the recovery said it is done
  // (found landed, or submitted now); one the exchange refused is told so, and is not there.
  const resolved = run.recovery.flatMap((l) => (l.resolved ? [l.resolved] : []));
  for (const p of pending) {
    const done = resolved.find((r) => r.id === p.id)?.answers.includes('OK') ?? false;
    if (p.state !== 'expired' && done !== acceptedTx.has(p.txId)) {
      lost.push(`journaled ${p.kind} ${p.txId} (${p.state}): ${done ? 'done' : 'refused'}`);
    }
  }
  // Sent twice: by one process, or again after the crash when the exchange already had it.
  const count = (list: string[]) => {
    const n = new Map<string, number>();
    for (const id of list) n.set(id, (n.get(id) ?? 0) + 1);
    return n;
  };
  const twice = [...count(sentKilled), ...count(sentRecovery)].filter(([, n]) => n > 1);
  const landedBefore = new Set(pending.filter((p) => p.state === 'landed').map((p) => p.txId));
  const resentLanded = sentRecovery.filter((txId) => landedBefore.has(txId));
  const resent = sentRecovery.filter((txId) => sentKilled.includes(txId));
  const acceptedTwice = [...count(accepted.map((a) => a.txId))].filter(([, n]) => n > 1);

  // Balances moved by exactly the deposits and withdrawals the exchange took in this window.
  const before = totals(run.killed.find((l) => l.before)?.before?.exchange ?? []);
  const after = totals(run.recovery.find((l) => l.state)?.state?.exchange ?? []);
  const window = new Set([...sentKilled, ...sentRecovery]);
  const deposits = accepted.filter((a) => a.t === 'depositSubmit' && window.has(a.txId)).length;
  const withdrawals = accepted.filter(
    (a) => a.t === 'withdrawalSubmit' && window.has(a.txId),
  ).length;
  for (const unit of ['lovelace', USDM]) {
    const moved = (amounts: typeof DEPOSIT) =>
      new Money(amounts.find((a) => a.unit === unit)?.amount ?? '0');
    const expected = (before.get(unit) ?? new Money(0)).plus(moved(DEPOSIT).times(deposits)).minus(
      moved(WITHDRAWAL)
        .plus(unit === 'lovelace' ? 1 : 0)
        .times(withdrawals),
    );
    if (!after.get(unit)?.eq(expected)) {
      unexplained.push(`${unit.slice(0, 8)} ${after.get(unit)?.toFixed()} ≠ ${expected.toFixed()}`);
    }
  }

  // Settings: each part holds its last acknowledged value, or the one in flight at the kill.
  const changeOf = new Map(storm.map((op) => [op.id, op.change]));
  for (const part of ['theme', 'limits', 'notifyFills'] as const) {
    const allowed = settingsCandidates(events, (id) => changeOf.get(id), part);
    if (allowed && !allowed.includes(JSON.stringify(settings[part]))) {
      lost.push(`settings ${part}: ${JSON.stringify(settings[part])}, not ${allowed.join(' or ')}`);
    }
  }

  const internal = [...run.killed, ...run.recovery].flatMap((l) =>
    l.internal
      ? [l.internal]
      : l.event && ['INTERNAL', 'THROWN'].includes(l.event.code ?? '')
        ? [`${l.event.op}: ${l.event.message}`]
        : [],
  );
  const figure = {
    killPoint: what,
    operations: storm.length,
    acknowledged: events.filter((e) => e.phase === 'ok').length,
    confirmsAcknowledged: confirmsOk.length,
    confirmsInFlight: inFlight.size,
    journaledAtKill: journalAtKill.length,
    unsignedAtKill: journalAtKill.length - signedAtKill.length,
    /** Landed, its answer cut off by the kill after the journal let it go. */
    answerLost,
    pendingStates: pending.map((p) => p.state),
    resolveAnswers: resolved.map((r) => r.answers.join('+')),
    lostWrites: lost.length,
    unexplained: unexplained.length,
    internal: internal.length,
    doubleSubmits: twice.length + acceptedTwice.length + resentLanded.length,
    resentAfterCrash: resent.length,
  };
  expect({ lost, unexplained }, JSON.stringify(figure)).toEqual({ lost: [], unexplained: [] });
  expect(internal).toEqual([]);
  expect(twice).toEqual([]);
  expect(acceptedTwice).toEqual([]);
  expect(resentLanded).toEqual([]);
  expect(left).toEqual([]);
  expect(kindOf.size).toBe(100);
  return figure;
};
