import { describe, expect, it, vi } from 'vitest';
import { TraderAccount } from './account.svelte';
import { executionOf, fakeApi, orderOf } from './fake-api';

const execution = (id: string, orderId: string, createdAt: string) =>
  executionOf({ id, orderId, createdAt, role: 'maker' });

const overview = (free: string) => ({
  exchange: [
    { asset: 'ADA', unit: 'lovelace', free: '100', locked: '0' },
    { asset: 'USDM', unit: 'c69b', free, locked: '1' },
  ],
  readAt: '2025-03-01T12:00:00Z',
  pending: [],
});

describe('TraderAccount', () => {
  it('loads balances, open orders and fills', async () => {
    const traded = orderOf({
      status: 'fully_filled',
      executions: [execution('e1', 'o1', '2025-03-01T12:00:01Z')],
    });
    const fake = fakeApi({
      'funds:overview': () => overview('50'),
      'orders:all': () => [orderOf()],
      'orders:list': () => ({
        orders: [traded],
        page: 1,
        limit: 100,
        totalCount: 1,
        totalPages: 1,
      }),
    });
    const account = new TraderAccount(fake.api);
    await account.start();
    expect(account.free('USDM')?.toFixed()).toBe('50');
    expect(account.free('usdm')?.toFixed()).toBe('50');
    expect(account.free('NIGHT')?.toFixed()).toBe('0');
    expect(account.openOrders).toHaveLength(1);
    expect(account.fills.map((f) => [f.id, f.side, f.price.toFixed()])).toEqual([
      ['e1', 'buy', '0.65'],
    ]);
    expect(fake.calls.find((c) => c.channel === 'orders:all')?.request).toEqual({ view: 'open' });
  });

  it('keeps every part current from events', async () => {
    const fake = fakeApi({ 'funds:overview': () => overview('50') });
    const account = new TraderAccount(fake.api);
    await account.start();
    fake.emit('funds:changed', overview('7.5'));
    expect(account.free('USDM')?.toFixed()).toBe('7.5');

    fake.emit('orders:open', [orderOf(), orderOf()]);
    expect(account.openOrders).toHaveLength(2);
    expect(account.openOrdersError).toBeNull();

    const order = orderOf({
      id: 'o2',
      executions: [
        execution('e1', 'o2', '2025-03-01T12:00:01Z'),
        execution('e2', 'o2', '2025-03-01T12:00:02Z'),
      ],
    });
    fake.emit('orders:filled', { order, executionId: 'e2' });
    expect(account.fills.map((f) => f.id)).toEqual(['e2']);
    fake.emit('orders:filled', { order, executionId: 'e1' });
    fake.emit('orders:filled', { order, executionId: 'e1' });
    expect(account.fills.map((f) => f.id)).toEqual(['e2', 'e1']);
  });

  it('reads the fills again when orders or balances change (an order filled whole as placed)', async () => {
    let traded: ReturnType<typeof orderOf>[] = [];
    const fake = fakeApi({
      'funds:overview': () => overview('50'),
      'orders:list': () => ({ orders: traded, page: 1, limit: 100, totalCount: 0, totalPages: 0 }),
    });
    const account = new TraderAccount(fake.api, 20);
    await account.start();
    expect(account.fills).toEqual([]);
    // Filled at once: it never rests in the open list, so main sends no fill event for it.
    traded = [
      orderOf({
        id: 'o3',
        status: 'fully_filled',
        executions: [execution('e9', 'o3', '2025-03-01T12:00:03Z')],
      }),
    ];
    fake.emit('funds:changed', overview('43.5'));
    fake.emit('orders:open', []);
    await vi.waitFor(() => expect(account.fills.map((f) => f.id)).toEqual(['e9']));
    const reads = fake.calls.filter((c) => c.channel === 'orders:list').length;
    expect(reads).toBe(2);
    account.dispose();
  });

  it("keeps main's message when a part cannot load, without blocking the others", async () => {
    const fake = fakeApi({
      'orders:all': { error: 'The exchange refused the API key. Check it in Settings.' },
      'funds:overview': () => overview('1'),
    });
    const account = new TraderAccount(fake.api);
    await account.start();
    expect(account.openOrdersError).toBe('The exchange refused the API key. Check it in Settings.');
    expect(account.free('USDM')?.toFixed()).toBe('1');
  });

  it('does not know a balance before the exchange answered', async () => {
    const account = new TraderAccount(fakeApi().api);
    await account.start();
    expect(account.free('ADA')).toBeNull();
    expect(account.balancesError).toBe('This part of Countersign is not ready yet.');
  });
});
