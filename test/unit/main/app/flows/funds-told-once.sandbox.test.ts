import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EmitEvent,
  OperationResult,
  PreparedOperation,
  WalletBalance,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { Money } from '../../../../../src-shared/money';
import { FundsService } from '../../../../../src-main/app/funds/service';
import { PendingFundsStore } from '../../../../../src-main/app/funds/pending-store';
import type { ChainLookup } from '../../../../../src-main/chain';
import { WalletBook } from '../../../../../src-main/wallet';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * A deposit or withdrawal that lands is told once, however many reads overlap: the Funds screen,
 * the live feed and a retry may all read at the same moment, and each waits for the wallet's coins
 * on the chain before it settles. Here the chain answers slowly, so two reads both see the
 * withdrawal's payout; only one of them may tell it.
 */
let world: AppWorld;

/** A member of `target`, its methods bound to it (they use private fields a proxy has not). */
const bound = (target: object, key: string | symbol): unknown => {
  const value = Reflect.get(target, key, target) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
};

beforeAll(async () => {
  world = await appWorld({
    sandboxArgs: ['--confirmation-delay-ms', '100', '--withdrawal-delay-ms', '1500', '--no-takers'],
  });
  await world.joinAsVectorWallet();
  await world.deposit([{ unit: 'lovelace', amount: '100' }]);
}, 60_000);

afterAll(() => world?.dispose());

describe('a withdrawal read by overlapping reads as it lands', () => {
  it('is told once', async () => {
    const { services, dataDir } = world;
    const adaInWallet = async () =>
      new Money(
        (await world.call<WalletBalance>('funds:wallet')).assets.find((a) => a.unit === 'lovelace')
          ?.amount ?? '0',
      );
    const walletBefore = await adaInWallet();
    const prepared = await world.call<Serialized<PreparedOperation>>('funds:prepareWithdrawal', {
      amounts: [{ unit: 'lovelace', amount: '10' }],
    });
    const done = await world.call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });

    // The app's funds service over the same data, whose chain answers after 300 ms.
    let slow = false;
    const network = new Proxy(services.network, {
      get(target, key) {
        if (key !== 'connection') return bound(target, key);
        return async () => {
          const connection = await target.connection();
          return new Proxy(connection, {
            get(c, k) {
              if (k !== 'chain') return bound(c, k);
              return (): ChainLookup => {
                const chain = c.chain();
                return {
                  utxosAt: async (address, signal) => {
                    if (slow) await new Promise((r) => setTimeout(r, 300));
                    return chain.utxosAt(address, signal);
                  },
                  resolve: (refs, signal) => chain.resolve(refs, signal),
                };
              };
            },
          });
        };
      },
    });
    const told: Array<{ name: string; payload: unknown }> = [];
    const emit: EmitEvent = (name, payload) => void told.push({ name, payload });
    const funds = new FundsService({
      network,
      book: new WalletBook(dataDir),
      signer: services.signer,
      operations: services.operations,
      emit,
      apiKey: () => services.session.apiKey(),
      walletBalance: () => services.wallet.balance({}),
      store: new PendingFundsStore(dataDir),
    });
    // It reads the list while the withdrawal is on its way.
    const listed = await world.until(
      () => funds.overview(),
      (o) => o.pending.some((p) => p.txHash === done.txHash),
      'the withdrawal to be listed',
    );
    expect(listed.pending).toHaveLength(1);

    await world.until(
      adaInWallet,
      (ada) => ada.gte(walletBefore.plus(10)),
      'the payout to reach the wallet',
    );
    slow = true;
    const [first, second] = await Promise.all([funds.overview(), funds.overview()]);
    expect([first.pending, second.pending]).toEqual([[], []]);
    expect(told.filter((e) => e.name === 'funds:settled').map((e) => e.payload)).toEqual([
      { kind: 'withdrawal', txHash: done.txHash, title: prepared.title, outcome: 'landed' },
    ]);
  }, 60_000);
});
