import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunOperation } from '../operations/context';
import { connectionEvent } from '../testing/connection';
import { frameOf, INFO, SETTINGS } from '../testing/frame';
import WithApp from '../testing/WithApp.svelte';
import { ADA_USDM, depthOf, fakeApi, NIGHT_USDM, operationResult, orderOf } from './fake-api';
import TradeView from './TradeView.svelte';
import { createChart } from 'lightweight-charts';

vi.mock('lightweight-charts', () => {
  const series = () => ({
    setData: vi.fn(),
    update: vi.fn(),
    applyOptions: vi.fn(),
    priceScale: () => ({ applyOptions: vi.fn() }),
  });
  return {
    createChart: vi.fn(() => ({
      addSeries: vi.fn(series),
      applyOptions: vi.fn(),
      timeScale: () => ({ fitContent: vi.fn() }),
      remove: vi.fn(),
    })),
    createSeriesMarkers: () => ({ setMarkers: vi.fn() }),
    CandlestickSeries: {},
    HistogramSeries: {},
  };
});

const balances = (usdm = '1000') => ({
  exchange: [
    { asset: 'ADA', unit: 'lovelace', free: '500', locked: '0' },
    { asset: 'USDM', unit: 'c69b', free: usdm, locked: '0' },
  ],
  readAt: '2025-03-01T12:00:00Z',
  pending: [],
});

const answers = (overrides: Record<string, unknown> = {}) => ({
  'market:markets': () => [ADA_USDM, NIGHT_USDM],
  'settings:connection': () => ({ state: 'live', network: 'sandbox', detail: 'ok', since: 'x' }),
  'market:watch': () => null,
  'market:depth': (r: unknown) => depthOf((r as { symbol: string }).symbol),
  'market:ticker': (r: unknown) => ({
    symbol: (r as { symbol: string }).symbol,
    price: '0.65',
    // Main gives the 24 h change in percent of the price a day ago.
    change24h: '1.5625',
  }),
  'market:trades': () => [],
  'market:candles': () => [],
  'funds:overview': () => balances(),
  'orders:all': () => [],
  'orders:list': () => ({ orders: [], page: 1, limit: 100, totalCount: 0, totalPages: 0 }),
  'app:info': () => INFO,
  'session:status': () => ({ state: 'unlocked', walletName: 'Main' }),
  'settings:get': () => SETTINGS,
  'trading:preview': () => ({
    lock: { asset: 'USDM', amount: '65' },
    fee: { asset: 'ADA', amount: '0.1' },
    free: { asset: 'USDM', amount: '1000' },
    value: { asset: 'USDM', amount: '65' },
    worstPrice: null,
    problems: [],
  }),
  'trading:prepareOrder': () => ({ operationId: 'prepared' }),
  'trading:prepareCancel': () => ({ operationId: 'prepared' }),
  ...overrides,
});

const setup = (overrides: Record<string, unknown> = {}) => {
  const fake = fakeApi(answers(overrides) as Parameters<typeof fakeApi>[0]);
  // The fake runner runs the prepare call (as the real one does) and reports success.
  const run = vi.fn<RunOperation>(async (prepare) => {
    const prepared = await prepare();
    return prepared.ok ? operationResult() : null;
  });
  // In the frame's one truth (lock state, limits, markets, connection), as the app renders it.
  const app = frameOf(fake.api);
  render(WithApp, { props: { app, run, component: TradeView, props: { api: fake.api } } });
  return { fake, run };
};

