import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationJournal, type JournalEntry } from '../../../../../src-main/store/journal';
import type { PendingOperation } from '../../../../../src-shared/contract';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * After a restart the app opens locked. What an earlier run left signed and unsent is offered at
 * once: a deposit's fate is in the journal (signed, never sent) and needs no key to tell; an
 * order's is asked of the exchange, which needs the unlocked session, and says so in words.
 */
let world: AppWorld;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  id: randomUUID(),
  kind: 'deposit',
  title: 'Deposit 100 ADA',
  network: 'sandbox',
  signedAt: new Date().toISOString(),
  txId: 'ab'.repeat(32),
  signedTxHex: '84a400',
  orderId: null,
  cancelsOrderId: null,
  expiresAt: Date.now() + 3_600_000,
  submitStartedAt: null,
  ...over,
});

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers', '--no-market-maker'] });
  await world.joinAsVectorWallet();
}, 60_000);

afterAll(() => world?.dispose());

describe('unfinished operations while the wallet is locked', () => {
  it('a deposit is known as never sent; an order waits for the unlock, which is said, and is then looked up', async () => {
    const journal = new OperationJournal(world.dataDir);
    const deposit = entry({});
    const order = entry({ kind: 'place-order', title: 'Sell 10 ADA', orderId: randomUUID() });
    await journal.record(deposit);
    await journal.record(order);
    await call('session:lock');

    const locked = await call<PendingOperation[]>('operations:pending');
    expect(locked.find((p) => p.id === deposit.id)).toMatchObject({
      state: 'not-submitted',
      explanation: 'It was signed but never sent. You can submit it or discard it.',
    });
    const waiting = locked.find((p) => p.id === order.id);
    expect(waiting?.state).toBe('unknown');
    expect(waiting?.explanation).toMatch(/^Your wallet is locked: unlock it, and Countersign asks/);

    await call('session:unlock', { password: STRONG_PASSWORD });
    const unlocked = await call<PendingOperation[]>('operations:pending');
    expect(unlocked.find((p) => p.id === order.id)).toMatchObject({
      state: 'not-submitted',
      explanation: 'The exchange does not have it. You can submit it now or discard it.',
    });

    // Discarding needs no key: it only leaves the journal.
    await call('session:lock');
    await call('operations:resolve', { id: deposit.id, action: 'discard' });
    await call('operations:resolve', { id: order.id, action: 'discard' });
    expect(await call('operations:pending')).toEqual([]);
  });
});
