import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../../src-main/app';
import { silentLogger } from '../../../../src-main/log';
import { MemorySecretStore } from '../../../../src-main/wallet';
import type { SessionStatus, Settings } from '../../../../src-shared/contract';
import { TEST_VAULT_COST } from '../../../fixtures/cardano/wallet-services';
import { sourceSandboxCommand } from '../../../harness/sandbox-command';

let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-damage-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const start = () =>
  createAppServices({
    name: 'Countersign',
    version: 'test',
    dataDir,
    runtime: 'harness',
    network: { name: 'sandbox' },
    logger: silentLogger,
    send: () => undefined,
    secretStore: new MemorySecretStore(),
    vaultCost: TEST_VAULT_COST,
  });

describe('damaged data files of the app', () => {
  it('are moved aside, the trader is told in words without a path, and the app carries on', async () => {
    await writeFile(join(dataDir, 'settings.json'), '{"version": 1, "theme": ');
    await mkdir(join(dataDir, 'wallet'), { recursive: true });
    await writeFile(join(dataDir, 'wallet', 'wallets.json'), 'not json at all');
    const app = await start();
    try {
      const status = await app.dispatch('session:status', undefined);
      expect(status.ok).toBe(true);
      const notices = (status.ok ? (status.value as SessionStatus).notices : undefined) ?? [];
      expect(
        notices.some((n) => /settings file \(settings\.json\) could not be read/.test(n)),
      ).toBe(true);
      expect(notices.some((n) => n.includes('wallets.json'))).toBe(true);
      for (const notice of notices) {
        expect(notice).not.toContain(dataDir);
        expect(notice).not.toMatch(/\/(tmp|home|root|Users)\//);
      }
      // Still usable: the settings can be read and changed, and the change sticks.
      const changed = await app.dispatch('settings:update', { theme: 'dark' });
      expect(changed.ok).toBe(true);
      expect(changed.ok && (changed.value as Settings).theme).toBe('dark');
      expect(
        (await readdir(dataDir)).filter((n) => n.startsWith('settings.json.damaged-')),
      ).toHaveLength(1);
    } finally {
      await app.dispose();
    }
    const again = await start();
    try {
      const settings = await again.dispatch('settings:get', undefined);
      expect(settings.ok && (settings.value as Settings).theme).toBe('dark');
    } finally {
      await again.dispose();
    }
  });

  it('a damaged practice exchange starts afresh, and the trader is told without a path, with what to do, even after the window read the status', async () => {
    const sent: Array<{ name: string; payload: unknown }> = [];
    const withSandbox = () =>
      createAppServices({
        name: 'Countersign',
        version: 'test',
        dataDir,
        runtime: 'harness',
        network: { name: 'sandbox' },
        logger: silentLogger,
        send: (name, payload) => sent.push({ name, payload }),
        secretStore: new MemorySecretStore(),
        vaultCost: TEST_VAULT_COST,
        sandbox: {
          ...sourceSandboxCommand,
          args: [...sourceSandboxCommand.args, '--no-market-maker', '--no-takers'],
        },
      });
    const first = await withSandbox();
    await first.sandbox;
    await first.dispose();
    const folder = join(dataDir, 'sandbox');
    for (const name of await readdir(folder)) {
      if (name.endsWith('.jsonl') || name.includes('journal') || name.includes('snapshot')) {
        // Damage in the middle (a torn last line alone is a crash the sandbox repairs).
        await writeFile(join(folder, name), 'not a journal line\n{"kind": "start"}\n');
      }
    }
    sent.length = 0;
    const app = await withSandbox();
    try {
      await app.sandbox;
      const status = await app.dispatch('session:status', undefined);
      const notices = (status.ok ? (status.value as SessionStatus).notices : undefined) ?? [];
      const notice = notices.find((n) => /practice exchange/i.test(n));
      expect(notice).toMatch(/fresh practice exchange was started/);
      expect(notice).toMatch(/reset the practice exchange in Settings › Practice exchange/);
      expect(notice).not.toContain(dataDir);
      // And it is pushed: a window that read the status before the sandbox announced itself
      // sees it without asking again.
      const pushed = sent
        .filter((e) => e.name === 'session:changed')
        .map((e) => (e.payload as SessionStatus).notices ?? []);
      expect(pushed.at(-1)).toContain(notice);
      // And the exchange answers.
      const markets = await app.dispatch('market:markets', undefined);
      expect(markets.ok).toBe(true);
    } finally {
      await app.dispose();
    }
  }, 60_000);
});
