import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../../../src-main/app';
import { silentLogger } from '../../../../../src-main/log';
import { MemorySecretStore } from '../../../../../src-main/wallet';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  rootKeyFromEntropy,
} from '../../../../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../../../../src-main/wallet/mnemonic';
import type { PreparedOperation, WalletSummary } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { sourceSandboxCommand } from '../../../../harness/sandbox-command';
import {
  STRONG_PASSWORD,
  TEST_VAULT_COST,
  VECTOR_PHRASE,
} from '../../../../fixtures/cardano/wallet-services';

/**
 * A watch-only wallet holds no key that moves funds: a deposit is prepared and shown like any
 * other, and confirming it says plainly that it cannot be signed here, with nothing signed or sent.
 */
let dataDir: string;
let services: AppServices;

const call = async <T>(channel: string, payload?: unknown): Promise<T> => {
  const result = await services.dispatch(channel, payload);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-watch-'));
  services = await createAppServices({
    name: 'Countersign',
    version: 'test',
    dataDir,
    runtime: 'harness',
    logger: silentLogger,
    send: () => undefined,
    secretStore: new MemorySecretStore(),
    vaultCost: TEST_VAULT_COST,
    sandbox: { ...sourceSandboxCommand, args: [...sourceSandboxCommand.args, '--no-takers'] },
  });
}, 60_000);

afterAll(async () => {
  await services?.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

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
    const refused = await services.dispatch('operations:confirm', {
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
