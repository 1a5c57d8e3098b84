import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedSandbox, type EmbeddedSandbox } from '../../../../../src-main/exchange';
import { silentLogger } from '../../../../../src-main/log';
import { OperationJournal } from '../../../../../src-main/store/journal';
import type { OperationResult, PreparedOperation } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import type { Depth, Order } from '../../../../../src-shared/domain';
import { Money } from '../../../../../src-shared/money';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import {
  startAlteringProxy,
  type AlteringProxy,
} from '../../../../fixtures/exchange/altering-proxy';
import { sourceSandboxCommand } from '../../../../harness/sandbox-command';

/**
 * A market order's slippage limit is counted by the exchange from its best price when it builds
 * the order, while main narrows the limit it asks for from the book it read a moment before. Here
 * a proxy in front of a real sandbox shows main a book whose asks are lower than the exchange's
 * (as when the ask rises between main's read and the build), for as many reads as a test says.
 */
let sandbox: EmbeddedSandbox;
let proxy: AlteringProxy;
let world: AppWorld;
let folder: string;
/**
 * How the next reads of ADAUSDM's book lower its asks, one fraction a read (then it reads true);
 * `lowerEvery`: each read, for as long as it is set.
 */
let staleReads: Money[] = [];
let lowerEvery: Money | null = null;
/** Orders the exchange was asked to build. */
let builds = 0;

const lowered = (price: unknown, lowerBy: Money): unknown => {
  const moved = new Money(String(price))
    .times(new Money(1).minus(lowerBy))
    .toDecimalPlaces(6, Money.ROUND_DOWN);
  return typeof price === 'number' ? moved.toNumber() : moved.toFixed();
};
const lowerLevel =
  (lowerBy: Money) =>
  (level: unknown): unknown => {
    if (Array.isArray(level)) return [lowered(level[0], lowerBy), ...level.slice(1)];
    if (level && typeof level === 'object' && 'price' in level) {
      return { ...level, price: lowered(level.price, lowerBy) };
    }
    return level;
  };

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'countersign-moving-book-'));
  sandbox = await startEmbeddedSandbox({
    ...sourceSandboxCommand,
    args: [...sourceSandboxCommand.args, '--no-takers', '--confirmation-delay-ms', '100'],
    dataDir: folder,
    logger: silentLogger,
  });
  proxy = await startAlteringProxy(sandbox.url, ({ method, path, query }) => {
    if (method === 'POST' && path === '/order/build') builds += 1;
    if (path !== '/market/depth' || query.get('symbol') !== 'ADAUSDM') return null;
    const lowerBy = lowerEvery ?? staleReads.shift();
    if (!lowerBy) return null;
    return (body) =>
      body && typeof body === 'object' && 'asks' in body && Array.isArray(body.asks)
        ? { ...body, asks: body.asks.map(lowerLevel(lowerBy)) }
        : body;
  });
  world = await appWorld({
    sandboxAt: {
      url: proxy.url,
      ...(sandbox.adminToken ? { adminToken: sandbox.adminToken } : {}),
    },
  });
  await world.joinAsVectorWallet();
  await world.deposit([
    { unit: 'lovelace', amount: '3' },
    { unit: USDM, amount: '40' },
  ]);
}, 90_000);

afterAll(async () => {
  await world?.dispose();
  await proxy?.close();
  await sandbox?.stop();
  await rm(folder, { recursive: true, force: true });
});

const bestAsk = async (): Promise<Money> => {
  const depth = await world.call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
  return new Money(depth.asks[0]?.price ?? '0');
};

/** A market buy of 8 ADA within 1%, priced, as the trader saw it, on the book main reads. */
const marketBuy = (worstPrice: Money) => ({
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'market',
  quantity: '8',
  slippageBp: 100,
  worstPrice: worstPrice.toFixed(),
});

