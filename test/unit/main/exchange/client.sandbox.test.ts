import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialize } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { SandboxChain } from '../../../../src-main/chain';
import {
  ExchangeClient,
  ExchangeError,
  SandboxAdmin,
  type InputUtxo,
} from '../../../../src-main/exchange';
import { FakeClock } from '../../../fixtures/exchange/fake-clock';
import {
  call,
  readyCrypto,
  startTestSandbox,
  Trader,
  txId,
  USDM_UNIT,
  type TestSandbox,
} from '../../sandbox/helpers';

/**
 * The client against a real sandbox, for every endpoint of the seed and the real service's
 * extras: the flows of seed 4.4 end to end, signed with real keys, and the sandbox's refusals
 * and injected failures arriving as the typed errors the services act on.
 */

let sandbox: TestSandbox;
let admin: SandboxAdmin;
const clients: ExchangeClient[] = [];

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox();
  admin = new SandboxAdmin({ baseUrl: sandbox.url, adminToken: sandbox.adminToken });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await admin.close();
  await sandbox.close();
});

interface Account {
  trader: Trader;
  client: ExchangeClient;
}

const ADA = 1_000_000n;

/** A wallet with an account, coins from the faucet, and `ada`/`usdm` deposited through the client. */
const account = async (ada: bigint, usdm: bigint): Promise<Account> => {
  const trader = new Trader(sandbox.url);
  const opened = await admin.openAccount({
    address: trader.address,
    operationKeyHash: trader.operation.hash,
  });
  const client = new ExchangeClient(
    { baseUrl: sandbox.url, apiKey: opened.apiKey },
    { clock: new FakeClock() },
  );
  clients.push(client);
  if (ada > 0n) {
    await admin.faucet(trader.address, [
      { unit: 'lovelace', quantity: ada * ADA + 10n * ADA },
      ...(usdm > 0n ? [{ unit: USDM_UNIT, quantity: usdm * ADA }] : []),
    ]);
    const amounts = [
      { unit: 'lovelace', quantity: ada * ADA },
      ...(usdm > 0n ? [{ unit: USDM_UNIT, quantity: usdm * ADA }] : []),
    ];
    const built = await client.buildDeposit({
      amounts,
      inputUtxos: await admin.utxos(trader.address),
    });
    const signed = trader.wallet.sign(built.txHex);
    expect(await client.submitDeposit(signed)).toEqual({ txHash: txId(signed) });
  }
  return { trader, client };
};

const limit = (side: 'buy' | 'sell', quantity: string, price: string) => ({
  symbol: 'ADAUSDM',
  side,
  type: 'limit' as const,
  quantity: new Money(quantity),
  price: new Money(price),
});

const place = async (a: Account, req: Parameters<ExchangeClient['buildOrder']>[0]) => {
  const built = await a.client.buildOrder(req);
  return a.client.submitOrder({
    orderId: built.orderId,
    signedTx: a.trader.operation.sign(built.txHex),
  });
};

const balanceOf = async (a: Account, asset: string) => {
  const entry = (await a.client.balances()).find((b) => b.asset === asset);
  return entry ? { free: entry.free.toFixed(), locked: entry.locked.toFixed() } : undefined;
};

describe('the sandbox admin client', () => {
  it("reads the sandbox's network facts", async () => {
    const network = await admin.network();
    expect(network.networkId).toBe(0);
    expect(network.markets.map((m) => m.symbol)).toContain('ADAUSDM');
    expect(network.assets.find((a) => a.name === 'ADA')).toMatchObject({
      unit: 'lovelace',
      balanceUnit: '',
      decimals: 6,
    });
    expect(network.minOrderAdaEquivalent.toFixed()).toBe('5');
    expect(network.withdrawalFeeLovelace).toBe(1_000_000n);
  });

  it('pays from the faucet, and the sandbox chain sees exactly those coins', async () => {
    const trader = new Trader(sandbox.url);
    const paid = await admin.faucet(trader.address, [{ unit: 'lovelace', quantity: 25n * ADA }]);
    const viaAdmin = await admin.utxos(trader.address);
    const chain = new SandboxChain(async () => ({
      baseUrl: sandbox.url,
      adminToken: sandbox.adminToken,
    }));
    const viaChain = await chain.utxosAt(trader.address);
    await chain.close();
    expect(viaAdmin).toEqual([paid]);
    expect(viaChain).toEqual([paid]);
    expect(paid.output.amount).toEqual([{ unit: 'lovelace', quantity: '25000000' }]);
  });
});

