import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeWebContents } from './electron-mock';

const electron = vi.hoisted(() => ({
  windows: [] as Array<{ options: Record<string, unknown>; loadURL: ReturnType<typeof vi.fn> }>,
  openExternal: vi.fn(),
  registerSchemesAsPrivileged: vi.fn(),
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  currentContents: null as unknown,
}));

vi.mock('electron', () => ({
  BrowserWindow: vi.fn(function (this: Record<string, unknown>, options: Record<string, unknown>) {
    const loadURL = vi.fn(async () => {});
    electron.windows.push({ options, loadURL });
    Object.assign(this, { webContents: electron.currentContents, loadURL, once: vi.fn() });
  }),
  shell: { openExternal: electron.openExternal },
  protocol: {
    registerSchemesAsPrivileged: electron.registerSchemesAsPrivileged,
    handle: vi.fn((scheme: string, handler: (request: Request) => Promise<Response>) =>
      electron.protocolHandlers.set(scheme, handler),
    ),
  },
}));

const window = await import('../../../src-main/window');

beforeEach(() => {
  electron.windows.length = 0;
  electron.openExternal.mockClear();
  electron.currentContents = fakeWebContents();
});

describe('the main window', () => {
  it('isolates the renderer: context isolation, sandbox, no Node, no webview', () => {
    window.createMainWindow({ preloadPath: '/app/out/preload/index.cjs', isDevelopment: false });
    const prefs = electron.windows[0]?.options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    });
  });

  it('turns on no experimental or extra Blink feature, and sets nothing else unreviewed', () => {
    window.createMainWindow({ preloadPath: '/p.cjs', isDevelopment: false });
    const prefs = electron.windows[0]?.options['webPreferences'] as Record<string, unknown>;
    expect(prefs['experimentalFeatures']).toBe(false);
    expect(prefs['enableBlinkFeatures'] ?? '').toBe('');
    expect(prefs['additionalArguments']).toBeUndefined();
    expect(prefs['partition']).toBeUndefined();
    // Every preference is one of these, reviewed for safety; a new one must be added here.
    expect(Object.keys(prefs).sort()).toEqual(
      [
        'allowRunningInsecureContent',
        'contextIsolation',
        'devTools',
        'experimentalFeatures',
        'navigateOnDragDrop',
        'nodeIntegration',
        'nodeIntegrationInSubFrames',
        'nodeIntegrationInWorker',
        'preload',
        'safeDialogs',
        'sandbox',
        'spellcheck',
        'webSecurity',
        'webviewTag',
      ].sort(),
    );
  });

  it('loads the UI from app://, never file://', () => {
    window.createMainWindow({ preloadPath: '/p.cjs', isDevelopment: false });
    const url = electron.windows[0]?.loadURL.mock.calls[0]?.[0] as string;
    expect(url).toBe('app://countersign/');
  });

  it('offers DevTools only in development', () => {
    window.createMainWindow({ preloadPath: '/p.cjs', isDevelopment: false });
    window.createMainWindow({
      preloadPath: '/p.cjs',
      isDevelopment: true,
      devServerUrl: 'http://localhost:5173',
    });
    const devTools = electron.windows.map(
      (w) => (w.options['webPreferences'] as Record<string, unknown>)['devTools'],
    );
    expect(devTools).toEqual([false, true]);
    expect(electron.windows[1]?.loadURL).toHaveBeenCalledWith('http://localhost:5173');
  });

  it('hardens its own WebContents', () => {
    const contents = fakeWebContents();
    electron.currentContents = contents;
    window.createMainWindow({ preloadPath: '/p.cjs', isDevelopment: false });
    expect(contents.fire('will-navigate')).toBe(true);
  });
});