describe('a market order when the book moves between main’s read and the build', () => {
  it('is built again from the new best price, within the price the trader accepted', async () => {
    const seen = new Money(String(lowered((await bestAsk()).toFixed(), new Money('0.005'))));
    const worst = seen.times('1.01');
    staleReads = [new Money('0.005')];
    builds = 0;
    const prepared = await world.call<Serialized<PreparedOperation>>(
      'trading:prepareOrder',
      marketBuy(worst),
    );
    // The first build's limit, 1% over the exchange's ask, was past the accepted price: the
    // signer found the difference, main read the book again and asked for a narrower limit.
    expect(builds).toBe(2);
    expect(prepared.check).toEqual({ matches: true, differences: [], warnings: [] });
    // The journal holds the operation once, as its second build: the first one's entry is gone.
    const journal = await new OperationJournal(world.dataDir).list('sandbox');
    expect(journal.map((e) => [e.id, e.orderId])).toEqual([
      [prepared.operationId, prepared.summary.orderTerms?.orderId],
    ]);
    const result = await world.call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
    });
    const filled = await world.until(
      () => world.call<Serialized<Order>>('orders:get', { orderId: result.order?.id }),
      (o) => Number(o.executedBaseQty) > 0,
      'the market buy to trade',
    );
    expect(filled.slippageBp).toBeLessThanOrEqual(50);
    for (const execution of filled.executions) {
      expect(new Money(execution.price).lte(worst)).toBe(true);
    }
  });

  it('is built again each time a fast book moved during the build, twice at most', async () => {
    // The book the trader priced from, then one a moment later still below the exchange's, then
    // the exchange's own: the first two builds' limits pass the accepted price, the third's not.
    const seen = new Money(String(lowered((await bestAsk()).toFixed(), new Money('0.005'))));
    const worst = seen.times('1.01');
    staleReads = [new Money('0.005'), new Money('0.0025')];
    builds = 0;
    const prepared = await world.call<Serialized<PreparedOperation>>(
      'trading:prepareOrder',
      marketBuy(worst),
    );
    expect(builds).toBe(3);
    expect(prepared.check).toEqual({ matches: true, differences: [], warnings: [] });
    const journal = await new OperationJournal(world.dataDir).list('sandbox');
    expect(journal.filter((e) => e.id === prepared.operationId).map((e) => e.orderId)).toEqual([
      prepared.summary.orderTerms?.orderId,
    ]);
    await world.call('operations:discard', { operationId: prepared.operationId });
    // A book that keeps moving: after the third build the difference is shown, nothing more built.
    const priced = new Money(String(lowered((await bestAsk()).toFixed(), new Money('0.006'))));
    staleReads = [new Money('0.006'), new Money('0.005'), new Money('0.004'), new Money('0.003')];
    builds = 0;
    const moving = await world.call<Serialized<PreparedOperation>>(
      'trading:prepareOrder',
      marketBuy(priced.times('1.01')),
    );
    staleReads = [];
    expect(builds).toBe(3);
    expect(moving.check.matches).toBe(false);
    await world.call('operations:discard', { operationId: moving.operationId });
  });

  it('is refused in words when the new best price is past the accepted price', async () => {
    const seen = new Money(String(lowered((await bestAsk()).toFixed(), new Money('0.02'))));
    staleReads = [new Money('0.02')];
    builds = 0;
    const error = await world.refused('trading:prepareOrder', marketBuy(seen.times('1.01')));
    expect(builds).toBe(1);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(
      /^The best ask has risen to \d+\.\d{4} USDM, past the worst price you accepted for this order \(\d+\.\d{4} USDM\)\. Nothing was sent\./,
    );
  });

  it('is not built again when the exchange’s own book did not move: its limit is refused', async () => {
    // Every read shows the lower asks: the exchange builds from prices its book never showed.
    lowerEvery = new Money('0.005');
    const seen = await bestAsk();
    builds = 0;
    const prepared = await world.call<Serialized<PreparedOperation>>(
      'trading:prepareOrder',
      marketBuy(seen.times('1.01')),
    );
    lowerEvery = null;
    expect(builds).toBe(1);
    expect(prepared.check.matches).toBe(false);
    expect(prepared.check.differences.join(' ')).toMatch(/worse than the .* USDM you accept/);
    await world.call('operations:discard', { operationId: prepared.operationId });
  });
});
