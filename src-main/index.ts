import {
  app,
  type BrowserWindow,
  dialog,
  ipcMain,
  Notification,
  powerMonitor,
  session,
  utilityProcess,
} from 'electron';
import { basename } from 'node:path';
import { join } from 'node:path';
import { createAppServices, type AppServices } from './app';
import { utilityProcessLauncher } from './exchange';
import { consoleLogger } from './log';
import { writeFileAtomic } from './store/atomic-file';
import { bindIpc, eventEmitter } from './ipc';
import { electronUpdateSource } from './updater';
import {
  appOrigin,
  createMainWindow,
  handleAppProtocol,
  hardenSession,
  hardenWebContents,
  registerAppScheme,
  type TrustedOrigin,
} from './window';

/**
 * Composition root of the Electron main process: one instance, hardened session and windows,
 * the services behind the contract, and IPC bound through the one dispatcher.
 */
export const main = (): void => {
  registerAppScheme();

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  const logger = consoleLogger('main');
  const isDevelopment = !app.isPackaged && Boolean(process.env['ELECTRON_RENDERER_URL']);
  const devServerUrl = isDevelopment ? process.env['ELECTRON_RENDERER_URL'] : undefined;
  const trusted: TrustedOrigin = devServerUrl
    ? { protocol: new URL(devServerUrl).protocol, host: new URL(devServerUrl).host }
    : appOrigin;

  let window: BrowserWindow | null = null;
  let services: AppServices | null = null;
  const getWindow = () => window;

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

  app.on('window-all-closed', () => app.quit());

  // Stop the sandbox and wipe keys before quitting; quit again once that is done.
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed || !services) return;
    event.preventDefault();
    disposed = true;
    void services.dispose().finally(() => app.quit());
  });

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession, trusted);
    handleAppProtocol(join(import.meta.dirname, '../renderer'));
    services = await createAppServices({
      name: app.getName(),
      version: app.getVersion(),
      dataDir: app.getPath('userData'),
      runtime: 'electron',
      logger,
      send: eventEmitter(getWindow),
      // CSV exports and transactions to sign offline go where the trader chooses, through the
      // system's save dialog.
      saveFile: async (suggestedName, content, kind) => {
        const options = {
          defaultPath: join(app.getPath('documents'), suggestedName),
          filters: [
            kind === 'csv'
              ? { name: 'CSV', extensions: ['csv'] }
              : { name: 'Transaction (cardano-cli text envelope)', extensions: ['json'] },
          ],
        };
        const choice = window
          ? await dialog.showSaveDialog(window, options)
          : await dialog.showSaveDialog(options);
        if (choice.canceled || !choice.filePath) return null;
        // Whole or not at all, even if the app is stopped mid-write; the folder is the trader's.
        await writeFileAtomic(choice.filePath, content, { ownFolder: false });
        return { fileName: basename(choice.filePath) };
      },
      // Fills are announced on the desktop only while the trader is looking elsewhere.
      notify: (title, body) => {
        if (window?.isFocused() || !Notification.isSupported()) return;
        new Notification({ title, body, silent: false }).show();
      },
      // A utility process: the installed app's fuses forbid running Electron as plain Node.
      sandbox: utilityProcessLauncher(utilityProcess, {
        host: join(import.meta.dirname, 'sandbox-host.js'),
        program: join(import.meta.dirname, 'sandbox.js'),
      }),
      updates: await electronUpdateSource(logger),
    });
    bindIpc(ipcMain, services.dispatch, getWindow, trusted);
    // Keys leave memory when the machine sleeps or the screen locks.
    const trading = services.session;
    powerMonitor.on('suspend', () => trading.lockNow('suspend'));
    powerMonitor.on('lock-screen', () => trading.lockNow('screen-lock'));
    // At start and every few hours; installs only when the trader agrees.
    services.updates.start();
    window = createMainWindow({
      preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
      isDevelopment,
      devServerUrl,
    });
    window.on('closed', () => {
      window = null;
    });
  });
};

main();