const type = async (label: RegExp, text: string) => {
  const input = screen.getByRole('textbox', { name: label }) as HTMLInputElement;
  await fireEvent.input(input, { target: { value: text } });
  return input;
};
/** A key pressed where the focus is (it bubbles to the window, as a real one does). */
const press = (key: string, init: KeyboardEventInit = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
const valueOf = (label: RegExp) =>
  (screen.getByRole('textbox', { name: label }) as HTMLInputElement).value;

/** The market maker quotes anew: two asks at 0.66 and 0.67, a bid at 0.64 (every price moved). */
const requoted = () =>
  depthOf(
    'ADAUSDM',
    Date.now(),
    [
      ['0.6600', '5'],
      ['0.6700', '6'],
    ],
    [['0.6400', '7']],
  );

/** The levels of one side of the book as read: each row's price, amount and running total. */
const levels = (side: HTMLElement) =>
  within(side)
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent?.trim()),
    );

const lastCall = (fake: ReturnType<typeof fakeApi>, channel: string) =>
  fake.calls.filter((c) => c.channel === channel).at(-1)?.request;

describe('TradeView', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('shows the live book of the chosen market and takes a price from it', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: 'Ask 0.6526 USDM, 250.0000 ADA' });
    expect(screen.getByRole('region', { name: 'Order book' })).toBeTruthy();
    fake.emit('market:depth', depthOf('ADAUSDM', Date.now(), [['0.7000', '5']], [['0.6000', '7']]));
    await screen.findByRole('button', { name: 'Ask 0.7000 USDM, 5.0000 ADA' });
    expect(screen.queryByRole('button', { name: /^Ask 0.6526/ })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Bid 0.6000 USDM, 7.0000 ADA' }));
    expect(valueOf(/^Price/)).toBe('0.6000');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Quantity/ })),
    );
  });

  it('draws the chart so a wider window shows its candles wider, not an empty stretch', async () => {
    setup();
    await waitFor(() => expect(createChart).toHaveBeenCalled());
    expect(vi.mocked(createChart).mock.lastCall?.[1]?.timeScale).toMatchObject({
      lockVisibleTimeRangeOnResize: true,
    });
  });

  it('hands the chart only the candle a market trade moves, not every candle again', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bucket = now - (now % 900);
    const candle = (time: number, close: string) => ({
      time,
      open: '0.6400',
      high: '0.6600',
      low: '0.6300',
      close,
      volume: '100',
    });
    const { fake } = setup({
      'market:candles': () => [candle(bucket - 900, '0.6450'), candle(bucket, '0.6500')],
    });
    type Series = { setData: ReturnType<typeof vi.fn>; update: ReturnType<typeof vi.fn> };
    const candleSeries = () =>
      vi.mocked(createChart).mock.results.at(-1)?.value.addSeries.mock.results[0]?.value as
        Series | undefined;
    await waitFor(() => expect(candleSeries()?.setData.mock.lastCall?.[0]).toHaveLength(2));
    const fullDraws = candleSeries()?.setData.mock.calls.length;
    fake.emit('market:trades', {
      symbol: 'ADAUSDM',
      trades: [
        {
          timestamp: new Date(Date.now() + 1).toISOString(),
          symbol: 'ADAUSDM',
          side: 'buy',
          price: '0.6700',
          amount: '5',
        },
      ],
    });
    await waitFor(() =>
      expect(candleSeries()?.update).toHaveBeenLastCalledWith({
        time: bucket,
        open: 0.64,
        high: 0.67,
        low: 0.63,
        close: 0.67,
      }),
    );
    expect(candleSeries()?.setData.mock.calls.length).toBe(fullDraws);
  });

  it('shows the last price and its 24 h change in quote units and percent', async () => {
    setup();
    const change = (await screen.findByText('24h change')).nextElementSibling;
    // 0.65 after +1.5625 %: it was 0.6400 a day ago, a move of 0.0100 USDM.
    await waitFor(() =>
      expect(change?.textContent?.replace(/\s+/g, ' ')).toContain('+0.0100 (+1.56%)'),
    );
    expect(change?.classList.contains('up')).toBe(true);
  });

  it('places a limit order through the operation runner with what was typed', async () => {
    const { fake, run } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6513/ });
    await type(/^Price/, '0.65');
    await type(/^Quantity/, '100');
    const summary = screen.getByRole('group', { name: 'Order summary' });
    await waitFor(() => expect(summary.textContent).toContain('65.0000 USDM'));
    await fireEvent.click(screen.getByRole('button', { name: 'Buy ADA' }));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(lastCall(fake, 'trading:prepareOrder')).toEqual({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '100',
      price: '0.65',
    });
    await waitFor(() => expect(valueOf(/^Quantity/)).toBe(''));
  });

  it('refuses to send what it can already tell is wrong, and says why by the field', async () => {
    const { fake, run } = setup({ 'funds:overview': () => balances('10') });
    await screen.findByRole('button', { name: /^Ask 0.6513/ });
    await type(/^Price/, '0.65123');
    expect(
      await screen.findByText('The price takes at most 4 decimal places on this market.'),
    ).toBeTruthy();
    await type(/^Price/, '0.65');
    await type(/^Quantity/, '100');
    expect(
      await screen.findByText(
        'Not enough USDM: this order locks 65.0000 USDM and 10.0000 USDM is free.',
      ),
    ).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Buy ADA' }));
    expect(run).not.toHaveBeenCalled();
    expect(lastCall(fake, 'trading:prepareOrder')).toBeUndefined();
  });

  it('works from the keyboard: side, book focus, price from the book, send', async () => {
    const { fake, run } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6513/ });
    await press('s');
    expect((screen.getByRole('radio', { name: /Sell/ }) as HTMLInputElement).checked).toBe(true);
    await press('o');
    expect(document.activeElement?.getAttribute('aria-label')).toBe(
      'Ask 0.6513 USDM, 100.0000 ADA',
    );
    await press('ArrowDown');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Bid 0.6487/);
    await fireEvent.click(document.activeElement as HTMLElement);
    expect(valueOf(/^Price/)).toBe('0.6487');
    await type(/^Quantity/, '20');
    await press('Enter', { ctrlKey: true });
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(lastCall(fake, 'trading:prepareOrder')).toMatchObject({
      side: 'sell',
      price: '0.6487',
      quantity: '20',
    });
  });

  it('reads each side of the book to assistive technology as a table of levels', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6526/ });
    fake.emit('market:depth', requoted());
    await screen.findByRole('button', { name: 'Ask 0.6600 USDM, 5.0000 ADA' });
    const asks = screen.getByRole('table', { name: 'Asks: sell orders, lowest price last' });
    const bids = screen.getByRole('table', { name: 'Bids: buy orders, highest price first' });
    for (const side of [asks, bids]) {
      expect(
        within(side)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Price USDM', 'Amount ADA', 'Total ADA']);
    }
    // Each level a row of its price, its amount and the total up to it; asks highest first.
    expect(levels(asks)).toEqual([
      ['0.6700', '6.0000', '11.0000'],
      ['0.6600', '5.0000', '5.0000'],
    ]);
    expect(levels(bids)).toEqual([['0.6400', '7.0000', '7.0000']]);
  });

  it('groups the book by the price step the trader chooses, kept per market', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6526/ });
    const depth = () =>
      depthOf(
        'ADAUSDM',
        Date.now(),
        [
          ['0.6511', '5'],
          ['0.6519', '6'],
          ['0.6521', '1'],
        ],
        [
          ['0.6499', '7'],
          ['0.6491', '2'],
        ],
      );
    fake.emit('market:depth', depth());
    await screen.findByRole('button', { name: 'Ask 0.6511 USDM, 5.0000 ADA' });
    const group = screen.getByRole('combobox', { name: 'Group' });
    expect((group as HTMLSelectElement).value).toBe('0.0001');
    await fireEvent.change(group, { target: { value: '0.001' } });
    const asks = screen.getByRole('table', { name: 'Asks: sell orders, lowest price last' });
    const bids = screen.getByRole('table', { name: 'Bids: buy orders, highest price first' });
    // Asks at the step above them, bids at the step below: each group's price reaches all of it.
    await waitFor(() =>
      expect(levels(asks)).toEqual([
        ['0.653', '1.0000', '12.0000'],
        ['0.652', '11.0000', '11.0000'],
      ]),
    );
    expect(levels(bids)).toEqual([['0.649', '9.0000', '9.0000']]);
    // Live: the next depth event is grouped too.
    fake.emit('market:depth', depth());
    await fireEvent.click(
      screen.getByRole('button', { name: 'Asks up to 0.652 USDM, 11.0000 ADA' }),
    );
    expect(
      screen.getByRole('button', { name: 'Bids down to 0.649 USDM, 9.0000 ADA' }),
    ).toBeTruthy();
    expect(valueOf(/^Price/)).toBe('0.6520');
    expect(localStorage.getItem('countersign.trade.book-step.ADAUSDM')).toBe('0.001');
  });

  it('warns when the exchange sends a book whose best bid reaches its best ask', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6526/ });
    const book = screen.getByRole('region', { name: 'Order book' });
    expect(within(book).queryByRole('status')).toBeNull();
    fake.emit('market:depth', depthOf('ADAUSDM', Date.now(), [['0.6600', '5']], [['0.6700', '7']]));
    await waitFor(() =>
      expect(within(book).getByRole('status').textContent).toMatch(/crossed book/),
    );
    // Its levels are still shown, as sent.
    expect(screen.getByRole('button', { name: 'Bid 0.6700 USDM, 7.0000 ADA' })).toBeTruthy();
    fake.emit('market:depth', requoted());
    await waitFor(() => expect(within(book).queryByRole('status')).toBeNull());
  });

  it('keeps the keyboard in the book when the market maker quotes new prices', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6513/ });
    await press('o');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Ask 0.6513/);
    // Every price moves: the focused level's price is gone from the book.
    fake.emit('market:depth', requoted());
    await screen.findByRole('button', { name: 'Ask 0.6600 USDM, 5.0000 ADA' });
    const book = screen.getByRole('region', { name: 'Order book' });
    expect(book.contains(document.activeElement)).toBe(true);
    await press('ArrowDown');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Bid 0.6400 USDM, 7.0000 ADA');
  });

  it('never takes a shortcut letter typed into a field', async () => {
    setup();
    await screen.findByRole('button', { name: /^Ask 0.6513/ });
    screen.getByRole('textbox', { name: /^Quantity/ }).focus();
    await press('s');
    expect((screen.getByRole('radio', { name: /Buy/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('cancels an order by its button and the selected one with Delete', async () => {
    const orders = [orderOf({ id: 'order-a' }), orderOf({ id: 'order-b', side: 'sell' })];
    const { fake, run } = setup({ 'orders:all': () => orders });
    const table = await screen.findByRole('grid', { name: 'Open orders' });
    await fireEvent.click(
      within(table).getByRole('button', { name: 'Cancel Buy 100.0000 ADA at 0.6400' }),
    );
    await waitFor(() =>
      expect(lastCall(fake, 'trading:prepareCancel')).toEqual({ orderId: 'order-a' }),
    );

    const rows = within(table).getAllByRole('row');
    rows[2]?.focus();
    await press('Delete');
    await waitFor(() =>
      expect(lastCall(fake, 'trading:prepareCancel')).toEqual({ orderId: 'order-b' }),
    );
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('cancels all in main after a confirmation where orders skip the dialog, and reports the outcome', async () => {
    const orders = [orderOf({ id: 'a' }), orderOf({ id: 'b' })];
    const { fake, run } = setup({
      'orders:all': () => orders,
      'settings:get': () => ({ ...SETTINGS, skipOrderConfirmation: true }),
      'trading:cancelAll': () => ({
        cancelled: ['a'],
        failed: [{ orderId: 'b', message: 'The order already filled.' }],
      }),
    });
    await screen.findByRole('grid', { name: 'Open orders' });
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all on ADA/USDM' }));
    expect(lastCall(fake, 'trading:cancelAll')).toBeUndefined();
    await fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel all' }));
    expect(lastCall(fake, 'trading:cancelAll')).toEqual({ symbol: 'ADAUSDM' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Cancelled 1, 1 could not be cancelled (b: The order already filled.)',
    );
    expect(run).not.toHaveBeenCalled();
  });

  it('shows each cancel of a cancel all in the dialog where orders ask for it', async () => {
    const orders = [orderOf({ id: 'a' }), orderOf({ id: 'b' })];
    const { fake, run } = setup({ 'orders:all': () => orders });
    await screen.findByRole('grid', { name: 'Open orders' });
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all on ADA/USDM' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel all' }));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(2));
    expect(
      fake.calls.filter((c) => c.channel === 'trading:prepareCancel').map((c) => c.request),
    ).toEqual([{ orderId: 'a' }, { orderId: 'b' }]);
    expect(lastCall(fake, 'trading:cancelAll')).toBeUndefined();
    expect(await screen.findByText('Cancelled 2 open orders on ADA/USDM.')).toBeTruthy();
  });

  it('stops a cancel all at the cancel the trader turns down, and says what is still open', async () => {
    const orders = [orderOf({ id: 'a' }), orderOf({ id: 'b' }), orderOf({ id: 'c' })];
    const { fake, run } = setup({
      'orders:all': () => orders,
      // The order whose cancel was turned down is still open.
      'orders:get': ({ orderId }: { orderId: string }) => orderOf({ id: orderId }),
    });
    // The trader signs the first cancel and closes the dialog of the second.
    run.mockImplementationOnce(async (prepare) => {
      await prepare();
      return operationResult();
    });
    run.mockImplementationOnce(async () => null);
    await screen.findByRole('grid', { name: 'Open orders' });
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all on ADA/USDM' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel all' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Cancelled 1 of 3: a cancel was turned down or did not go through, so Countersign stopped there. 2 of your orders on ADA/USDM are still open',
    );
    expect(run).toHaveBeenCalledTimes(2);
    expect(lastCall(fake, 'trading:cancelAll')).toBeUndefined();
  });

  it('goes on with a cancel all past an order that filled before its cancel', async () => {
    const orders = [orderOf({ id: 'a' }), orderOf({ id: 'b' }), orderOf({ id: 'c' })];
    const { fake, run } = setup({
      'orders:all': () => orders,
      'orders:get': ({ orderId }: { orderId: string }) =>
        orderOf({ id: orderId, status: 'fully_filled' }),
    });
    // The exchange refuses the second cancel (the runner has said why): its order had filled.
    run.mockImplementationOnce(async (prepare) => {
      await prepare();
      return operationResult();
    });
    run.mockImplementationOnce(async (prepare) => {
      await prepare();
      return null;
    });
    await screen.findByRole('grid', { name: 'Open orders' });
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all on ADA/USDM' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel all' }));
    expect(
      await screen.findByText(
        'Cancelled 2 open orders on ADA/USDM; 1 more had already filled or closed, so it needed no cancel.',
      ),
    ).toBeTruthy();
    expect(
      fake.calls.filter((c) => c.channel === 'trading:prepareCancel').map((c) => c.request),
    ).toEqual([{ orderId: 'a' }, { orderId: 'b' }, { orderId: 'c' }]);
    expect(lastCall(fake, 'orders:get')).toEqual({ orderId: 'b' });
  });

  it('keeps the form but says why orders cannot be sent while the wallet is locked', async () => {
    const { fake } = setup({ 'session:status': () => ({ state: 'locked', walletName: 'Main' }) });
    expect(
      await screen.findByText(
        'Your wallet is locked. Unlock it with your spending password to place orders.',
      ),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Buy ADA' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fake.emit('session:changed', { state: 'unlocked', walletName: 'Main' });
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Buy ADA' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  });

  it('says the orders and fills wait for the unlock while locked, and reads them once unlocked', async () => {
    let locked = true;
    const { fake } = setup({
      'session:status': () => ({ state: 'locked', walletName: 'Main' }),
      'orders:all': () => (locked ? [] : [orderOf({ id: 'order-a' })]),
    });
    expect(
      await screen.findByText('Your wallet is locked. Unlock it to see your open orders here.'),
    ).toBeTruthy();
    expect(screen.queryByText(/could not be read/)).toBeNull();
    // No count it cannot know.
    expect(screen.getByRole('tab', { name: 'Open orders' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('tab', { name: /Your fills/i }));
    expect(
      await screen.findByText('Your wallet is locked. Unlock it to see your fills here.'),
    ).toBeTruthy();
    expect(screen.queryByText(/No fills yet/)).toBeNull();

    locked = false;
    fake.emit('session:changed', { state: 'unlocked', walletName: 'Main' });
    await fireEvent.click(screen.getByRole('tab', { name: /Open orders/i }));
    const table = await screen.findByRole('grid', { name: 'Open orders' });
    expect(
      within(table).getByRole('button', { name: 'Cancel Buy 100.0000 ADA at 0.6400' }),
    ).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Open orders (1)' })).toBeTruthy();
  });

  it('switches market and watches the new one', async () => {
    const { fake } = setup();
    const picker = await screen.findByRole('combobox', { name: 'Market' });
    await screen.findByRole('option', { name: 'NIGHT/USDM' });
    await fireEvent.change(picker, { target: { value: 'NIGHTUSDM' } });
    await waitFor(() => expect(lastCall(fake, 'market:watch')).toEqual({ symbol: 'NIGHTUSDM' }));
    expect(await screen.findByRole('button', { name: 'Buy NIGHT' })).toBeTruthy();
  });

  it('marks the book as not updating and holds the order form while the exchange is unreachable', async () => {
    const { fake } = setup();
    await screen.findByRole('button', { name: /^Ask 0.6526/ });
    const book = screen.getByRole('region', { name: 'Order book' });
    fake.emit(
      'exchange:connection',
      connectionEvent('polling', 'No live updates: the connection was refused. Retrying in 4 s.'),
    );
    await waitFor(() =>
      expect(within(book).getByRole('status').textContent).toBe(
        'Live updates are down: the book is refreshed every few seconds.',
      ),
    );
    fake.emit(
      'exchange:connection',
      connectionEvent(
        'offline',
        'Countersign could not reach the exchange: the connection was refused.',
      ),
    );
    await waitFor(() =>
      expect(within(book).getByRole('status').textContent).toBe(
        'Not updating: no connection to the exchange. These prices may be out of date.',
      ),
    );
    // The levels it last had stay in view; the order form says why nothing can be sent.
    expect(within(book).getByRole('button', { name: /^Ask 0.6526/ })).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Buy ADA' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(screen.getByRole('form', { name: /order/i }).textContent).toContain(
      'No connection to the exchange: orders can be placed again once it is back.',
    );
    await type(/^Price/, '0.6500');
    await type(/^Quantity/, '10');
    await press('Enter', { ctrlKey: true });
    expect(fake.calls.filter((c) => c.channel === 'trading:prepareOrder')).toEqual([]);
    fake.emit('exchange:connection', connectionEvent('live', 'Live.'));
    await waitFor(() => expect(within(book).queryByRole('status')).toBeNull());
    expect(send.disabled).toBe(false);
    await press('Enter', { ctrlKey: true });
    await waitFor(() => expect(lastCall(fake, 'trading:prepareOrder')).toBeDefined());
  });

  it('says plainly when the markets cannot be read, and tries again on request', async () => {
    let fail = true;
    setup({
      'market:markets': () => {
        if (fail) throw new Error('The exchange did not answer. Check your connection.');
        return [ADA_USDM];
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The exchange did not answer. Check your connection.');
    fail = false;
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /^Ask 0.6513/ })).toBeTruthy();
  });
});
