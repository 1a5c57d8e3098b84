import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  rootKeyFromEntropy,
} from '../../../../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../../../../src-main/wallet/mnemonic';
import type { PreparedOperation, WalletSummary } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD, VECTOR_PHRASE } from '../../../../fixtures/cardano/wallet-services';

/**
 * A watch-only wallet holds no key that moves funds: a deposit is prepared and shown like any
 * other, and confirming it says plainly that it cannot be signed here, with nothing signed or sent.
 */
let world: AppWorld;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers'] });
}, 60_000);

afterAll(() => world?.dispose());

describe('a watch-only wallet moving funds', () => {
  it('is told plainly that the transaction cannot be signed here, and nothing is sent', async () => {
    // The account public key a hardware or air-gapped wallet would export for this phrase.
    await cryptoIsReady();
    const accountPublicKey = accountPublicKeyToBech32(
      accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR_PHRASE.split(' ')))).toPublic(),
    );
    const cold = await call<WalletSummary>('wallet:importWatchOnly', {
      name: 'Cold',
      accountPublicKey,
      password: STRONG_PASSWORD,
    });
    await call('wallet:select', { walletId: cold.id });
    await call('session:unlock', { password: STRONG_PASSWORD });
    await call('wallet:joinExchange', { walletId: cold.id, password: STRONG_PASSWORD });

    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
    });
    expect(prepared).toMatchObject({ offline: true, needsPassword: false });
    const refused = await world.services.dispatch('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(/watch-only/);
    expect(refused.error.message).toMatch(/nothing was signed or sent/);
    expect(await call('operations:pending')).toEqual([]);
    const overview = await call<{ exchange: unknown[]; pending: unknown[] }>('funds:overview');
    expect(overview.pending).toEqual([]);
  }, 90_000);
});
