import { describe, expect, it, vi } from 'vitest';
import { channels } from '../../../src-shared/contract';

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: vi.fn(async (_channel: string, _payload?: unknown) => ({ ok: true, value: 'answer' })),
  on: vi.fn(),
  removeListener: vi.fn(),
}));

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value),
  },
  ipcRenderer: {
    invoke: electron.invoke,
    on: electron.on,
    removeListener: electron.removeListener,
  },
}));

await import('../../../src-preload/index');
const api = electron.exposed.get('api') as Record<string, unknown>;

describe('the preload', () => {
  it('exposes only window.api', () => {
    expect([...electron.exposed.keys()]).toEqual(['api']);
  });

  it('has one named method per contract operation and nothing generic', () => {
    const names = Object.entries(api).flatMap(([area, methods]) =>
      typeof methods === 'function'
        ? [area]
        : Object.keys(methods as object).map((m) => `${area}:${m}`),
    );
    expect(names.sort()).toEqual([...channels.map((c) => c.channel), 'on'].sort());
    for (const generic of ['invoke', 'send', 'ipcRenderer', 'call']) {
      expect(api).not.toHaveProperty(generic);
    }
  });

  it('sends each method on its own channel with the request', async () => {
    const app = api['app'] as { info: () => Promise<unknown> };
    await expect(app.info()).resolves.toEqual({ ok: true, value: 'answer' });
    expect(electron.invoke).toHaveBeenCalledWith('app:info', undefined);
  });

  it('listens only to contract events and can stop listening', () => {
    const on = api['on'] as (name: string, listener: (p: unknown) => void) => () => void;
    const listener = vi.fn();
    const stop = on('session:changed', listener);
    expect(electron.on).toHaveBeenCalledWith('event:session:changed', expect.any(Function));
    const forward = electron.on.mock.calls[0]?.[1] as (event: unknown, payload: unknown) => void;
    forward({ sender: 'hidden' }, { state: 'locked', walletName: 'A' });
    // The listener receives the payload only, never Electron's event object.
    expect(listener).toHaveBeenCalledWith({ state: 'locked', walletName: 'A' });
    stop();
    expect(electron.removeListener).toHaveBeenCalledWith('event:session:changed', forward);
    expect(() => on('app:info', listener)).toThrow(/Unknown event/);
  });

  it('cannot be modified by the page', () => {
    expect(Object.isFrozen(api)).toBe(true);
  });
});
