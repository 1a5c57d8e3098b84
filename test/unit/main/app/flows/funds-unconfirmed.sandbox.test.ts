import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FundsOverview,
  OperationResult,
  PreparedOperation,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * A deposit the exchange never credits is not followed for ever, and never reported as arrived:
 * three hours after it was sent it leaves the "on its way" list, and the trader is told it was not
 * seen to land. The exchange here credits deposits only after an hour; the app's clock is moved on.
 */
const HOUR = 3_600_000;
let world: AppWorld;
let shift = 0;

beforeAll(async () => {
  world = await appWorld({
    sandboxArgs: ['--confirmation-delay-ms', String(HOUR), '--no-takers'],
    pollEveryMs: 200,
    now: () => Date.now() + shift,
  });
  await world.joinAsVectorWallet();
}, 60_000);

afterAll(() => world?.dispose());

describe('a deposit that does not land', () => {
  it('is listed while it may still land, then dropped with a warning, never as credited', async () => {
    const prepared = await world.call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '100' }],
    });
    const done = await world.call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    const settled = () => world.events.filter((e) => e.name === 'funds:settled');

    shift = 2 * HOUR;
    const waiting = await world.call<Serialized<FundsOverview>>('funds:overview');
    expect(waiting.pending.map((p) => p.txHash)).toEqual([done.txHash]);
    expect(settled()).toEqual([]);

    shift = 3 * HOUR + 60_000;
    const after = await world.call<Serialized<FundsOverview>>('funds:overview');
    expect(after.pending).toEqual([]);
    expect(settled().map((e) => e.payload)).toEqual([
      { kind: 'deposit', txHash: done.txHash, title: prepared.title, outcome: 'unconfirmed' },
    ]);
    // Read again, it is not told twice.
    await world.call('funds:overview');
    expect(settled()).toHaveLength(1);
    // A deposit built, signed and sent on a loaded machine (the suite's files run side by side on
    // two cores) takes longer than the default 20 s: the time the other sandbox flows are given.
  }, 60_000);
});