describe('the flows of the seed, through the client', () => {
  it('deposits, with balances before and after', async () => {
    const a = await account(0n, 0n);
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '0', locked: '0' });
    await admin.faucet(a.trader.address, [{ unit: 'lovelace', quantity: 100n * ADA }]);
    const coins: InputUtxo[] = await admin.utxos(a.trader.address);
    const built = await a.client.buildDeposit({
      amounts: [{ unit: 'lovelace', quantity: 60n * ADA }],
      inputUtxos: coins,
    });
    const signed = a.trader.wallet.sign(built.txHex);
    expect((await a.client.submitDeposit(signed)).txHash).toBe(txId(signed));
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '60', locked: '0' });
  });

  it('places a limit order, lists it, reads it, cancels it', async () => {
    const a = await account(200n, 0n);
    const order = await place(a, limit('sell', '100', '0.7'));
    expect(serialize(order)).toMatchObject({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      status: 'open',
      price: '0.7',
      baseQty: '100',
      quoteQty: '70',
      lockedBaseQty: '100',
      executedBaseQty: '0',
      executedPrice: null,
      openBaseQty: '100',
      marketOrderLimitPrice: null,
      commissionRateBp: 10,
      executions: [],
    });
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '100', locked: '100' });

    const open = await a.client.orderRecords({ status: 'open' });
    expect(open.orders.map((o) => o.id)).toEqual([order.id]);
    expect(open.totalCount).toBe(1);
    expect(serialize(await a.client.order(order.id))).toEqual(serialize(order));

    const cancel = await a.client.buildCancel(order.id);
    const signed = a.trader.operation.sign(cancel.txHex);
    expect(await a.client.submitCancel(signed)).toEqual({ txHash: txId(signed) });
    expect((await a.client.order(order.id)).status).toBe('cancelled');
    expect((await a.client.orderRecords({ status: 'open' })).orders).toEqual([]);
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '200', locked: '0' });
  });

  it('fills against a resting order: executions on both sides, history, trades, candles', async () => {
    const maker = await account(300n, 0n);
    const taker = await account(10n, 300n);
    const resting = await place(maker, limit('sell', '50', '0.65'));
    const buy = await place(taker, limit('buy', '30', '0.66'));
    expect(serialize(buy)).toMatchObject({
      status: 'fully_filled',
      executedBaseQty: '30',
      executedQuoteQty: '19.5',
      executedPrice: '0.65',
      commission: '0.03',
      commissionUnit: 'lovelace',
      executions: [
        { counterPartyOrderId: resting.id, price: '0.65', baseQty: '30', role: 'taker' },
      ],
    });
    const makerSide = await maker.client.order(resting.id);
    expect(makerSide.status).toBe('partially_filled');
    expect(makerSide.executions.map((e) => e.role)).toEqual(['maker']);
    expect(makerSide.openBaseQty.toFixed()).toBe('20');

    const history = await taker.client.orderRecords({ status: 'tradingHistory' });
    expect(history.orders.map((o) => o.id)).toEqual([buy.id]);
    const closed = await taker.client.orderRecords({ status: 'orderHistory', symbol: 'ADAUSDM' });
    expect(closed.orders.map((o) => o.id)).toEqual([buy.id]);

    expect((await taker.client.marketPrice('ADAUSDM')).toFixed()).toBe('0.65');
    const trades = await taker.client.recentTrades('ADAUSDM', 10);
    expect(serialize(trades[0])).toMatchObject({
      symbol: 'ADAUSDM',
      side: 'buy',
      price: '0.65',
      amount: '30',
    });
    const now = Math.floor(Date.now() / 1000);
    const candles = await taker.client.candles('ADAUSDM', '5m', now - 3600, now + 60);
    expect(candles.length).toBeGreaterThan(0);
    expect(serialize(candles.at(-1))).toMatchObject({ close: '0.65' });
    const book = await taker.client.depth('ADAUSDM');
    expect(serialize(book.asks[0])).toEqual({ price: '0.65', quantity: '20' });
  });

  it('places market orders with and without a slippage limit', async () => {
    const maker = await account(400n, 0n);
    const taker = await account(10n, 500n);
    await place(maker, limit('sell', '100', '0.5'));
    await place(maker, limit('sell', '100', '0.6'));
    const limited = await place(taker, {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: new Money('150'),
      slippageBp: 500,
    });
    // only the 0.5 level is within 5 % of the best ask
    expect(serialize(limited)).toMatchObject({
      type: 'market',
      price: null,
      executedBaseQty: '100',
      slippageBp: 500,
    });
    const unlimited = await place(taker, {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'market',
      quantity: new Money('50'),
    });
    expect(serialize(unlimited)).toMatchObject({ status: 'fully_filled', executedPrice: '0.6' });
  });

  it('withdraws to the wallet on L1', async () => {
    const a = await account(50n, 0n);
    const before = await admin.utxos(a.trader.address);
    const built = await a.client.buildWithdrawal({
      amounts: [{ unit: 'lovelace', quantity: 20n * ADA }],
    });
    const signed = a.trader.wallet.sign(built.txHex);
    expect(await a.client.submitWithdrawal(signed)).toEqual({ txHash: txId(signed) });
    const after = await admin.utxos(a.trader.address);
    const arrived = after.filter((u) => !before.some((b) => b.input.tx_hash === u.input.tx_hash));
    expect(arrived.map((u) => u.output.amount)).toEqual([
      [{ unit: 'lovelace', quantity: '20000000' }],
    ]);
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '29', locked: '0' });
  });

  it('lists orders page by page', async () => {
    const a = await account(300n, 0n);
    const ids: string[] = [];
    for (const price of ['0.7', '0.71', '0.72'])
      ids.push((await place(a, limit('sell', '10', price))).id);
    const first = await a.client.orderRecords({ status: 'open', limit: 2, page: 1 });
    const second = await a.client.orderRecords({ status: 'open', limit: 2, page: 2 });
    expect([first.totalCount, first.totalPages, second.page]).toEqual([3, 2, 2]);
    expect([...first.orders, ...second.orders].map((o) => o.id).sort()).toEqual([...ids].sort());
  });
});

