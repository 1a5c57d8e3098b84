import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as AppModule from '../../../src-main/app';

const electron = vi.hoisted(() => {
  const appListeners = new Map<string, (...args: unknown[]) => void>();
  let ready: () => void = () => {};
  const whenReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  return {
    appListeners,
    fireReady: () => ready(),
    app: {
      requestSingleInstanceLock: vi.fn(() => true),
      quit: vi.fn(),
      on: vi.fn((name: string, listener: (...args: unknown[]) => void) =>
        appListeners.set(name, listener),
      ),
      whenReady: vi.fn(() => whenReady),
      isPackaged: true,
      getName: () => 'Countersign',
      getVersion: () => '0.1.0',
      getPath: vi.fn(() => '/tmp/countersign-test-data'),
    },
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    session: { defaultSession: { id: 'default' } },
    utilityProcess: { fork: vi.fn() },
    powerListeners: new Map<string, () => void>(),
  };
});

const services = vi.hoisted(() => ({
  create: vi.fn(),
  lockNow: vi.fn(),
  startUpdates: vi.fn(),
  dispose: vi.fn(async () => {}),
}));

const updater = vi.hoisted(() => ({
  source: { disabled: 'a test build' },
  electronUpdateSource: vi.fn(),
}));

const windowModule = vi.hoisted(() => ({
  registerAppScheme: vi.fn(),
  hardenSession: vi.fn(),
  hardenWebContents: vi.fn(),
  handleAppProtocol: vi.fn(),
  createMainWindow: vi.fn(() => ({
    on: vi.fn(),
    isMinimized: vi.fn(() => true),
    restore: vi.fn(),
    focus: vi.fn(),
  })),
  appOrigin: { protocol: 'app:', host: 'countersign' },
}));

vi.mock('electron', () => ({
  app: electron.app,
  ipcMain: electron.ipcMain,
  session: electron.session,
  utilityProcess: electron.utilityProcess,
  powerMonitor: {
    on: (name: string, listener: () => void) => electron.powerListeners.set(name, listener),
  },
  BrowserWindow: vi.fn(),
}));
vi.mock('../../../src-main/app', async (original) => {
  const actual = await original<typeof AppModule>();
  return {
    ...actual,
    createAppServices: services.create.mockImplementation(async () => ({
      dispatch: vi.fn(),
      session: { lockNow: services.lockNow },
      updates: { start: services.startUpdates },
      dispose: services.dispose,
    })),
  };
});
vi.mock('../../../src-main/window', () => windowModule);
vi.mock('../../../src-main/updater', () => ({
  electronUpdateSource: updater.electronUpdateSource.mockImplementation(async () => updater.source),
}));

beforeEach(() => {
  vi.resetModules();
  vi.clearAllMocks();
  electron.appListeners.clear();
  electron.powerListeners.clear();
});

const startReady = async () => {
  await import('../../../src-main/index');
  electron.fireReady();
  await vi.waitFor(() => expect(windowModule.createMainWindow).toHaveBeenCalled());
};

describe('the composition root', () => {
  it('quits at once when another instance holds the lock, before creating anything', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    await import('../../../src-main/index');
    expect(electron.app.quit).toHaveBeenCalled();
    expect(electron.app.whenReady).not.toHaveBeenCalled();
    expect(windowModule.createMainWindow).not.toHaveBeenCalled();
  });

  it('registers the app:// scheme before the app is ready and hardens every WebContents', async () => {
    await import('../../../src-main/index');
    expect(windowModule.registerAppScheme).toHaveBeenCalled();
    const created = electron.appListeners.get('web-contents-created');
    const contents = { id: 5 };
    created?.({}, contents);
    expect(windowModule.hardenWebContents).toHaveBeenCalledWith(contents);
  });

  it('on ready: hardens the session, serves app://, binds the contract and opens the window', async () => {
    await import('../../../src-main/index');
    electron.fireReady();
    await vi.waitFor(() => expect(windowModule.createMainWindow).toHaveBeenCalled());
    expect(windowModule.hardenSession).toHaveBeenCalledWith(
      electron.session.defaultSession,
      expect.objectContaining({ protocol: 'app:', host: 'countersign' }),
    );
    expect(windowModule.handleAppProtocol).toHaveBeenCalledWith(expect.stringMatching(/renderer$/));
    const channels = electron.ipcMain.handle.mock.calls.map((call) => call[0]);
    expect(channels).toContain('app:info');
    expect(windowModule.createMainWindow).toHaveBeenCalledWith(
      expect.objectContaining({
        preloadPath: expect.stringMatching(/preload[/\\]index\.cjs$/),
        isDevelopment: false,
      }),
    );
  });

  it('starts the bundled sandbox in a utility process through its host, data in the app folder', async () => {
    await startReady();
    expect(services.create).toHaveBeenCalledWith(
      expect.objectContaining({
        dataDir: '/tmp/countersign-test-data',
        runtime: 'electron',
      }),
    );
    const [config] = services.create.mock.calls[0] as [{ sandbox: unknown }];
    // The installed app's RunAsNode fuse is off: nothing may ask Electron to run as Node.
    expect(JSON.stringify(config.sandbox ?? {})).not.toContain('ELECTRON_RUN_AS_NODE');
    const { launch } = config.sandbox as { launch(args: string[]): unknown };
    electron.utilityProcess.fork.mockReturnValueOnce({
      pid: 99,
      stdout: null,
      stderr: null,
      kill: vi.fn(),
      once: vi.fn(),
    });
    launch(['--port', '0', '--data-dir', '/tmp/countersign-test-data/sandbox']);
    expect(electron.utilityProcess.fork).toHaveBeenCalledWith(
      expect.stringMatching(/[/\\]sandbox-host\.js$/),
      [
        '--parent-pid',
        String(process.pid),
        '--program',
        expect.stringMatching(/[/\\]sandbox\.js$/),
        '--',
        '--port',
        '0',
        '--data-dir',
        '/tmp/countersign-test-data/sandbox',
      ],
      expect.objectContaining({ stdio: 'pipe' }),
    );
  });

  it('gives the services electron-updater as their update source, and starts the checks', async () => {
    await startReady();
    expect(updater.electronUpdateSource).toHaveBeenCalled();
    expect(services.create).toHaveBeenCalledWith(
      expect.objectContaining({ updates: updater.source }),
    );
    expect(services.startUpdates).toHaveBeenCalledTimes(1);
  });

  it('locks the trading session when the machine sleeps or the screen locks', async () => {
    await startReady();
    electron.powerListeners.get('suspend')?.();
    expect(services.lockNow).toHaveBeenCalledWith('suspend');
    electron.powerListeners.get('lock-screen')?.();
    expect(services.lockNow).toHaveBeenCalledWith('screen-lock');
  });

  it('waits for the services to stop (keys wiped, sandbox ended) before quitting', async () => {
    await startReady();
    const event = { preventDefault: vi.fn() };
    electron.appListeners.get('before-quit')?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(services.dispose).toHaveBeenCalled();
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    // The second before-quit (from that quit) goes through.
    const again = { preventDefault: vi.fn() };
    electron.appListeners.get('before-quit')?.(again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it('brings the existing window forward when a second instance starts', async () => {
    await import('../../../src-main/index');
    electron.fireReady();
    await vi.waitFor(() => expect(windowModule.createMainWindow).toHaveBeenCalled());
    const window = windowModule.createMainWindow.mock.results[0]?.value as {
      restore: ReturnType<typeof vi.fn>;
      focus: ReturnType<typeof vi.fn>;
    };
    electron.appListeners.get('second-instance')?.();
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });
});
