import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, OrderRowsRequest } from '../../../../src-shared/contract';
import { frameOf, INFO } from '../testing/frame';
import WithApp from '../testing/WithApp.svelte';
import { ADA_USDM, fakeApi, NIGHT_USDM, orderOf } from '../trade/fake-api';
import OrdersView from './OrdersView.svelte';

/** The Orders screen in the frame's contexts, as the app renders it. */
const renderOrders = (api: Api) =>
  render(WithApp, { props: { app: frameOf(api), component: OrdersView, props: { api } } });

const TOTAL = 100_000;
const ROW = 28;

/** The `i`th order of a trader with 100,000 of them, newest first. */
const orderAt = (i: number) =>
  orderOf({
    id: `order-${i}`,
    side: i % 2 === 0 ? 'buy' : 'sell',
    status: 'fully_filled',
    price: '0.6400',
    baseQty: String(10 + i),
    executedBaseQty: String(10 + i),
    executedPrice: '0.6400',
    createdAt: new Date(Date.UTC(2025, 2, 1) - i * 60_000).toISOString(),
    executions: [
      {
        id: `fill-${i}`,
        orderId: `order-${i}`,
        accountId: null,
        counterPartyOrderId: 'maker-1',
        price: '0.6400',
        baseQty: String(10 + i),
        quoteQty: '6.4',
        commission: '0.01',
        commissionUnit: 'lovelace',
        role: 'maker',
        createdAt: '2025-03-01T12:00:00.000Z',
      },
    ],
  });

const setup = () => {
  const asked: OrderRowsRequest[] = [];
  /** While set, main's answers wait for it. */
  const gate: { until: Promise<void> | null } = { until: null };
  const fake = fakeApi({
    'market:markets': () => [ADA_USDM, NIGHT_USDM],
    'app:info': () => INFO,
    'session:status': () => ({ state: 'unlocked', walletName: 'Main' }),
    'orders:rows': async (request) => {
      const { offset, limit } = request as OrderRowsRequest;
      asked.push(request as OrderRowsRequest);
      await gate.until;
      const rows = Array.from({ length: Math.min(limit, TOTAL - offset) }, (_, k) => {
        const order = orderAt(offset + k);
        return { key: order.id, order, execution: null };
      });
      return { total: TOTAL, offset, version: 1, rows };
    },
    'orders:get': (request) => orderAt(Number((request as { orderId: string }).orderId.slice(6))),
  });
  renderOrders(fake.api);
  return { fake, asked, gate };
};

const textOf = (element: Element | null | undefined) => element?.textContent ?? '';
/**
 * What a row says to assistive technology: its cells' names (their texts are drawn on a
 * canvas, which this simulated page has not, and named in `aria-label`).
 */
const rowText = (row: Element | null | undefined) =>
  [...(row?.querySelectorAll('[role=gridcell]') ?? [])]
    .map((cell) => cell.getAttribute('aria-label') ?? cell.textContent)
    .join(' ');

const grid = () => screen.getByRole('grid', { name: 'Order history' });
const rowsInPage = () => within(grid()).getAllByRole('row').slice(1);

/** Whether the one "Reading…" over the view is shown (the rows in view are not read yet). */
const readingShown = () => grid().querySelector('.skim')?.classList.contains('on') ?? false;

const scrollTo = async (top: number) => {
  const element = grid();
  element.scrollTop = top;
  await fireEvent.scroll(element);
};

