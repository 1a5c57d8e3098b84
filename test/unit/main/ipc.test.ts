import { beforeEach, describe, expect, it, vi } from 'vitest';
import { channels } from '../../../src-shared/contract';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { partialHandlers } from './partial-handlers';
import { createDispatcher } from '../../../src-main/dispatch';
import type { Logger } from '../../../src-main/log';
import { fakeWebContents } from './electron-mock';

vi.mock('electron', () => ({
  BrowserWindow: vi.fn(),
  protocol: {},
  shell: {},
}));

const { bindIpc, eventEmitter } = await import('../../../src-main/ipc');
const { appOrigin } = await import('../../../src-main/window');

type Listener = (event: unknown, payload?: unknown) => Promise<unknown>;

const makeIpcMain = () => {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle: vi.fn((channel: string, listener: Listener) => handlers.set(channel, listener)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
};

const makeHandlers = () => {
  const info = vi.fn(async () => ({
    name: 'Countersign',
    version: '0.1.0',
    network: 'sandbox' as const,
    dataDir: '/data',
    runtime: 'electron' as const,
  }));
  const status = vi.fn(async () => ({ state: 'no-wallet' as const, walletName: null }));
  return { app: { info }, session: { status } };
};

const logger = () => ({
  info: vi.fn<Logger['info']>(),
  warn: vi.fn<Logger['warn']>(),
  error: vi.fn<Logger['error']>(),
});

/** Our window, with its main frame showing app://countersign/. */
const ourWindow = () => {
  const webContents = fakeWebContents(1);
  return { webContents, isDestroyed: () => false };
};

const eventFrom = (
  window: ReturnType<typeof ourWindow>,
  overrides: { senderId?: number; url?: string; subframe?: boolean } = {},
) => {
  const main = window.webContents.mainFrame;
  const frame = overrides.subframe
    ? { processId: main.processId, routingId: 99, url: main.url, parent: main }
    : { ...main, url: overrides.url ?? main.url };
  return {
    sender: { id: overrides.senderId ?? window.webContents.id, mainFrame: main },
    senderFrame: frame,
  };
};

describe('bindIpc', () => {
  let ipcMain: ReturnType<typeof makeIpcMain>;
  let handlers: ReturnType<typeof makeHandlers>;
  let log: ReturnType<typeof logger>;
  let window: ReturnType<typeof ourWindow>;

  beforeEach(() => {
    ipcMain = makeIpcMain();
    handlers = makeHandlers();
    log = logger();
    window = ourWindow();
    bindIpc(
      ipcMain as never,
      createDispatcher(partialHandlers(handlers), log),
      () => window as never,
      appOrigin,
    );
  });

  const invoke = (channel: string, event: unknown, payload?: unknown) => {
    const listener = ipcMain.handlers.get(channel);
    if (!listener) throw new Error(`no handler on ${channel}`);
    return listener(event, payload);
  };

  it('binds exactly the channels of the contract', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(channels.map((c) => c.channel).sort());
    expect(ipcMain.handlers.has('app:info')).toBe(true);
  });

  it('answers our window with the service result', async () => {
    await expect(invoke('app:info', eventFrom(window))).resolves.toEqual({
      ok: true,
      value: expect.objectContaining({ network: 'sandbox', version: '0.1.0' }),
    });
  });

  it('never lets a payload that breaks the schema reach the service', async () => {
    for (const payload of [{ evil: true }, 'x', 42, [1], null]) {
      const result = await invoke('app:info', eventFrom(window), payload);
      expect(result).toEqual({
        ok: false,
        error: { code: ErrorCode.InvalidInput, message: expect.stringContaining('not accepted') },
      });
    }
    expect(handlers.app.info).not.toHaveBeenCalled();
  });

  it('reports a thrown error as {code, message} with no stack or internals', async () => {
    const internal = new Error('ECONNRESET at /home/u/.config/secret.db password=hunter2');
    handlers.app.info.mockRejectedValueOnce(internal);
    const result = (await invoke('app:info', eventFrom(window))) as {
      ok: false;
      error: Record<string, unknown>;
    };
    expect(result.ok).toBe(false);
    expect(Object.keys(result.error).sort()).toEqual(['code', 'message']);
    expect(result.error['code']).toBe(ErrorCode.Internal);
    const text = JSON.stringify(result);
    for (const leak of ['ECONNRESET', 'hunter2', 'secret.db', 'at ', '.ts:']) {
      expect(text).not.toContain(leak);
    }
    // The developer still learns what happened, in the log.
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('app:info'), internal);
  });

  it("passes a user-facing AppError's code and message through unchanged", async () => {
    handlers.app.info.mockRejectedValueOnce(
      new AppError(ErrorCode.Locked, 'Unlock your wallet to continue.'),
    );
    await expect(invoke('app:info', eventFrom(window))).resolves.toEqual({
      ok: false,
      error: { code: ErrorCode.Locked, message: 'Unlock your wallet to continue.' },
    });
  });

  it.each([
    ['another WebContents', { senderId: 2 }],
    ['a subframe of our window', { subframe: true }],
    ['another origin', { url: 'https://evil.example/' }],
    ['a file:// page', { url: 'file:///tmp/index.html' }],
    ['a look-alike app:// host', { url: 'app://countersign.evil/' }],
  ])('refuses a request from %s and never calls the service', async (_name, overrides) => {
    const result = await invoke('app:info', eventFrom(window, overrides));
    expect(result).toEqual({
      ok: false,
      error: { code: ErrorCode.ForbiddenSender, message: expect.any(String) },
    });
    expect(handlers.app.info).not.toHaveBeenCalled();
  });

  it('refuses everything once the window is gone', async () => {
    const gone = { ...window, isDestroyed: () => true };
    const ipc = makeIpcMain();
    bindIpc(
      ipc as never,
      createDispatcher(partialHandlers(handlers), log),
      () => gone as never,
      appOrigin,
    );
    const listener = ipc.handlers.get('app:info');
    expect(await listener?.(eventFrom(window))).toMatchObject({ ok: false });
    expect(handlers.app.info).not.toHaveBeenCalled();
  });

  it('unbinds every channel', () => {
    const ipc = makeIpcMain();
    const unbind = bindIpc(
      ipc as never,
      createDispatcher(partialHandlers(handlers), log),
      () => null,
      appOrigin,
    );
    unbind();
    expect(ipc.handlers.size).toBe(0);
  });
});

describe('events to the renderer', () => {
  it('go to our window on their event channel, and nowhere once it is closed', () => {
    const window = ourWindow();
    let current: typeof window | null = window;
    const emit = eventEmitter(() => current as never);
    emit('session:changed', { state: 'locked', walletName: 'Main' });
    expect(window.webContents.send).toHaveBeenCalledWith('event:session:changed', {
      state: 'locked',
      walletName: 'Main',
    });
    current = null;
    emit('session:changed', { state: 'unlocked', walletName: 'Main' });
    expect(window.webContents.send).toHaveBeenCalledTimes(1);
  });
});
