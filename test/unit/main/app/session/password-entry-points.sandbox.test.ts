import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  PreparedOperation,
  WalletBalance,
  WalletList,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { ErrorCode } from '../../../../../src-shared/errors';
import type { Result } from '../../../../../src-shared/result';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * Every channel that takes the spending password, on the whole app with its sandbox: unlock,
 * confirming a deposit, saving an API key, removing a wallet, resetting the practice exchange.
 * Wrong passwords sent through all of them at once share one schedule: the five free guesses
 * are checked, every other one is refused unchecked, and nothing protected happens.
 */
let world: AppWorld;

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers', '--confirmation-delay-ms', '100'] });
}, 60_000);

afterAll(() => world?.dispose());

const codeOf = (result: Result<unknown>): string => (result.ok ? 'OK' : result.error.code);

describe('wrong spending passwords from every entry point at once', () => {
  it('are checked only as far as the one schedule allows, and open nothing', async () => {
    const walletId = await world.joinAsVectorWallet();
    const prepared = await world.call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '25' }],
    });
    expect(prepared.needsPassword).toBe(true);
    const coins = await world.call<WalletBalance>('funds:wallet');
    await world.call('session:lock');
    const dispatch = world.services.dispatch;
    const wrong = (n: number) => `not the password ${n}`;
    const calls: Array<[string, Promise<Result<unknown>>]> = [];
    for (let n = 0; n < 5; n++) {
      calls.push(['unlock', dispatch('session:unlock', { password: wrong(n) })]);
      calls.push([
        'confirm',
        dispatch('operations:confirm', { operationId: prepared.operationId, password: wrong(n) }),
      ]);
      calls.push([
        'api key',
        dispatch('wallet:setApiKey', {
          walletId,
          apiKey: String(n).repeat(32),
          password: wrong(n),
        }),
      ]);
      calls.push([
        'remove',
        dispatch('wallet:remove', { walletId, confirmName: 'Main', password: wrong(n) }),
      ]);
      calls.push(['reset', dispatch('settings:resetSandbox', { password: wrong(n) })]);
    }
    const answers = await Promise.all(calls.map(async ([what, p]) => [what, codeOf(await p)]));
    const count = (code: string) => answers.filter(([, c]) => c === code).length;
    // One operation is confirmed once at a time: the four confirms sent while the first runs
    // are refused before any password is looked at.
    const busy = (what: unknown, code: unknown) =>
      what === 'confirm' && code === ErrorCode.InvalidInput;
    expect(answers.filter(([what, c]) => busy(what, c))).toHaveLength(4);
    expect(
      answers.filter(
        ([what, c]) => !busy(what, c) && c !== 'WRONG_PASSWORD' && c !== 'TOO_MANY_ATTEMPTS',
      ),
    ).toEqual([]);
    expect(count(ErrorCode.WrongPassword)).toBe(5);
    expect(count(ErrorCode.TooManyAttempts)).toBe(16);

    // Nothing protected happened: the wallet is there, still locked, its account still open.
    const list = await world.call<WalletList>('wallet:list');
    expect(list.wallets.map((w) => w.id)).toEqual([walletId]);
    expect((await world.call<{ state: string }>('session:status')).state).toBe('locked');
    expect(await world.call('operations:pending')).toEqual([]);
    // The practice exchange was not reset: the wallet's coins on it are all still there.
    expect(await world.call<WalletBalance>('funds:wallet')).toEqual(coins);
    // Even the right password waits its turn now.
    expect(codeOf(await dispatch('session:unlock', { password: STRONG_PASSWORD }))).toBe(
      ErrorCode.TooManyAttempts,
    );
  }, 90_000);
});
