import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FundsOverview,
  OperationProgress,
  OperationResult,
  OrderRows,
  PreparedOperation,
  WalletBalance,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import type { Depth, Order, OrderPage } from '../../../../../src-shared/domain';
import { Money } from '../../../../../src-shared/money';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * Every flow of the seed (section 4.4) through the same composition and dispatcher the app uses,
 * against a real embedded sandbox process: deposit, balances before and after, a limit order that
 * fills against the market maker, market orders with and without a slippage limit, cancel, cancel
 * all, withdraw, order lists by status with paging, and one order with its executions.
 */
let world: AppWorld;
/** The desktop notifications main sent (Electron shows them while the window is not focused). */
const notified: Array<{ title: string; body: string }> = [];
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);
const refused = (channel: string, payload?: unknown) => world.refused(channel, payload);
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
  world.until(read, done, what);

/** What main told the renderer of this deposit or withdrawal leaving the "on its way" list. */
const settledOf = (txHash: string) =>
  world.events
    .filter((e) => e.name === 'funds:settled')
    .map((e) => e.payload as { txHash: string })
    .filter((p) => p.txHash === txHash);

/** Prepares, checks that main found no difference, and confirms: what the dialog does. */
const run = async (
  channel: string,
  payload: unknown,
  password?: string,
): Promise<Serialized<OperationResult>> => {
  const prepared = await call<Serialized<PreparedOperation>>(channel, payload);
  expect(prepared.check).toEqual({ matches: true, differences: [], warnings: [] });
  return call<Serialized<OperationResult>>('operations:confirm', {
    operationId: prepared.operationId,
    ...(password ? { password } : {}),
  });
};

const free = (overview: Serialized<FundsOverview>, unit: string): number =>
  Number(overview.exchange.find((b) => b.unit === unit)?.free ?? '0');

beforeAll(async () => {
  world = await appWorld({
    sandboxArgs: ['--confirmation-delay-ms', '100', '--withdrawal-delay-ms', '100', '--no-takers'],
    pollEveryMs: 200,
    notify: (title, body) => notified.push({ title, body }),
  });
  await world.joinAsVectorWallet();
}, 60_000);

afterAll(() => world?.dispose());

