import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Built } from '../../../../../src-main/app/operations/service';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  rootKeyFromEntropy,
} from '../../../../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../../../../src-main/wallet/mnemonic';
import type { OperationProgress, WalletSummary } from '../../../../../src-shared/contract';
import { ErrorCode } from '../../../../../src-shared/errors';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD, VECTOR_PHRASE } from '../../../../fixtures/cardano/wallet-services';

/**
 * A watch-only wallet holds no key that moves funds, and signing elsewhere is not in this
 * version: a deposit or withdrawal is refused when it is asked for, in words that say what to do,
 * before the exchange is asked to build anything. The signature step refuses one too, should an
 * operation of a watch-only wallet ever reach it.
 */
let world: AppWorld;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

beforeAll(async () => {
  world = await appWorld({ sandboxArgs: ['--no-takers'] });
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
}, 60_000);

afterAll(() => world?.dispose());

const progressSteps = (): string[] =>
  world.events
    .filter((e) => e.name === 'operations:progress')
    .map((e) => (e.payload as OperationProgress).step);

describe('a watch-only wallet moving funds', () => {
  it.each([
    ['funds:prepareDeposit', 'a deposit'],
    ['funds:prepareWithdrawal', 'a withdrawal'],
  ])(
    '%s: %s is refused up front, says why and what to do, and nothing is built',
    async (channel) => {
      const stepsBefore = progressSteps().length;
      const refused = await world.refused(channel, {
        amounts: [{ unit: 'lovelace', amount: '20' }],
      });
      expect(refused.code).toBe(ErrorCode.WatchOnly);
      expect(refused.message).toMatch(/“Cold” is a watch-only wallet/);
      expect(refused.message).toMatch(/not available in this version/);
      expect(refused.message).toMatch(/restore it from its recovery phrase/);
      expect(refused.message).toMatch(/Nothing was built or sent/);
      // The exchange was not asked to build it: no operation even began.
      expect(progressSteps().slice(stepsBefore)).toEqual([]);
      expect(await call('operations:pending')).toEqual([]);
    },
  );

  it('is refused at the signature too, with nothing signed or sent', async () => {
    const connection = await world.services.network.connection();
    // An operation of a watch-only wallet that got as far as the dialog (built elsewhere).
    const built = {
      kind: 'deposit',
      title: 'Deposit 20 ADA',
      connection,
      txHex: '84a400',
      intent: { kind: 'deposit', amounts: new Map([['lovelace', 20_000_000n]]), inputs: new Map() },
      profile: { network: 'sandbox', networkId: 0 },
      summary: {
        txId: '00'.repeat(32),
        networkId: 0,
        inputs: [],
        outputs: [],
        fee: { unit: 'lovelace', name: 'ADA', quantity: '200000', amount: '0.2' },
        signers: [],
        validUntil: null,
        orderTerms: null,
      },
      report: { differences: [], warnings: [] },
      offline: true,
      orderId: null,
      cancelsOrderId: null,
      expiresAt: null,
    } as unknown as Built;
    const prepared = world.services.operations.register({ id: crypto.randomUUID() }, built);
    expect(prepared).toMatchObject({ offline: true, needsPassword: false });
    const refused = await world.refused('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    expect(refused.message).toMatch(/watch-only/);
    expect(refused.message).toMatch(/nothing was signed or sent/);
    expect(await call('operations:pending')).toEqual([]);
    const overview = await call<{ pending: unknown[] }>('funds:overview');
    expect(overview.pending).toEqual([]);
  });
});
