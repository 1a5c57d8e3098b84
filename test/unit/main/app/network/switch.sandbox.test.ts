import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SandboxAdmin,
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from '../../../../../src-main/exchange';
import { silentLogger } from '../../../../../src-main/log';
import type {
  FundsOverview,
  OperationResult,
  PreparedOperation,
  SessionStatus,
  Settings,
  WalletAddresses,
  WalletList,
} from '../../../../../src-shared/contract';
import type { Depth, OrderPage } from '../../../../../src-shared/domain';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { sourceSandboxCommand } from '../../../../harness/sandbox-command';
import { USDM, appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * Switching networks at run time: the app on its embedded sandbox with a resting order, then on a
 * second exchange (a self-hosted one, reached as a Custom network), then back. Nothing of one
 * network may show on the other: not its orders, balances, API key or live events.
 */
let world: AppWorld;
let other: EmbeddedSandbox;
let otherDir: string;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

const openOrderIds = async (): Promise<string[]> =>
  (
    await call<Serialized<OrderPage>>('orders:list', { view: 'open', page: 1, limit: 250 })
  ).orders.map((order) => order.id);

beforeAll(async () => {
  otherDir = await mkdtemp(join(tmpdir(), 'countersign-switch-other-'));
  other = await startEmbeddedSandbox({
    command: sourceSandboxCommand.command,
    args: [...sourceSandboxCommand.args, '--no-market-maker', '--no-takers'],
    dataDir: otherDir,
    logger: silentLogger,
  });
  world = await appWorld({
    sandboxArgs: ['--no-takers', '--confirmation-delay-ms', '100'],
    pollEveryMs: 200,
  });
  await world.joinAsVectorWallet();
}, 90_000);

afterAll(async () => {
  await world?.dispose();
  await other?.stop();
  await rm(otherDir, { recursive: true, force: true });
});

describe('switching the network at run time', () => {
  it('shows nothing of one exchange on another, and everything again on the way back', async () => {
    // On the sandbox: a deposit, then a resting buy far below the market.
    await world.deposit([
      { unit: 'lovelace', amount: '5' },
      { unit: USDM, amount: '500' },
    ]);
    const depth = await call<Serialized<Depth>>('market:depth', { symbol: 'ADAUSDM' });
    const low = (Number(depth.bids[0]?.price ?? '0.5') * 0.7).toFixed(4);
    const prepared = await call<Serialized<PreparedOperation>>('trading:prepareOrder', {
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: '20',
      price: low,
    });
    const placed = await call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
    });
    const orderId = placed.order?.id ?? '';
    expect(await openOrderIds()).toContain(orderId);
    const sandboxBalances = (await call<Serialized<FundsOverview>>('funds:overview')).exchange;
    expect(sandboxBalances.length).toBeGreaterThan(0);
    const { activeWalletId } = await call<WalletList>('wallet:list');
    const sandboxKey = (await call<WalletList>('wallet:list')).wallets[0]?.apiKey;
    expect(sandboxKey).toMatch(/^••••/);

    // The other exchange knows this wallet under its own account and key.
    const { baseAddress } = await call<WalletAddresses>('wallet:addresses', {
      walletId: activeWalletId,
    });
    const summary = (await call<WalletList>('wallet:list')).wallets[0];
    const admin = new SandboxAdmin({
      baseUrl: other.url,
      ...(other.adminToken ? { adminToken: other.adminToken } : {}),
    });
    const account = await admin.openAccount({
      address: baseAddress,
      operationKeyHash: summary?.operationKeyHash ?? '',
    });
    await admin.close();

    const switchedAt = world.events.length;
    const settings = await call<Settings>('settings:setNetwork', {
      network: { name: 'custom', baseUrl: other.url, networkId: 0 },
    });
    expect(settings.network).toEqual({ name: 'custom', baseUrl: other.url, networkId: 0 });
    // API keys are per network: the session locked and this network has no key yet.
    expect(await call<SessionStatus>('session:status')).toMatchObject({
      state: 'locked',
      lockReason: 'network-changed',
    });
    expect((await call<WalletList>('wallet:list')).wallets[0]?.apiKey).toBeNull();
    await call('session:unlock', { password: STRONG_PASSWORD });
    await call('wallet:setApiKey', {
      walletId: activeWalletId,
      apiKey: account.apiKey,
      password: STRONG_PASSWORD,
    });

    expect(await openOrderIds()).toEqual([]);
    const history = await call<Serialized<OrderPage>>('orders:list', {
      view: 'history',
      page: 1,
      limit: 250,
    });
    expect(history.orders.map((o) => o.id)).not.toContain(orderId);
    expect(
      (await call<{ id: string }[]>('operations:pending')).map((pending) => pending.id),
    ).toEqual([]);
    const otherBalances = (await call<Serialized<FundsOverview>>('funds:overview')).exchange;
    expect(otherBalances).not.toEqual(sandboxBalances);
    expect(otherBalances.every((balance) => balance.locked === '0')).toBe(true);

    // Live feeds of the old network are closed: nothing it says reaches the screens any more.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = world.events.slice(switchedAt);
    // Named on failure: which event carried the old network's order.
    expect(
      after
        .filter((event) => JSON.stringify(event.payload).includes(orderId))
        .map((event) => event.name),
    ).toEqual([]);
    expect(
      after.some(
        (event) =>
          event.name === 'exchange:connection' && JSON.stringify(event.payload).includes('Custom'),
      ),
    ).toBe(true);

    // Back on the sandbox (restarted from its own data): the order and the key are still there.
    await call('settings:setNetwork', { network: { name: 'sandbox' } });
    expect((await call<WalletList>('wallet:list')).wallets[0]?.apiKey).toBe(sandboxKey);
    await call('session:unlock', { password: STRONG_PASSWORD });
    expect(await openOrderIds()).toContain(orderId);
    const restarted = await call<Serialized<FundsOverview>>('funds:overview');
    expect(restarted.exchange).toEqual(sandboxBalances);
    // Settings hold the choice the app starts with next time.
    expect((await call<Settings>('settings:get')).network).toEqual({ name: 'sandbox' });
  }, 120_000);
});
