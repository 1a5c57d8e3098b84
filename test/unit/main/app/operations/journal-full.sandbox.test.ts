import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OperationJournal, type JournalEntry } from '../../../../../src-main/store/journal';
import type { FundsOverview, PreparedOperation } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * Nothing leaves for the exchange before it is written in the journal. When the disk refuses the
 * write (full, here: the error the system gives), the operation stops there, the trader is told
 * in words what happened, what became of the operation and what to do, and nothing reaches the
 * exchange; once there is room again the same operation goes through.
 */
let world: AppWorld;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

const order = {
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  quantity: '10',
  price: '0.4',
} as const;

/** The journal's writes fail as on a full disk (`which`: the entries refused). */
const diskFull = (which: (entry: JournalEntry) => boolean = () => true) => {
  const record = OperationJournal.prototype.record;
  return vi.spyOn(OperationJournal.prototype, 'record').mockImplementation(function (
    this: OperationJournal,
    entry,
    options,
  ) {
    if (!which(entry)) return record.call(this, entry, options);
    return Promise.reject(
      Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      }),
    );
  });
};

const openOrders = async () =>
  (await call<{ totalCount: number }>('orders:list', { view: 'open', page: 1, limit: 1 }))
    .totalCount;
const freeAda = async () =>
  Number(
    (await call<FundsOverview>('funds:overview')).exchange.find((b) => b.unit === 'lovelace')
      ?.free ?? 0,
  );

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers'] });
  await world.joinAsVectorWallet();
  await world.deposit([
    { unit: 'lovelace', amount: '3' },
    { unit: USDM, amount: '100' },
  ]);
}, 60_000);

afterEach(() => vi.restoreAllMocks());
afterAll(() => world?.dispose());

describe('a journal the disk will not take', () => {
  it('stops an order before it is signed, says so in words, and places nothing', async () => {
    const before = await openOrders();
    diskFull();
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', order);
    const refused = await world.refused('operations:confirm', {
      operationId: prepared.operationId,
    });
    expect(refused.message).toMatch(/journal of pending operations/);
    expect(refused.message).toMatch(/the disk is full/);
    expect(refused.message).toMatch(/nothing was signed or sent/);
    expect(refused.message).toMatch(/Free some space on the disk, then try again\./);
    expect(refused.message).not.toMatch(/ENOSPC|\/tmp\/|at .*\.ts/);
    expect(await openOrders()).toBe(before);

    // With room again, the trader places it.
    vi.restoreAllMocks();
    const again = await call<Serialized<PreparedOperation>>('trading:prepareOrder', order);
    await call('operations:confirm', { operationId: again.operationId });
    expect(await openOrders()).toBe(before + 1);
  });

  it('stops a deposit signed but not yet written down: nothing is sent and nothing is left to send', async () => {
    const before = await freeAda();
    diskFull((entry) => entry.signedTxHex !== null);
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '2' }],
    });
    const refused = await world.refused('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    expect(refused.message).toMatch(/the disk is full/);
    expect(refused.message).toMatch(/it was signed, but nothing was sent/);
    expect(await call('operations:pending')).toEqual([]);
    expect((await call<FundsOverview>('funds:overview')).pending).toEqual([]);
    const failed = world.events.filter(
      (e) =>
        e.name === 'operations:progress' &&
        (e.payload as { operationId: string; step: string }).operationId === prepared.operationId &&
        (e.payload as { step: string }).step === 'failed',
    );
    expect(failed).toHaveLength(1);

    vi.restoreAllMocks();
    const again = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '2' }],
    });
    await call('operations:confirm', { operationId: again.operationId, password: STRONG_PASSWORD });
    await world.until(freeAda, (free) => free === before + 2, 'the deposit to be credited');
  });
});