describe('the Orders table', () => {
  // The order history (the trader chose it before): the long list these tests scroll.
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('countersign.orders.view', 'history');
  });

  it('holds 100,000 orders with only the rows in view in the page', async () => {
    const { asked } = setup();
    await waitFor(() => expect(textOf(screen.getByRole('status'))).toContain('100,000 orders'));
    expect(grid().getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    const first = within(grid()).getByRole('row', { name: /Buy.*10\.0000.*Filled/ });
    expect(first.getAttribute('aria-rowindex')).toBe('2');
    expect(rowText(first)).toContain('ADA/USDM');
    expect(rowsInPage().length).toBeLessThan(40);
    // Main was asked for a screenful, never the list.
    expect(asked.every((r) => r.limit <= 100)).toBe(true);
  });

  it('shows rows far down once main answers, each row element staying with its record', async () => {
    const { asked } = setup();
    await waitFor(() => expect(rowText(rowsInPage()[0])).toContain('10.0000'));
    await scrollTo(ROW * 60_000);
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-60000'))).toContain('60,010.0000'),
    );
    expect(asked.at(-1)).toMatchObject({ offset: 59_950, read: 'held' });

    // The rows beside the view (the table draws a few either side) follow a frame later.
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-60003'))).toContain('60,013.0000'),
    );

    // One row further: the rows still drawn keep their elements and their text; the first of
    // the rows above the view leaves the page.
    const kept = document.getElementById('orders-row-60003');
    expect(document.getElementById('orders-row-59995')).not.toBeNull();
    await scrollTo(ROW * 60_001);
    expect(document.getElementById('orders-row-60003')).toBe(kept);
    expect(rowText(kept)).toContain('60,013.0000');
    expect(document.getElementById('orders-row-59995')).toBeNull();
  });

  it('sets no timer as the list scrolls (a timer a frame is garbage the collector pauses on)', async () => {
    setup();
    await waitFor(() => expect(rowText(rowsInPage()[0])).toContain('10.0000'));
    const timers = vi.spyOn(window, 'setTimeout');
    try {
      // A drag of the scrollbar, then a few rows at a time, and the frames after.
      for (let k = 1; k <= 10; k++) await scrollTo(ROW * 5_000 * k);
      for (let k = 1; k <= 10; k++) await scrollTo(ROW * (50_000 + k));
      for (let frame = 0; frame < 4; frame++) {
        await new Promise((done) => requestAnimationFrame(done));
      }
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
    // And the rows where it stopped are read and drawn.
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-50010'))).toContain('50,020.0000'),
    );
  });

  it('shows a screenful after a jump in the row elements already in the page', async () => {
    setup();
    await scrollTo(ROW * 50_000);
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-50000'))).toContain('50,010.0000'),
    );
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-50003'))).toContain('50,013.0000'),
    );
    const rows = rowsInPage();
    const cells = rows.map((row) => within(row).getAllByRole('gridcell'));

    await scrollTo(ROW * 80_000);
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-80003'))).toContain('80,013.0000'),
    );
    // The same elements, in the same order, down to the cells: only their text changed.
    expect(rowsInPage()).toEqual(rows);
    for (const [k, row] of rowsInPage().entries()) {
      expect(within(row).getAllByRole('gridcell')).toEqual(cells[k]);
    }
    expect(document.getElementById('orders-row-50000')).toBeNull();
    expect(rowText(document.getElementById('orders-row-80000'))).toContain('80,010.0000');
  });

  it('gives assistive technology the rows in list order, whatever the elements’ order', async () => {
    setup();
    await scrollTo(ROW * 40_000);
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-40003'))).toContain('40,013.0000'),
    );
    // A few rows down: the elements of rows that left show the rows that came, where they are.
    for (const row of [40_001, 40_002, 40_003]) await scrollTo(ROW * row);
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-40006'))).toContain('40,016.0000'),
    );
    const inPage = rowsInPage().map((row) => row.id);
    const body = within(grid()).getAllByRole('rowgroup')[1];
    const owned = body?.getAttribute('aria-owns')?.split(' ') ?? [];
    expect(owned).toEqual([...inPage].sort((a, b) => Number(a.slice(11)) - Number(b.slice(11))));
    expect(owned[0]).toBe('orders-row-39998');
    expect(owned).not.toEqual(inPage);
    for (const id of owned) {
      const index = Number(id.slice(11));
      expect(document.getElementById(id)?.getAttribute('aria-rowindex')).toBe(String(index + 2));
    }
  });

  it('says rows are being read until main answers, and moves no row there before', async () => {
    const { gate } = setup();
    // The rows beside the view too (they follow a frame after those in view).
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-5'))).toContain('15.0000'),
    );
    const rows = rowsInPage();
    let answer: () => void = () => undefined;
    gate.until = new Promise((resolve) => (answer = resolve));
    await scrollTo(ROW * 30_000);
    // Nothing in view is read yet (a drag of the scrollbar passes over thousands of such rows):
    // the grid is busy and says "Reading…" over the view; the row elements stay as they were.
    expect(grid().getAttribute('aria-busy')).toBe('true');
    expect(readingShown()).toBe(true);
    expect(rowsInPage()).toEqual(rows);
    expect(document.getElementById('orders-row-30000')).toBeNull();
    expect(document.getElementById('orders-row-0')).not.toBeNull();
    answer();
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-30000'))).toContain('30,010.0000'),
    );
    expect(document.getElementById('orders-row-30000')?.hasAttribute('aria-busy')).toBe(false);
    expect(readingShown()).toBe(false);
    expect(grid().getAttribute('aria-busy')).toBe('false');
  });

  it('opens a row’s order with its executions, from the mouse or the keyboard', async () => {
    setup();
    const second = () => document.getElementById('orders-row-1') as HTMLElement;
    await waitFor(() => expect(rowText(second())).toContain('11.0000'));
    // A click lands on a cell: the row it is in opens.
    await fireEvent.click(within(second()).getAllByRole('gridcell')[4] as HTMLElement);
    const detail = await screen.findByRole('region', { name: /Sell 11\.0000 ADA/ });
    expect(textOf(within(detail).getByRole('region', { name: /Executions/ }))).toContain('fill-1');

    // End goes to the last of the 100,000, which main is then asked for.
    grid().focus();
    await fireEvent.keyDown(grid(), { key: 'End' });
    expect(grid().getAttribute('aria-activedescendant')).toBe('orders-row-99999');
    // The table scrolled there (this DOM does not announce a scroll made from script).
    expect(grid().scrollTop).toBeGreaterThan(ROW * 99_000);
    await fireEvent.scroll(grid());
    await waitFor(() =>
      expect(rowText(document.getElementById('orders-row-99999'))).toContain('100,009.0000'),
    );
    await fireEvent.keyDown(grid(), { key: 'Enter' });
    expect(await screen.findByRole('region', { name: /Sell 100,009\.0000 ADA/ })).toBeTruthy();
  });

  it('follows open orders live, each row element moving with its order', async () => {
    localStorage.setItem('countersign.orders.view', 'open');
    const open = {
      version: 1,
      orders: [orderOf({ id: 'o-1', baseQty: '11' }), orderOf({ id: 'o-2', baseQty: '12' })],
    };
    const fake = fakeApi({
      'market:markets': () => [ADA_USDM],
      'session:status': () => ({ state: 'unlocked', walletName: 'Main' }),
      'orders:rows': (request) => {
        const { offset, limit } = request as OrderRowsRequest;
        const rows = open.orders.map((order) => ({ key: order.id, order, execution: null }));
        return {
          total: rows.length,
          offset,
          version: open.version,
          rows: rows.slice(offset, offset + limit),
        };
      },
    });
    renderOrders(fake.api);
    const table = () => screen.getByRole('grid', { name: 'Open orders' });
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(3));
    const second = document.getElementById('orders-row-1');
    expect(rowText(second)).toContain('12.0000');

    // A new order comes first: the element that showed o-2 shows it still, one row lower.
    open.orders = [orderOf({ id: 'o-3', baseQty: '13' }), ...open.orders];
    open.version = 2;
    fake.emit('orders:changed', { views: ['open'] });
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(4));
    expect(document.getElementById('orders-row-2')).toBe(second);
    expect(rowText(second)).toContain('12.0000');
    expect(rowText(document.getElementById('orders-row-0'))).toContain('13.0000');
    expect(textOf(screen.getByRole('status'))).toContain('3 orders');
  });
});
