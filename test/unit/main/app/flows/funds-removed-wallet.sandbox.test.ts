import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OperationResult, PreparedOperation } from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD } from '../../../../fixtures/cardano/wallet-services';

/**
 * A removed wallet leaves nothing of its deposits on their way on this computer: they would never
 * be shown again (each entry is listed and settled only under its own wallet), so keeping them
 * would only grow the file for good. The exchange here credits deposits only after an hour, so the
 * deposit is still on its way when the wallet goes.
 */
const HOUR = 3_600_000;
let first: AppWorld | undefined;
/** The first run's services, until they are stopped for the second run. */
let firstRunning = false;
let next: AppWorld | undefined;

afterAll(async () => {
  await next?.dispose();
  if (firstRunning) await first?.services.dispose();
  if (first) await rm(first.dataDir, { recursive: true, force: true });
});

const onTheirWay = async (dataDir: string): Promise<string[]> => {
  const file = JSON.parse(await readFile(join(dataDir, 'funds', 'pending.json'), 'utf8')) as {
    pending: Array<{ walletId: string }>;
    expected: Array<{ walletId: string }>;
  };
  return [...file.pending, ...file.expected].map((entry) => entry.walletId);
};

describe('removing a wallet', () => {
  it('forgets its deposits on their way, now and from a file an earlier run left', async () => {
    first = await appWorld({
      sandboxArgs: ['--confirmation-delay-ms', String(HOUR), '--no-takers'],
    });
    firstRunning = true;
    const { dataDir } = first;
    const walletId = await first.joinAsVectorWallet();
    const prepared = await first.call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '100' }],
    });
    await first.call<Serialized<OperationResult>>('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    await first.until(
      () => onTheirWay(dataDir).catch(() => []),
      (ids) => ids.length > 0,
      'the deposit to be written down',
    );
    expect(await onTheirWay(dataDir)).toEqual([walletId]);
    const left = await readFile(join(dataDir, 'funds', 'pending.json'), 'utf8');

    await first.call('wallet:remove', { walletId, confirmName: 'Main', password: STRONG_PASSWORD });
    expect(await onTheirWay(dataDir)).toEqual([]);

    // A file written before the removal (a run stopped before it could write the change): the
    // next run drops what belongs to no wallet of this computer once it reads the list.
    await first.services.dispose();
    firstRunning = false;
    await writeFile(join(dataDir, 'funds', 'pending.json'), left);
    next = await appWorld({ dataDir, sandboxArgs: ['--no-takers'] });
    const restored = await next.joinAsVectorWallet();
    expect(restored).not.toBe(walletId);
    const overview = await next.call<{ pending: unknown[] }>('funds:overview');
    expect(overview.pending).toEqual([]);
    expect(await onTheirWay(dataDir)).toEqual([]);
  }, 120_000);
});