describe("the sandbox's refusals, as typed errors", () => {
  it.each([
    ['4050 not enough balance', limit('buy', '1000', '0.5'), 4050, /not enough free balance/],
    ['4100 below the minimum', limit('sell', '4.9999', '0.5'), 4100, /minimum size of 5 ADA/],
    [
      '4102 too many price decimals',
      limit('sell', '10', '0.60001'),
      4102,
      /at most 4 decimal places for the price/,
    ],
    [
      '4106 unknown market',
      { ...limit('sell', '10', '0.5'), symbol: 'XYZUSDM' },
      4106,
      /does not know this market/,
    ],
  ])('%s', async (_name, req, code, words) => {
    const a = await account(20n, 10n);
    const error = await a.client.buildOrder(req).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({
      failure: 'rejected',
      exchangeCode: code,
      httpStatus: 400,
      ambiguous: false,
    });
    expect((error as ExchangeError).message).toMatch(words);
  });

  it('a wrong API key (4010) says to check it in Settings', async () => {
    const c = new ExchangeClient({ baseUrl: sandbox.url, apiKey: 'f'.repeat(32) });
    clients.push(c);
    await expect(c.balances()).rejects.toMatchObject({
      exchangeCode: 4010,
      httpStatus: 401,
      message: expect.stringMatching(/Check the API key in Settings/),
    });
  });

  it('an endpoint the sandbox does not serve is the plain 404, in words', async () => {
    const a = await account(0n, 0n);
    await expect(a.client.operationKey()).rejects.toMatchObject({
      failure: 'no-such-route',
      httpStatus: 404,
    });
  });

  it('reads ride out 5002; a submit meeting 5000 is ambiguous and was not applied twice', async () => {
    const a = await account(100n, 0n);
    await call(sandbox.url, 'POST', '/sandbox/fail-next', { body: { code: 5002, count: 2 } });
    expect(await balanceOf(a, 'ADA')).toEqual({ free: '100', locked: '0' });

    const built = await a.client.buildOrder(limit('sell', '10', '0.8'));
    const signed = a.trader.operation.sign(built.txHex);
    await call(sandbox.url, 'POST', '/sandbox/fail-next', { body: { code: 5000, count: 1 } });
    const error = await a.client
      .submitOrder({ orderId: built.orderId, signedTx: signed })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exchangeCode: 5000, ambiguous: true });
    // the caller asks the server: nothing was placed, so submitting the same signed tx is safe
    expect((await a.client.orderRecords({ status: 'open' })).orders).toEqual([]);
    const order = await a.client.submitOrder({ orderId: built.orderId, signedTx: signed });
    expect(order.status).toBe('open');
    // and a second submit of the same transaction is refused as a duplicate (4302), not applied
    await expect(
      a.client.submitOrder({ orderId: built.orderId, signedTx: signed }),
    ).rejects.toMatchObject({
      exchangeCode: 4302,
      ambiguous: false,
    });
  });
});

describe('rate limits', () => {
  it("honours the sandbox's 429 and its reset, then succeeds", async () => {
    const limited = await startTestSandbox({ rateLimit: { max: 3, windowMs: 1_000 } });
    try {
      const limitedAdmin = new SandboxAdmin({
        baseUrl: limited.url,
        adminToken: limited.adminToken,
      });
      const trader = new Trader(limited.url);
      const opened = await limitedAdmin.openAccount({
        address: trader.address,
        operationKeyHash: trader.operation.hash,
      });
      await limitedAdmin.close();
      const c = new ExchangeClient(
        { baseUrl: limited.url, apiKey: opened.apiKey },
        { rateLimit: false },
      );
      clients.push(c);
      for (let i = 0; i < 5; i++) expect(await c.balances()).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});
