import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationJournal, type JournalEntry } from '../../../../../src-main/store/journal';
import type {
  OperationResult,
  PendingOperation,
  PreparedOperation,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * An order or a cancel is in the journal from the moment the exchange has built it: unsigned at
 * first (its disk flush runs while the signer reads it), then with its signed bytes, written
 * before they are sent. An unsigned entry is never the trader's to decide: there is nothing of it
 * to send. What an earlier run left unsigned is looked up and cleared without a prompt.
 */
let world: AppWorld;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);
const journaled = (): Promise<JournalEntry[]> =>
  new OperationJournal(world.dataDir).list('sandbox');

const order = {
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  quantity: '10',
  price: '0.4',
} as const;

const unsigned = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: randomUUID(),
  kind: 'place-order',
  title: 'Buy 10 ADA at 0.4 USDM',
  network: 'sandbox',
  signedAt: new Date().toISOString(),
  txId: null,
  signedTxHex: null,
  orderId: randomUUID(),
  cancelsOrderId: null,
  expiresAt: Date.now() + 3_600_000,
  submitStartedAt: null,
  ...over,
});

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers'] });
  await world.joinAsVectorWallet();
  await world.deposit([
    { unit: 'lovelace', amount: '3' },
    { unit: USDM, amount: '100' },
  ]);
}, 60_000);

afterAll(() => world?.dispose());

describe('an order in the journal from the moment it is built', () => {
  it('is on the disk, unsigned, while it waits for the confirmation; a discard removes it', async () => {
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', order);
    const [entry] = await journaled();
    expect(entry).toMatchObject({
      id: prepared.operationId,
      kind: 'place-order',
      txId: null,
      signedTxHex: null,
    });
    expect(entry?.orderId).toMatch(/^[0-9a-f-]{36}$/);
    // Its dialog may be open: it is nobody's leftover, and stays.
    expect(await call('operations:pending')).toEqual([]);
    expect(await journaled()).toHaveLength(1);

    await call('operations:discard', { operationId: prepared.operationId });
    await world.until(journaled, (left) => left.length === 0, 'the discarded entry to go');
  });

  it('leaves the journal once the exchange has it, signed in between', async () => {
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', order);
    const done = await call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
    });
    expect(done.order?.status).toBe('open');
    expect(done.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await journaled()).toEqual([]);

    // A cancel likewise: unsigned once built, gone once the exchange has it.
    const cancel = await call<Serialized<PreparedOperation>>('trading:prepareCancel', {
      orderId: done.order?.id,
    });
    expect(await journaled()).toMatchObject([
      { id: cancel.operationId, kind: 'cancel-order', cancelsOrderId: done.order?.id },
    ]);
    await call('operations:confirm', { operationId: cancel.operationId });
    expect(await journaled()).toEqual([]);
  });

  it('what an earlier run left unsigned is cleared without a prompt once the exchange is asked', async () => {
    const journal = new OperationJournal(world.dataDir);
    // Never sent: the exchange has no such order.
    const never = unsigned();
    // Sent, its signed bytes lost to a power cut: the exchange has it, and it shows with the rest.
    const placed = await call<Serialized<OperationResult>>('operations:confirm', {
      operationId: (await call<Serialized<PreparedOperation>>('trading:prepareOrder', order))
        .operationId,
    });
    const landed = unsigned({ orderId: placed.order?.id ?? null });
    await journal.record(never);
    await journal.record(landed);

    // Locked, the exchange cannot be asked about an order: they stay, and nobody is asked.
    await call('session:lock');
    expect(await call<PendingOperation[]>('operations:pending')).toEqual([]);
    expect((await journaled()).map((e) => e.id)).toEqual([never.id, landed.id]);

    await call('session:unlock', { password: STRONG_PASSWORD });
    expect(await call<PendingOperation[]>('operations:pending')).toEqual([]);
    expect(await journaled()).toEqual([]);

    // Nothing of an unsigned entry can be sent, said in words if one is asked for anyway.
    const stale = unsigned();
    await journal.record(stale);
    const refused = await world.refused('operations:resolve', { id: stale.id, action: 'submit' });
    expect(refused.message).toMatch(
      /^Countersign stopped before this was signed, so there is nothing of it to send\. Check your open orders/,
    );
    expect(await journaled()).toEqual([]);
    await call('trading:cancelAll', { symbol: 'ADAUSDM' });
  });
});
