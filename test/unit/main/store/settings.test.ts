import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../../src-main/store/settings';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-settings-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('settings on disk', () => {
  it('a new install starts on the sandbox with orders confirmed off it, and changes persist', async () => {
    const store = new SettingsStore(dir);
    const first = await store.read();
    expect(first.network).toEqual({ name: 'sandbox' });
    expect(first.unverifiedOrders.production).toBe('refuse');
    await store.update((s) => ({ ...s, network: { name: 'staging' }, theme: 'dark' }));
    const again = await new SettingsStore(dir).read();
    expect(again.network).toEqual({ name: 'staging' });
    expect(again.theme).toBe('dark');
  });

  it('thirty changes at once all land', async () => {
    const store = new SettingsStore(dir);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        store.update((s) => ({
          ...s,
          limits: { ...s.limits, maxOpenOrders: (s.limits.maxOpenOrders ?? 0) + 1 + 0 * i },
        })),
      ),
    );
    expect((await new SettingsStore(dir).read()).limits.maxOpenOrders).toBe(30);
  });

  it('a damaged file is moved aside and said so, not silently reset', async () => {
    await writeFile(join(dir, 'settings.json'), '{"version": 1, "network": ');
    const store = new SettingsStore(dir, { name: 'sandbox' }, () => 1234);
    expect((await store.read()).network).toEqual({ name: 'sandbox' });
    expect(store.problem?.message).toMatch(
      /settings file was damaged.*kept as settings\.json\.damaged-1234/,
    );
    expect(store.problem?.message).not.toContain(dir);
    expect(await readdir(dir)).toContain('settings.json.damaged-1234');
  });
});
