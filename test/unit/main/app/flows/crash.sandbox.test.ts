import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../../src-sandbox/index';
import { runAppChild } from '../../../../fixtures/crash/run-child';

/**
 * Kill the app (SIGKILL, nothing flushed) at each step of placing an order: after the build,
 * after the signature is journaled, while the submit is on the wire, after the submit. The next
 * start finds what was left, asks the exchange, and ends with the order placed exactly once, or
 * not at all when it was never signed.
 */
let sandboxDir: string;
let appDir: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
const keychainService = `Countersign-crash-${randomUUID()}`;
let price = '0.6';

const child = (action: string, killAt = '') =>
  runAppChild({ dataDir: appDir, sandbox, keychainService }, action, killAt, { PRICE: price });

/** Open orders at the exchange after the last run (every run that ends says so). */
let open = 0;

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'countersign-crash-sandbox-'));
  appDir = await mkdtemp(join(tmpdir(), 'countersign-crash-app-'));
  sandbox = await startSandbox({ dataDir: sandboxDir, port: 0, confirmationDelayMs: 0 });
  const response = await fetch(new URL('/market/market-price?symbol=ADAUSDM', sandbox.url));
  const { price: market } = (await response.json()) as { price: number };
  // Resting above the market (inside the exchange's price band), so it stays open.
  price = (market * 1.3).toFixed(4);
  const setup = await child('setup');
  expect(setup.code, setup.stderr).toBe(0);
  open = setup.out['open'] as number;
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(sandboxDir, { recursive: true, force: true });
  await rm(appDir, { recursive: true, force: true });
});

describe('a crash at each step of an order', () => {
  it.each([
    { what: 'after the build, before signing', step: 'awaiting-confirmation', placed: 0 },
    { what: 'after signing (journaled), before the submit', step: 'journaled', placed: 1 },
    { what: 'while the submit is on the wire', step: 'submitting', placed: 1 },
    { what: 'after the submit', step: 'done', placed: 1 },
  ])(
    '$what: after the restart the order is on the exchange $placed time(s)',
    async ({ step, placed }) => {
      const before = open;
      const crashed = await child('order', step);
      expect(crashed.signal, crashed.stderr).toBe('SIGKILL');

      const recovered = await child('recover');
      expect(recovered.code, recovered.stderr).toBe(0);
      const pending = recovered.out['pending'] as Array<{ state: string }>;
      if (step === 'awaiting-confirmation' || step === 'done') expect(pending).toEqual([]);
      if (step === 'journaled') expect(pending.map((p) => p.state)).toEqual(['not-submitted']);
      if (step === 'submitting') expect(pending.length).toBeLessThanOrEqual(1);
      expect(recovered.out['left']).toEqual([]);
      expect(recovered.out['open']).toBe(before + placed);

      // A second restart finds nothing left to do: nothing is ever submitted twice.
      const again = await child('recover');
      expect(again.code, again.stderr).toBe(0);
      expect(again.out['pending']).toEqual([]);
      expect(again.out['open']).toBe(before + placed);
      open = again.out['open'] as number;
    },
    120_000,
  );
});