describe('every flow of the seed through the app', () => {
  it('deposit: the wallet is funded on L1, coins are picked, the balance rises by exactly the amount', async () => {
    const wallet = await call<WalletBalance>('funds:wallet');
    expect(wallet.assets.find((a) => a.name === 'ADA')?.amount).toBe('10000');
    const before = await call<Serialized<FundsOverview>>('funds:overview');
    expect(free(before, 'lovelace')).toBe(0);

    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [
        { unit: 'lovelace', amount: '2000' },
        { unit: USDM, amount: '2000' },
      ],
    });
    expect(prepared.needsPassword).toBe(true);
    expect(prepared.check.matches).toBe(true);
    expect(prepared.summary.outputs.some((o) => o.party === 'exchange-deposit')).toBe(true);
    expect((await refused('operations:confirm', { operationId: prepared.operationId })).code).toBe(
      'WRONG_PASSWORD',
    );
    const done = await call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    expect(done.txHash).toMatch(/^[0-9a-f]{64}$/);
    const after = await until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => free(o, 'lovelace') === 2000 && free(o, USDM) === 2000 && o.pending.length === 0,
      'the deposit to be credited',
    );
    expect(free(after, 'lovelace') - free(before, 'lovelace')).toBe(2000);
    // The trader is told once that it landed, whatever screen is open.
    expect(settledOf(done.txHash ?? '')).toEqual([
      { kind: 'deposit', txHash: done.txHash, title: prepared.title, outcome: 'landed' },
    ]);
    const steps = world.events
      .filter((e) => e.name === 'operations:progress')
      .map((e) => e.payload as OperationProgress)
      .filter((p) => p.operationId === prepared.operationId)
      .map((p) => p.step);
    expect(steps).toEqual(
      expect.arrayContaining([
        'building',
        'checking',
        'awaiting-confirmation',
        'signing',
        'journaled',
        'submitting',
        'done',
      ]),
    );
  });

  it('a limit buy above the best ask fills against the market maker, with its execution records', async () => {
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    const ask = depth.asks[0];
    expect(ask).toBeDefined();
    // A little above the ask, so a requote by the market maker meanwhile cannot leave it resting.
    const limit = new Money(ask?.price ?? '0').times('1.01').toDecimalPlaces(4);
    const result = await run('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '10',
      price: limit.toFixed(4),
    });
    const order = await until(
      () => call<Serialized<Order>>('orders:get', { orderId: result.order?.id }),
      (o) => o.status === 'fully_filled',
      'the order to fill',
    );
    expect(order.executions.length).toBeGreaterThan(0);
    // The screens hear of the fill (and a desktop notice may go out), even though the order
    // traded as it was placed and never showed in the open list.
    await until(
      async () => world.events,
      (events) =>
        events.some(
          (event) =>
            event.name === 'orders:filled' &&
            (event.payload as { order: { id: string } }).order.id === result.order?.id,
        ),
      'the fill event',
    );
    // The desktop notice says it in the market's units, its price as the book shows prices.
    await until(
      async () => notified,
      (notes) => notes.some((n) => n.body.startsWith('Bought 10 of 10 ADA at ')),
      'the desktop notice',
    );
    expect(notified.find((n) => n.body.startsWith('Bought 10 of 10'))?.body).toMatch(
      /^Bought 10 of 10 ADA at \d+\.\d{4} USDM\.$/,
    );
    for (const execution of order.executions) {
      expect(execution.role).toBe('taker');
      // A buy never pays more than its limit.
      expect(new Money(execution.price).lte(limit)).toBe(true);
    }
    expect(Number(order.executedBaseQty)).toBe(10);
  });

  it('market orders, with and without a slippage limit', async () => {
    const sell = await run('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'market',
      quantity: '6',
    });
    expect(sell.order?.type).toBe('market');
    const buy = await run('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: '6',
      slippageBp: 200,
    });
    const filled = await until(
      () => call<Serialized<Order>>('orders:get', { orderId: buy.order?.id }),
      (o) => Number(o.executedBaseQty) > 0,
      'the market buy to trade',
    );
    // The limit asked for is the trader's, unless the ask rose in the moment between main's two
    // reads of the book (the test after this one).
    expect(filled.slippageBp).toBeGreaterThan(0);
    expect(filled.slippageBp).toBeLessThanOrEqual(200);
  });

  /** Every order the account has sent, open or not. */
  const ordersSent = async () => {
    const [open, history] = await Promise.all(
      (['open', 'history'] as const).map((view) =>
        call<Serialized<OrderPage>>('orders:list', { view, page: 1, limit: 1 }),
      ),
    );
    return (open?.totalCount ?? 0) + (history?.totalCount ?? 0);
  };
  const bestAsk = async () => {
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    return new Money(depth.asks[0]?.price ?? '0');
  };

  it('a market buy keeps to the worst price the trader saw, though the ask has risen since', async () => {
    // As if the trader's preview was priced on an ask 0.4% lower than now: 1% over that is
    // 0.6% over the ask now. The exchange counts its limit from its own best ask, so main asks
    // it for no more than that 0.6%.
    const seen = (await bestAsk()).times('1.006').toDecimalPlaces(6, Money.ROUND_DOWN);
    const buy = await run('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: '8',
      slippageBp: 100,
      worstPrice: seen.toFixed(),
    });
    const filled = await until(
      () => call<Serialized<Order>>('orders:get', { orderId: buy.order?.id }),
      (o) => Number(o.executedBaseQty) > 0,
      'the market buy to trade',
    );
    expect(filled.slippageBp).toBeLessThanOrEqual(60);
    for (const execution of filled.executions) {
      expect(new Money(execution.price).lte(seen)).toBe(true);
    }
  });

  it('a market buy whose worst price the ask has passed is refused before anything is sent', async () => {
    const before = await ordersSent();
    const ask = await bestAsk();
    const error = await refused('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: '8',
      slippageBp: 100,
      worstPrice: ask.times('0.99').toDecimalPlaces(6).toFixed(),
    });
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(
      /^The best ask has risen to \d+\.\d{4} USDM, past the worst price you accepted for this order \(\d+\.\d{4} USDM\)\. Nothing was sent\. Check the new worst price and send the order again\.$/,
    );
    expect(await ordersSent()).toBe(before);
  });

  it('cancel one resting order, then cancel all of the market', async () => {
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    // Typed with two decimals; named with the four the market's prices have, as its fills are.
    const low = (Number(depth.bids[0]?.price ?? '0.5') * 0.8).toFixed(2);
    const placed: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const result = await run('trading:prepareOrder', {
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: '20',
        price: low,
      });
      expect(result.title).toBe(`Buy 20 ADA at ${new Money(low).toFixed(4)} USDM`);
      placed.push(result.order?.id ?? '');
    }
    const open = await call<Serialized<OrderPage>>('orders:list', {
      view: 'open',
      page: 1,
      limit: 250,
    });
    expect(open.orders.map((o) => o.id)).toEqual(expect.arrayContaining(placed));

    // The cancel is named in the order's own words, as its placing was.
    const cancel = await call<Serialized<PreparedOperation>>('trading:prepareCancel', {
      orderId: placed[0],
    });
    expect(cancel.title).toBe(`Cancel buy 20 ADA at ${new Money(low).toFixed(4)} USDM`);
    expect(cancel.check).toEqual({ matches: true, differences: [], warnings: [] });
    await call('operations:confirm', { operationId: cancel.operationId });
    expect((await call<Serialized<Order>>('orders:get', { orderId: placed[0] })).status).toBe(
      'cancelled',
    );

    const all = await call<{ cancelled: string[]; failed: unknown[] }>('trading:cancelAll', {
      symbol: 'ADAUSDM',
    });
    expect(all.failed).toEqual([]);
    expect(all.cancelled).toEqual(expect.arrayContaining(placed.slice(1)));
    const left = await call<Serialized<OrderPage>>('orders:list', {
      view: 'open',
      page: 1,
      limit: 250,
    });
    expect(left.orders.filter((o) => o.symbol === 'ADAUSDM')).toEqual([]);
  });

  it('order lists by every view and status, with paging', async () => {
    const history = await call<Serialized<OrderPage>>('orders:list', {
      view: 'history',
      page: 1,
      limit: 2,
    });
    expect(history.totalCount).toBeGreaterThanOrEqual(5);
    expect(history.orders).toHaveLength(2);
    const page2 = await call<Serialized<OrderPage>>('orders:list', {
      view: 'history',
      page: 2,
      limit: 2,
    });
    expect(page2.orders.map((o) => o.id)).not.toEqual(history.orders.map((o) => o.id));
    const cancelled = await call<Serialized<OrderPage>>('orders:list', {
      view: 'history',
      status: 'cancelled',
      page: 1,
      limit: 50,
    });
    expect(cancelled.orders.length).toBe(3);
    expect(cancelled.orders.every((o) => o.status === 'cancelled')).toBe(true);
    const sells = await call<Serialized<OrderRows>>('orders:rows', {
      view: 'history',
      side: 'sell',
      offset: 0,
      limit: 50,
    });
    expect(sells.rows.every((row) => row.order.side === 'sell')).toBe(true);
    expect(sells.total).toBe(sells.rows.length);
    const fills = await call<Serialized<OrderRows>>('orders:rows', {
      view: 'trades',
      offset: 0,
      limit: 50,
    });
    expect(fills.total).toBeGreaterThan(0);
    expect(fills.rows.every((row) => row.key === `${row.order.id}:${row.execution?.id}`)).toBe(
      true,
    );
    // A row carries what its line shows; the whole record, with its executions, main gives
    // without asking the exchange again.
    const [fill] = fills.rows;
    expect(fill?.order).not.toHaveProperty('executions');
    const whole = await call<Serialized<Order> | null>('orders:held', { orderId: fill?.order.id });
    expect(whole?.executions.map((e) => e.id)).toContain(fill?.execution?.id);
    const trades = await call<Serialized<OrderPage>>('orders:list', {
      view: 'trades',
      page: 1,
      limit: 50,
    });
    expect(trades.orders.every((o) => Number(o.executedBaseQty) > 0)).toBe(true);
  });

  it('withdraw: the payout reaches the wallet on L1 and leaves the pending list', async () => {
    const before = await call<Serialized<FundsOverview>>('funds:overview');
    const result = await run(
      'funds:prepareWithdrawal',
      { amounts: [{ unit: 'lovelace', amount: '10' }] },
      STRONG_PASSWORD,
    );
    expect(result.txHash).toMatch(/^[0-9a-f]{64}$/);
    const after = await until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => o.pending.length === 0,
      'the withdrawal to land',
    );
    // 10 ADA out, and the 1 ADA withdrawal fee on top.
    expect(free(before, 'lovelace') - free(after, 'lovelace')).toBeCloseTo(11, 6);
    expect(settledOf(result.txHash ?? '')).toEqual([
      { kind: 'withdrawal', txHash: result.txHash, title: 'Withdraw 10 ADA', outcome: 'landed' },
    ]);
    const wallet = await call<WalletBalance>('funds:wallet');
    expect(wallet.utxoCount).toBeGreaterThan(0);
  });

  it('below-minimum and insufficient-balance orders are refused with figures, before anything is built', async () => {
    const small = await refused('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: '1',
      price: '0.5',
    });
    expect(small.message).toMatch(/smallest order is 5 ADA/);
    const big = await refused('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: '999999',
      price: '0.5',
    });
    expect(big.message).toMatch(/Not enough free ADA: 999999.00 needed/);
  });

  it('orders sent as fast as the trader clicks all land: the next is built once the last has', async () => {
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    const low = new Money(depth.bids[0]?.price ?? '0.5').times('0.7').toDecimalPlaces(4);
    const order = (price: Money) => ({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '10',
      price: price.toFixed(4),
    });
    const first = await call<Serialized<PreparedOperation>>('trading:prepareOrder', order(low));
    // Confirmed, and the next order asked for while the first is still being signed and sent.
    const firstDone = call<Serialized<OperationResult>>('operations:confirm', {
      operationId: first.operationId,
    });
    const second = await call<Serialized<PreparedOperation>>(
      'trading:prepareOrder',
      order(low.minus('0.0001')),
    );
    const results = await Promise.all([
      firstDone,
      call<Serialized<OperationResult>>('operations:confirm', { operationId: second.operationId }),
    ]);
    const ids = results.map((r) => r.order?.id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('an order confirmed twice at once (a double click, a script) is placed once', async () => {
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    const low = new Money(depth.bids[0]?.price ?? '0.5').times('0.8').toDecimalPlaces(4);
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '20',
      price: low.toFixed(4),
    });
    const confirm = { operationId: prepared.operationId };
    const answers = await Promise.all([
      world.services.dispatch('operations:confirm', confirm),
      world.services.dispatch('operations:confirm', confirm),
    ]);
    const placed = answers.filter((a) => a.ok);
    const refusals = answers.flatMap((a) => (a.ok ? [] : [a.error.message]));
    expect(placed).toHaveLength(1);
    expect(refusals).toEqual([expect.stringMatching(/already being signed and sent/)]);
    const open = await call<Serialized<OrderPage>>('orders:list', {
      view: 'open',
      page: 1,
      limit: 250,
    });
    expect(open.orders.filter((o) => o.price !== null && new Money(o.price).eq(low))).toHaveLength(
      1,
    );
    expect(await call('operations:pending')).toEqual([]);
  });
});
