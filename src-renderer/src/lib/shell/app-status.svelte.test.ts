import { describe, expect, it, vi } from 'vitest';
import type { Api, SessionStatus } from '../../../../src-shared/contract';
import { AppStatus } from './app-status.svelte';

const info = {
  name: 'Countersign',
  version: '0.1.0',
  network: 'sandbox' as const,
  dataDir: '/d',
  runtime: 'harness' as const,
};

const fakeApi = (overrides: { infoFails?: boolean } = {}) => {
  let push: ((status: SessionStatus) => void) | null = null;
  const stop = vi.fn();
  const api = {
    app: {
      info: vi.fn(async () =>
        overrides.infoFails
          ? {
              ok: false as const,
              error: { code: 'INTERNAL' as const, message: 'Something went wrong. Try again.' },
            }
          : { ok: true as const, value: info },
      ),
    },
    session: {
      status: vi.fn(async () => ({
        ok: true as const,
        value: { state: 'no-wallet' as const, walletName: null },
      })),
    },
    on: vi.fn((_name: string, listener: (status: SessionStatus) => void) => {
      push = listener;
      return stop;
    }),
  };
  return { api: api as unknown as Api, push: (s: SessionStatus) => push?.(s), stop };
};

describe('AppStatus', () => {
  it('loads the app info and the lock state', async () => {
    const { api } = fakeApi();
    const status = new AppStatus(api);
    await status.load();
    expect(status.info).toEqual(info);
    expect(status.session).toEqual({ state: 'no-wallet', walletName: null });
    expect(status.error).toBeNull();
    expect(status.loading).toBe(false);
  });

  it('follows session:changed events until disposed', async () => {
    const { api, push, stop } = fakeApi();
    const status = new AppStatus(api);
    await status.load();
    push({ state: 'unlocked', walletName: 'Main' });
    expect(status.session).toEqual({ state: 'unlocked', walletName: 'Main' });
    status.dispose();
    expect(stop).toHaveBeenCalled();
  });

  it("shows main's message when a call fails", async () => {
    const { api } = fakeApi({ infoFails: true });
    const status = new AppStatus(api);
    await status.load();
    expect(status.error).toBe('Something went wrong. Try again.');
    expect(status.info).toBeNull();
  });
});
