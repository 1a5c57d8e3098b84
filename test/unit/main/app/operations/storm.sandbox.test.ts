import { Serialization } from '@cardano-sdk/core';
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeClient } from '../../../../../src-main/exchange';
import type { Logger } from '../../../../../src-main/log';
import { SettingsStore } from '../../../../../src-main/store/settings';
import { OperationJournal } from '../../../../../src-main/store/journal';
import { delayAfter, FREE_ATTEMPTS } from '../../../../../src-main/wallet';
import type * as Vault from '../../../../../src-main/wallet/vault';
import type {
  FundsOverview,
  OperationResult,
  PreparedOperation,
  SessionStatus,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import type { Order } from '../../../../../src-shared/domain';
import { ErrorCode } from '../../../../../src-shared/errors';
import { Money } from '../../../../../src-shared/money';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import {
  DEPOSIT,
  WITHDRAWAL,
  planStorm,
  priceOf,
  runOp,
  settingsCandidates,
  type StormEvent,
  type StormOp,
} from '../../../../fixtures/app/trading-storm';

/**
 * 100 concurrent mixed operations on trading and funds (orders prepared and confirmed, some
 * confirmed twice at once, cancels, deposits, withdrawals, settings, auto-lock, unlock attempts
 * right and wrong, reads), through the composition and dispatcher the app uses, against a real
 * sandbox process. Counted: writes acknowledged but missing (at the exchange, in the settings
 * file), INTERNAL errors, password checks run sooner than the throttle allows, transactions sent
 * twice; and what the exchange journaled must be exactly what was acknowledged.
 */
const probe = vi.hoisted(() => ({
  checks: [] as Array<{ op: string | undefined; label: string; at: number }>,
  currentOp: (): string | undefined => undefined,
}));

vi.mock('../../../../../src-main/wallet/vault', async (importOriginal) => {
  const actual = await importOriginal<typeof Vault>();
  return {
    ...actual,
    openSecret: (...args: Parameters<typeof actual.openSecret>) => {
      probe.checks.push({ op: probe.currentOp(), label: args[2], at: Date.now() });
      return actual.openSecret(...args);
    },
  };
});

const context = new AsyncLocalStorage<string>();
probe.currentOp = () => context.getStore();

/** Every signed transaction the app sent to a submit endpoint, in order. */
const submitted: Array<{ kind: string; txId: string }> = [];
const idOf = (signedTx: string) =>
  Serialization.Transaction.fromCbor(Serialization.TxCBOR(signedTx)).getId();

let world: AppWorld;
const logged: string[] = [];
const events: StormEvent[] = [];
let ops: StormOp[] = [];
const resting: string[] = [];
let before: Map<string, Money>;
let stormMs = 0;

const totals = (overview: Serialized<FundsOverview>): Map<string, Money> =>
  new Map(overview.exchange.map((b) => [b.unit, new Money(b.free).plus(b.locked)]));

const answered = (step: StormEvent['step'], kind?: string) =>
  events.filter(
    (e) => e.phase === 'ok' && e.step === step && (kind === undefined || e.kind === kind),
  );

beforeAll(async () => {
  const logger: Logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (message) => logged.push(message),
  };
  world = await appWorld({
    logger,
    sandboxArgs: [
      '--no-takers',
      '--no-market-maker',
      '--no-history',
      '--confirmation-delay-ms',
      '0',
      '--withdrawal-delay-ms',
      '0',
    ],
  });
  await world.joinAsVectorWallet();
  await world.deposit([
    { unit: 'lovelace', amount: '3000' },
    { unit: USDM, amount: '3000' },
  ]);
  for (let i = 0; i < 5; i++) {
    const prepared = await world.call<Serialized<PreparedOperation>>('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '10',
      price: priceOf('buy'),
    });
    const done = await world.call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
    });
    resting.push(done.order?.id ?? '');
  }
  before = totals(await world.call<Serialized<FundsOverview>>('funds:overview'));

  const record = (kind: string, original: (this: ExchangeClient, ...args: never[]) => unknown) =>
    function (this: ExchangeClient, ...args: unknown[]) {
      const first = args[0];
      const signed = typeof first === 'string' ? first : (first as { signedTx: string }).signedTx;
      submitted.push({ kind, txId: idOf(signed) });
      return original.apply(this, args as never[]);
    };
  for (const method of [
    'submitOrder',
    'submitCancel',
    'submitDeposit',
    'submitWithdrawal',
  ] as const) {
    const original = ExchangeClient.prototype[method] as (
      this: ExchangeClient,
      ...args: never[]
    ) => unknown;
    vi.spyOn(ExchangeClient.prototype, method).mockImplementation(
      record(method, original) as never,
    );
  }

  ops = planStorm(2026, resting);
  probe.checks.length = 0;
  const started = Date.now();
  await Promise.all(
    ops.map((op) =>
      context.run(op.id, () =>
        runOp(
          op,
          (channel, payload) => world.services.dispatch(channel, payload),
          (e) => {
            events.push(e);
          },
        ),
      ),
    ),
  );
  stormMs = Date.now() - started;
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await world?.dispose();
});

