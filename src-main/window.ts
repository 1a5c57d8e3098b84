import { BrowserWindow, protocol, shell, type Session, type WebContents } from 'electron';
import { readFile } from 'node:fs/promises';
import {
  APP_HOST,
  APP_SCHEME,
  APP_URL,
  RENDERER_CSP,
  contentTypeOf,
  resolveRendererFile,
} from './renderer-files';

/** External links a user may open in their browser: https only, these hosts only. */
export const EXTERNAL_LINK_HOSTS: ReadonlySet<string> = new Set([
  'cardanoscan.io',
  'preprod.cardanoscan.io',
  'cexplorer.io',
  'preprod.cexplorer.io',
  'deltadefi.io',
  'docs.deltadefi.io',
]);

export const isAllowedExternalUrl = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      parsed.username === '' &&
      parsed.password === '' &&
      EXTERNAL_LINK_HOSTS.has(parsed.hostname)
    );
  } catch {
    return false;
  }
};

/** Must run before the app is ready: makes app:// a standard, secure origin. */
export const registerAppScheme = (): void => {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
    },
  ]);
};

const notFound = (): Response =>
  new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });

/** Serves the built renderer on app://countersign/ with the CSP; nothing outside its folder. */
export const handleAppProtocol = (rendererDir: string): void => {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return notFound();
    const file = resolveRendererFile(rendererDir, url.pathname);
    if (!file) return notFound();
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': contentTypeOf(file),
          'content-security-policy': RENDERER_CSP,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return notFound();
    }
  });
};

/**
 * Our renderer lives on one origin: app://countersign in a packaged app, or the electron-vite dev
 * server in development. Anything else is foreign.
 */
export interface TrustedOrigin {
  protocol: string;
  host: string;
}

export const appOrigin: TrustedOrigin = { protocol: `${APP_SCHEME}:`, host: APP_HOST };

export const isTrustedUrl = (url: string, trusted: TrustedOrigin): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === trusted.protocol && parsed.host === trusted.host;
  } catch {
    return false;
  }
};

/**
 * Denies every permission (microphone, notifications, clipboard-read, HID, geolocation, …) asked
 * or checked, but one: the camera, video alone, for our own page's top frame, which reads the QR
 * codes of offline signing (the system still asks the trader the first time, on macOS).
 */
export const hardenSession = (session: Session, trusted: TrustedOrigin): void => {
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const types = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
    callback(
      permission === 'media' &&
        details.isMainFrame &&
        types.length > 0 &&
        types.every((type) => type === 'video') &&
        isTrustedUrl(details.requestingUrl, trusted) &&
        isTrustedUrl(contents.getURL(), trusted),
    );
  });
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin, details) =>
      permission === 'media' &&
      details.mediaType === 'video' &&
      details.isMainFrame &&
      isTrustedUrl(requestingOrigin, trusted),
  );
  session.setDevicePermissionHandler(() => false);
};

/**
 * Applied to every WebContents the app ever creates: no navigation away, no redirects, no
 * frame navigation, no new windows (allowlisted https links go to the user's browser), no
 * <webview>.
 */
export const hardenWebContents = (contents: WebContents): void => {
  const block = (event: { preventDefault(): void }) => event.preventDefault();
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-frame-navigate', block);
  contents.on('will-attach-webview', block);
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
};

export interface MainWindowOptions {
  preloadPath: string;
  /** DevTools and the dev server exist only in development. */
  isDevelopment: boolean;
  /** The electron-vite dev server, in development only. */
  devServerUrl?: string | undefined;
}

export const mainWindowWebPreferences = (options: MainWindowOptions) =>
  ({
    preload: options.preloadPath,
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
    spellcheck: false,
    devTools: options.isDevelopment,
  }) as const;

export const createMainWindow = (options: MainWindowOptions): BrowserWindow => {
  const window = new BrowserWindow({
    title: 'Countersign',
    width: 1320,
    height: 860,
    minWidth: 1024,
    minHeight: 680,
    show: false,
    backgroundColor: '#0f1419',
    autoHideMenuBar: true,
    webPreferences: mainWindowWebPreferences(options),
  });
  hardenWebContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  const url = options.isDevelopment && options.devServerUrl ? options.devServerUrl : APP_URL;
  void window.loadURL(url);
  return window;
};
