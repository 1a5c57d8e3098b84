import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../../../src-shared/contract/market';
import type { FundsOverview } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';

/**
 * The embedded sandbox is a separate process: if it dies, the app notices, says so, starts it
 * again from its own data and reconnects, without the trader doing anything. Before any of that,
 * the status bar knows whether the exchange answers even while nothing is unlocked.
 */
let world: AppWorld;

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers'], pollEveryMs: 200 });
}, 60_000);

afterAll(() => world?.dispose());

const states = (): ConnectionState[] =>
  world.events
    .filter((event) => event.name === 'exchange:connection')
    .map((event) => event.payload as ConnectionState);

describe('the embedded sandbox process', () => {
  it('is reported live before any wallet exists, and started again after it is killed', async () => {
    await world.until(
      async () => world.call<ConnectionState>('settings:connection'),
      (state) => state.state === 'live',
      'the exchange to be reported live with no wallet',
    );

    await world.joinAsVectorWallet();
    const before = await world.call<Serialized<FundsOverview>>('funds:overview');
    const first = await world.services.sandbox;
    if (!first) throw new Error('no embedded sandbox');
    process.kill(first.pid, 'SIGKILL');

    await world.until(
      async () => states(),
      (all) => all.some((state) => /stopped unexpectedly/.test(state.detail)),
      'the crash to be reported',
    );
    const again = await world.until(
      async () => world.services.dispatch('funds:overview', undefined),
      (answer) => answer.ok,
      'the exchange to answer again',
    );
    const second = await world.services.sandbox;
    expect(second?.pid).not.toBe(first.pid);
    // Same data, same account: what the exchange holds for this wallet is what it held before.
    expect(again.ok && (again.value as Serialized<FundsOverview>).exchange).toEqual(
      before.exchange,
    );
    expect(world.services.network.state().state).toBe('live');
  }, 90_000);
});