describe('navigation and new windows', () => {
  it.each(['will-navigate', 'will-redirect', 'will-frame-navigate', 'will-attach-webview'])(
    'blocks %s',
    (name) => {
      const contents = fakeWebContents();
      window.hardenWebContents(contents as never);
      expect(contents.fire(name)).toBe(true);
    },
  );

  it('denies every new window and opens only allowlisted https links outside', () => {
    const contents = fakeWebContents();
    window.hardenWebContents(contents as never);
    expect(contents.openWindow('https://cardanoscan.io/transaction/abc')).toEqual({
      action: 'deny',
    });
    expect(electron.openExternal).toHaveBeenCalledWith('https://cardanoscan.io/transaction/abc');
    for (const url of [
      'http://cardanoscan.io/',
      'https://evil.example/',
      'https://cardanoscan.io.evil.example/',
      'https://user:pass@cardanoscan.io/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(contents.openWindow(url)).toEqual({ action: 'deny' });
    }
    expect(electron.openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('permissions', () => {
  const harden = () => {
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
    };
    window.hardenSession(session as never, window.appOrigin);
    return {
      request: session.setPermissionRequestHandler.mock.calls[0]?.[0] as (
        ...args: unknown[]
      ) => void,
      check: session.setPermissionCheckHandler.mock.calls[0]?.[0] as (
        ...args: unknown[]
      ) => boolean,
      device: session.setDevicePermissionHandler.mock.calls[0]?.[0] as () => boolean,
    };
  };
  const ours = { getURL: () => 'app://countersign/index.html' };
  const page = {
    requestingUrl: 'app://countersign/index.html',
    isMainFrame: true,
  };
  const answer = (
    request: (...args: unknown[]) => void,
    contents: unknown,
    permission: string,
    details: object,
  ) => {
    const callback = vi.fn();
    request(contents, permission, callback, details);
    return callback.mock.calls[0]?.[0] as boolean;
  };

  it('denies every permission request and check but the camera', () => {
    const { request, check, device } = harden();
    for (const permission of ['notifications', 'clipboard-read', 'geolocation', 'midi', 'hid']) {
      expect(answer(request, ours, permission, page), permission).toBe(false);
      expect(check(ours, permission, 'app://countersign', { ...page, mediaType: 'video' })).toBe(
        false,
      );
    }
    expect(device()).toBe(false);
  });

  it('lets our own page use the camera for QR codes: video only, top frame, our origin', () => {
    const { request, check } = harden();
    expect(answer(request, ours, 'media', { ...page, mediaTypes: ['video'] })).toBe(true);
    expect(check(ours, 'media', 'app://countersign', { ...page, mediaType: 'video' })).toBe(true);
    // The microphone, alone or with the camera; a request that names no device.
    expect(answer(request, ours, 'media', { ...page, mediaTypes: ['audio'] })).toBe(false);
    expect(answer(request, ours, 'media', { ...page, mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(answer(request, ours, 'media', { ...page, mediaTypes: [] })).toBe(false);
    expect(answer(request, ours, 'media', page)).toBe(false);
    expect(check(ours, 'media', 'app://countersign', { ...page, mediaType: 'audio' })).toBe(false);
    // A frame inside the page, a foreign page, or our page's URL claimed by a foreign one.
    expect(
      answer(request, ours, 'media', { ...page, isMainFrame: false, mediaTypes: ['video'] }),
    ).toBe(false);
    const foreign = { getURL: () => 'https://evil.example/' };
    const elsewhere = { requestingUrl: 'https://evil.example/', isMainFrame: true };
    expect(answer(request, foreign, 'media', { ...elsewhere, mediaTypes: ['video'] })).toBe(false);
    expect(answer(request, foreign, 'media', { ...page, mediaTypes: ['video'] })).toBe(false);
    expect(answer(request, ours, 'media', { ...elsewhere, mediaTypes: ['video'] })).toBe(false);
    expect(
      check(foreign, 'media', 'https://evil.example', { ...elsewhere, mediaType: 'video' }),
    ).toBe(false);
  });
});

describe('the app:// protocol', () => {
  it('is registered as a standard, secure scheme', () => {
    window.registerAppScheme();
    expect(electron.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
  });

  it('serves the renderer with the strict CSP and refuses to leave its folder', async () => {
    const { mkdtemp, writeFile, mkdir, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const base = await mkdtemp(join(tmpdir(), 'cs-proto-'));
    onTestFinished(() => rm(base, { recursive: true, force: true }));
    const dir = join(base, 'renderer');
    await mkdir(dir);
    await writeFile(join(dir, 'index.html'), '<html></html>');
    await writeFile(join(base, 'secret.txt'), 'secret');
    window.handleAppProtocol(dir);
    const handler = electron.protocolHandlers.get('app');
    if (!handler) throw new Error('no handler');

    const index = await handler(new Request('app://countersign/'));
    expect(index.status).toBe(200);
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');

    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%00']) {
      const response = await handler(new Request(`app://countersign${path}`));
      expect(response.status, path).toBe(404);
    }
    expect((await handler(new Request('app://elsewhere/index.html'))).status).toBe(404);
  });
});