describe('a storm of 100 concurrent trading and funds operations', () => {
  it('answers every one in words: no INTERNAL error, nothing logged as unexpected', () => {
    const refused = events.filter((e) => e.phase === 'refused');
    const codes: Record<string, number> = {};
    for (const e of refused) codes[e.code ?? '?'] = (codes[e.code ?? '?'] ?? 0) + 1;
    const internal = refused.filter((e) => e.code === ErrorCode.Internal || e.code === 'THROWN');
    console.info(
      `trading storm: ${JSON.stringify({ operations: ops.length, ms: stormMs, acknowledged: events.filter((e) => e.phase === 'ok').length, refused: codes, internal: internal.length })}`,
    );
    expect(ops).toHaveLength(100);
    expect(internal.map((e) => `${e.op}: ${e.message}`)).toEqual([]);
    expect(logged).toEqual([]);
    // Every refusal says what happened in words, never a stack or an empty message.
    for (const e of refused) expect(e.message ?? '', e.op).toMatch(/^[A-Z].{20,}/s);
  });

  it('checks no password sooner than the schedule allows', () => {
    const byOp = new Map(ops.map((op) => [op.id, op]));
    const wrongOps = new Set(
      events.filter((e) => e.code === ErrorCode.WrongPassword).map((e) => e.op),
    );
    // One opening per attempt: the API key opened after an unlock's check is the same attempt.
    const attempts = probe.checks.filter((c) => !c.label.includes('/api-key/'));
    let failures = 0;
    let lastFailureAt = 0;
    let beyond = 0;
    for (const check of attempts) {
      expect(check.op && byOp.has(check.op), 'every check belongs to the storm').toBe(true);
      // Lenient: the throttle counts the wait from the end of a check, this from its start.
      if (failures >= FREE_ATTEMPTS && check.at < lastFailureAt + delayAfter(failures)) beyond++;
      if (check.op && wrongOps.has(check.op)) {
        failures++;
        lastFailureAt = check.at;
      } else {
        failures = 0;
      }
    }
    const wrong = events.filter((e) => e.code === ErrorCode.WrongPassword).length;
    const throttled = events.filter((e) => e.code === ErrorCode.TooManyAttempts).length;
    console.info(
      `trading storm: ${JSON.stringify({ passwordChecks: attempts.length, wrong, throttled, beyondSchedule: beyond })}`,
    );
    expect(beyond).toBe(0);
    // Each wrong password was checked exactly once, and a funds confirm without its check
    // was refused before anything was signed.
    expect(attempts.filter((c) => c.op && wrongOps.has(c.op))).toHaveLength(wrong);
    // No wrong guess got through: each was checked and refused, or refused by the throttle.
    const guesses = ops.filter((op) => op.kind.endsWith('-wrong'));
    for (const op of guesses) {
      const verdict = events.filter(
        (e) => e.op === op.id && e.phase !== 'sent' && e.step !== 'prepare',
      );
      expect(
        verdict.map((e) => e.code),
        op.id,
      ).toEqual([expect.stringMatching(/^(WRONG_PASSWORD|TOO_MANY_ATTEMPTS)$/)]);
    }
    expect(wrong).toBeGreaterThan(0);
  });

  it('sends no transaction twice: a double confirm signs and sends once', () => {
    const perTx = new Map<string, number>();
    for (const s of submitted) perTx.set(s.txId, (perTx.get(s.txId) ?? 0) + 1);
    const twice = [...perTx].filter(([, n]) => n > 1);
    const doubles = ops.filter((op) => op.kind === 'double-confirm');
    let bothAcknowledged = 0;
    for (const op of doubles) {
      const confirms = events.filter(
        (e) => e.op === op.id && e.phase === 'ok' && e.step.startsWith('confirm'),
      );
      if (confirms.length > 1) bothAcknowledged++;
    }
    const confirmsOk = events.filter((e) => e.phase === 'ok' && e.step.startsWith('confirm'));
    console.info(
      `trading storm: ${JSON.stringify({ submits: submitted.length, doubleSubmits: twice.length, doubleConfirmsBothOk: bothAcknowledged, confirmed: confirmsOk.length })}`,
    );
    expect(twice).toEqual([]);
    expect(bothAcknowledged).toBe(0);
    // Every confirmation that was answered OK sent its transaction once.
    const sentIds = new Set(submitted.map((s) => s.txId));
    for (const e of confirmsOk) expect(sentIds.has(e.txHash ?? ''), e.op).toBe(true);
  });

  it('loses no acknowledged write: the exchange, the settings file and the journal agree with the answers', async () => {
    const lost: string[] = [];
    // Orders: each acknowledged one is open at the exchange; each acknowledged cancel took.
    const orders = answered('confirm').filter((e) => e.orderId);
    for (const e of orders) {
      const order = await world.call<Serialized<Order>>('orders:get', { orderId: e.orderId });
      if (order.status !== 'open') lost.push(`order ${e.orderId}: ${order.status}`);
    }
    const cancelled = new Set(
      answered('confirm', 'cancel').map((e) => ops.find((op) => op.id === e.op)?.orderId),
    );
    const open = await world.call<{ orders: Serialized<Order>[]; totalCount: number }>(
      'orders:list',
      { view: 'open', page: 1, limit: 250 },
    );
    const expectedOpen = new Set([
      ...resting.filter((id) => !cancelled.has(id)),
      ...orders.map((e) => e.orderId),
    ]);
    const openIds = new Set(open.orders.map((o) => o.id));
    for (const id of expectedOpen) if (!openIds.has(id ?? '')) lost.push(`open order ${id}`);
    // Nothing at the exchange that was not acknowledged (an order placed twice would show here).
    const phantoms = [...openIds].filter((id) => !expectedOpen.has(id));

    // Balances: exactly the acknowledged deposits in, the acknowledged withdrawals (and their
    // 1 ADA fee) out.
    const deposits = answered('confirm', 'deposit').length;
    const withdrawals = answered('confirm', 'withdrawal').length;
    const after = totals(await world.call<Serialized<FundsOverview>>('funds:overview'));
    const expected = new Map(before);
    const move = (amounts: typeof DEPOSIT, times: number, sign: number) => {
      for (const { unit, amount } of amounts) {
        expected.set(
          unit,
          (expected.get(unit) ?? new Money(0)).plus(new Money(amount).times(times * sign)),
        );
      }
    };
    move(DEPOSIT, deposits, 1);
    move(WITHDRAWAL, withdrawals, -1);
    move([{ unit: 'lovelace', amount: '1' }], withdrawals, -1);
    for (const unit of ['lovelace', USDM]) {
      if (!after.get(unit)?.eq(expected.get(unit) ?? 0)) {
        lost.push(
          `${unit.slice(0, 8)}: ${after.get(unit)?.toFixed()} held, ${expected.get(unit)?.toFixed()} expected`,
        );
      }
    }

    // The exchange's own journal: every accepted submit was acknowledged, once.
    const journal = (await readFile(join(world.dataDir, 'sandbox', 'journal.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { t: string; txId?: string });
    const accepted = (t: string) => journal.filter((l) => l.t === t);
    const stormTx = new Set(submitted.map((s) => s.txId));
    const acceptedInStorm = journal.filter(
      (l) => l.t.endsWith('Submit') && l.txId && stormTx.has(l.txId),
    );
    const ackedTx = new Set(
      answered('confirm')
        .concat(answered('confirm-2'))
        .map((e) => e.txHash),
    );
    for (const l of acceptedInStorm) {
      if (!ackedTx.has(l.txId)) phantoms.push(`${l.t} ${l.txId} accepted, never acknowledged`);
    }
    expect(accepted('orderSubmit').length).toBe(resting.length + orders.length);

    // Settings: each part holds the value of the last change acknowledged for it, on disk.
    const onDisk = await new SettingsStore(world.dataDir).read();
    const changeOf = (id: string) => ops.find((op) => op.id === id)?.change;
    for (const part of ['theme', 'limits', 'notifyFills'] as const) {
      const allowed = settingsCandidates(events, changeOf, part);
      if (allowed && !allowed.includes(JSON.stringify(onDisk[part]))) {
        lost.push(`settings ${part}: ${JSON.stringify(onDisk[part])}, not ${allowed.join(' or ')}`);
      }
    }
    const status = await world.call<SessionStatus>('session:status');
    const autoLocks = settingsCandidates(
      events.map((e) => (e.kind === 'autolock' ? { ...e, kind: 'settings' as const } : e)),
      (id) => {
        const op = ops.find((o) => o.id === id);
        return op?.kind === 'autolock' ? { autoLock: op.autoLock } : undefined;
      },
      'autoLock',
    );
    if (autoLocks && !autoLocks.includes(JSON.stringify(status.autoLock))) {
      lost.push(`auto-lock ${status.autoLock}, not ${autoLocks.join(' or ')}`);
    }

    // The journal of signed operations is empty: each was submitted and settled, or refused.
    const pending = await world.call<unknown[]>('operations:pending');
    const appJournal = new OperationJournal(world.dataDir);
    const left = (await appJournal.list('sandbox')).map((e) => e.id);
    await appJournal.close();
    console.info(
      `trading storm: ${JSON.stringify({ orders: orders.length, cancels: cancelled.size, deposits, withdrawals, lostWrites: lost.length, phantoms: phantoms.length, pending: pending.length })}`,
    );
    expect(lost).toEqual([]);
    expect(phantoms).toEqual([]);
    expect(pending).toEqual([]);
    expect(left).toEqual([]);
    expect(orders.length + deposits + withdrawals).toBeGreaterThan(0);
    // A trader's next order after the storm goes through.
    const next = await world.call<Serialized<PreparedOperation>>('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: '10',
      price: priceOf('sell'),
    });
    const unlocked = await world.refused('session:unlock', { password: 'still wrong' });
    expect([ErrorCode.WrongPassword, ErrorCode.TooManyAttempts]).toContain(unlocked.code);
    await world.call('operations:confirm', { operationId: next.operationId });
  });
});
