import { describe, expect, it } from 'vitest';
import { fakeApi, orderOf } from '../trade/fake-api';
import { OrderBrowser } from './order-browser.svelte';

const memory = () => {
  const store = new Map<string, string>();
  return {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
};

const execution = (id: string, orderId: string, createdAt: string) => ({
  id,
  orderId,
  accountId: null,
  counterPartyOrderId: 'maker-1',
  price: '0.65',
  baseQty: '10',
  quoteQty: '6.5',
  commission: '0.01',
  commissionUnit: 'lovelace',
  role: 'taker' as const,
  createdAt,
});

describe('OrderBrowser', () => {
  it('reads the chosen view with its filters, and remembers the view', async () => {
    const storage = memory();
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:all': () => [orderOf(), orderOf()],
    });
    const browser = new OrderBrowser(fake.api, storage);
    await browser.start();
    expect(browser.rowCount).toBe(2);
    await browser.show('open');
    await browser.filter({ symbol: 'ADAUSDM', side: 'sell', status: 'open' });
    expect(fake.calls.filter((c) => c.channel === 'orders:all').at(-1)?.request).toEqual({
      view: 'open',
      symbol: 'ADAUSDM',
      side: 'sell',
      status: 'open',
    });
    // A status that the next view cannot hold is dropped with it.
    await browser.show('history');
    expect(browser.status).toBe('');
    expect(new OrderBrowser(fake.api, storage).view).toBe('history');
  });

  it('lists one row per fill, newest first, in the trading history', async () => {
    const a = orderOf({
      id: 'a',
      executions: [execution('a1', 'a', '2025-03-01T12:00:01Z')],
    });
    const b = orderOf({
      id: 'b',
      executions: [
        execution('b1', 'b', '2025-03-01T12:00:00Z'),
        execution('b2', 'b', '2025-03-01T12:00:05Z'),
      ],
    });
    const fake = fakeApi({ 'market:markets': () => [], 'orders:all': () => [a, b] });
    const browser = new OrderBrowser(fake.api, memory());
    await browser.start();
    await browser.show('trades');
    expect(browser.fills.map((f) => f.key)).toEqual(['b:b2', 'a:a1', 'b:b1']);
    expect(browser.orderAt(1)?.id).toBe('a');
  });

  it("opens an order with main's fresh record, and says so when it cannot be read", async () => {
    const listed = orderOf({ id: 'o1', executions: [] });
    const fresh = orderOf({
      id: 'o1',
      status: 'fully_filled',
      executions: [execution('e1', 'o1', '2025-03-01T12:00:01Z')],
    });
    let fail = false;
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:all': () => [listed],
      'orders:get': () => {
        if (fail) throw new Error('The exchange did not answer. Try again in a moment.');
        return fresh;
      },
    });
    const browser = new OrderBrowser(fake.api, memory());
    await browser.start();
    await browser.open('o1');
    expect(browser.detail?.executions.map((e) => e.id)).toEqual(['e1']);
    fail = true;
    await browser.open('o1');
    expect(browser.detailError).toBe('The exchange did not answer. Try again in a moment.');
    // What the list held is still shown.
    expect(browser.detail?.id).toBe('o1');
  });

  it('exports through main and reports where the file went, or why not', async () => {
    let refuse = false;
    const fake = fakeApi({
      'market:markets': () => [],
      'orders:all': () => [orderOf()],
      'orders:exportCsv': () => {
        if (refuse) throw new Error('There are no fills to export with these filters.');
        return { fileName: 'countersign-orders-history-2025-03-01.csv', rows: 1 };
      },
    });
    const browser = new OrderBrowser(fake.api, memory());
    await browser.start();
    await browser.exportCsv('orders');
    expect(browser.notice).toEqual({
      kind: 'success',
      text: 'Saved 1 order to countersign-orders-history-2025-03-01.csv.',
    });
    expect(fake.calls.find((c) => c.channel === 'orders:exportCsv')?.request).toEqual({
      what: 'orders',
      view: 'history',
    });
    refuse = true;
    await browser.exportCsv('fills');
    expect(browser.notice).toEqual({
      kind: 'error',
      text: 'There are no fills to export with these filters.',
    });
    expect(browser.exporting).toBeNull();
  });

  it('follows open orders live and marks the history stale when orders change', async () => {
    const fake = fakeApi({ 'market:markets': () => [], 'orders:all': () => [] });
    const browser = new OrderBrowser(fake.api, memory());
    await browser.start();
    expect(browser.stale).toBe(false);
    fake.emit('orders:open', [orderOf()]);
    expect(browser.stale).toBe(true);
    await browser.show('open');
    fake.emit('orders:open', [orderOf({ side: 'buy' }), orderOf({ side: 'sell' })]);
    expect(browser.rowCount).toBe(2);
    await browser.filter({ side: 'sell' });
    fake.emit('orders:open', [orderOf({ side: 'buy' }), orderOf({ side: 'sell' })]);
    expect(browser.rowCount).toBe(1);
    browser.dispose();
    expect(fake.listeners('orders:open')).toBe(0);
  });
});
