import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../../src-main/store/atomic-file';
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
    const store = new SettingsStore(dir, { name: 'sandbox' });
    expect((await store.read()).network).toEqual({ name: 'sandbox' });
    const aside = (await readdir(dir)).filter((n) => n.startsWith('settings.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(store.problem?.message).toMatch(/settings file \(settings\.json\) could not be read/);
    expect(store.problem?.message).toContain(`kept as ${aside[0]}`);
    expect(store.problem?.message).not.toContain(dir);
    // The next start reads what was written after, and has nothing more to report.
    await store.update((s) => ({ ...s, theme: 'dark' }));
    const again = new SettingsStore(dir);
    expect((await again.read()).theme).toBe('dark');
    expect(again.problem).toBeNull();
  });

  it('waits for the file’s one turn shared with every writer of the app', async () => {
    const store = new SettingsStore(dir);
    await store.read();
    let release!: () => void;
    const held = withFileLock(
      join(dir, 'settings.json'),
      () => new Promise<void>((r) => (release = r)),
    );
    let landed = false;
    const update = store.update((s) => ({ ...s, theme: 'dark' })).then(() => (landed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(landed).toBe(false);
    release();
    await Promise.all([held, update]);
    expect(landed).toBe(true);
  });

  it('a change that fails writes nothing, and the settings stay as they were', async () => {
    const store = new SettingsStore(dir);
    await store.update((s) => ({ ...s, theme: 'dark' }));
    await expect(
      store.update(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(
      // Not settings at all: refused by the schema before anything is written.
      store.update((s) => ({ ...s, theme: 'purple' as 'dark' })),
    ).rejects.toThrow();
    expect((await store.read()).theme).toBe('dark');
    expect((await new SettingsStore(dir).read()).theme).toBe('dark');
    expect((await readdir(dir)).sort()).toEqual(['settings.json']);
    expect((await stat(join(dir, 'settings.json'))).mode & 0o777).toBe(0o600);
  });
});
