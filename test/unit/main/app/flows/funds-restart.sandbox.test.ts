import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../../src-sandbox/index';
import type { FundsOverview } from '../../../../../src-shared/contract';
import { runAppChild, type ChildResult } from '../../../../fixtures/crash/run-child';

/**
 * A deposit stays "On its way" on the Funds screen until the exchange credits it, whatever
 * happens to the app meanwhile: closed and opened again, or killed after signing and the deposit
 * sent from the recovery prompt at the next start. It is the wallet's own: another wallet's
 * Funds screen does not list it. The exchange here credits a deposit
 * CONFIRM_MS after it is submitted, longer than an app takes to start again.
 */
const CONFIRM_MS = 25_000;

let sandboxDir: string;
let appDir: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
const keychainService = `Countersign-funds-${randomUUID()}`;

const child = (action: string, killAt = '', amount = '100') =>
  runAppChild({ dataDir: appDir, sandbox, keychainService }, action, killAt, { AMOUNT: amount });

const fundsOf = (run: ChildResult): FundsOverview => {
  expect(run.code, run.stderr).toBe(0);
  return run.out['funds'] as FundsOverview;
};

const freeAda = (funds: FundsOverview): number =>
  Number(funds.exchange.find((b) => b.unit === 'lovelace')?.free ?? 0);

/** Starts the app again and again until the exchange has credited what is on its way. */
const untilCredited = async (): Promise<FundsOverview> => {
  const deadline = Date.now() + CONFIRM_MS + 30_000;
  for (;;) {
    const funds = fundsOf(await child('funds'));
    if (funds.pending.length === 0 || Date.now() > deadline) return funds;
    await new Promise((done) => setTimeout(done, 2_000));
  }
};

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'countersign-funds-sandbox-'));
  appDir = await mkdtemp(join(tmpdir(), 'countersign-funds-app-'));
  sandbox = await startSandbox({ dataDir: sandboxDir, port: 0, confirmationDelayMs: CONFIRM_MS });
  const setup = await child('setup', '', '0');
  expect(setup.code, setup.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(sandboxDir, { recursive: true, force: true });
  await rm(appDir, { recursive: true, force: true });
});

describe('a deposit on its way across restarts', () => {
  it('is still listed after the app is closed and opened again, until it is credited', async () => {
    const before = freeAda(fundsOf(await child('funds')));
    const sent = await child('deposit', '', '120');
    expect(fundsOf(sent).pending.map((p) => p.title)).toEqual(['Deposit 120 ADA']);

    const reopened = fundsOf(await child('funds'));
    expect(reopened.pending.map((p) => [p.kind, p.title])).toEqual([
      ['deposit', 'Deposit 120 ADA'],
    ]);
    expect(reopened.pending[0]?.txHash).toBe((sent.out['result'] as { txHash: string }).txHash);
    expect(freeAda(reopened)).toBe(before);
    // Another wallet's Funds screen does not list it (its balances say nothing of it), and the
    // first wallet's still does.
    expect(fundsOf(await child('second')).pending).toEqual([]);
    expect(fundsOf(await child('funds')).pending.map((p) => p.title)).toEqual(['Deposit 120 ADA']);

    const credited = await untilCredited();
    expect(credited.pending).toEqual([]);
    expect(freeAda(credited)).toBe(before + 120);
  }, 180_000);

  it('is listed once sent from the recovery prompt after the app was killed having signed it', async () => {
    const before = freeAda(fundsOf(await child('funds')));
    const killed = await child('deposit', 'journaled', '130');
    expect(killed.signal, killed.stderr).toBe('SIGKILL');

    const recovered = await child('recover');
    expect(recovered.out['left']).toEqual([]);
    expect(fundsOf(recovered).pending.map((p) => p.title)).toEqual(['Deposit 130 ADA']);
    // And at the start after that, still, until the exchange credits it.
    expect(fundsOf(await child('funds')).pending.map((p) => p.title)).toEqual(['Deposit 130 ADA']);

    const credited = await untilCredited();
    expect(credited.pending).toEqual([]);
    expect(freeAda(credited)).toBe(before + 130);
  }, 180_000);
});
