import { app, net } from 'electron';
import electronUpdater, { type ProgressInfo } from 'electron-updater';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from './log';
import type { UpdateSource } from './app/updates';
import {
  UPDATE_PUBLIC_KEYS,
  fetchSignedManifest,
  manifestFileName,
  readUpdateFeed,
  releaseFileUrl,
} from './updates';

const NOT_A_RELEASE =
  'This copy of Countersign was not installed from a release, so it does not update itself. ' +
  'New versions are on the releases page.';

/**
 * electron-updater (GitHub releases) behind the update service's plain engine. Only the wiring
 * lives here: the signature check and every decision are plain code (src-main/updates,
 * src-main/app/updates), tested in Node.
 */
export const electronUpdateSource = async (logger: Logger): Promise<UpdateSource> => {
  if (!app.isPackaged) return { disabled: NOT_A_RELEASE };
  // electron-builder writes the feed only into builds made by the release workflow.
  const feedFile = await readFile(join(process.resourcesPath, 'app-update.yml'), 'utf8').catch(
    () => null,
  );
  const feed = feedFile === null ? null : readUpdateFeed(feedFile);
  if (!feed) return { disabled: NOT_A_RELEASE };

  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = false;
  autoUpdater.allowPrerelease = false;
  autoUpdater.allowDowngrade = false;
  autoUpdater.logger = {
    info: (message?: unknown) => logger.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => logger.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => logger.error(`updater: ${String(message)}`),
    debug: () => undefined,
  };
  const manifest = manifestFileName(process.platform, process.arch);

  return {
    engine: {
      check: async () => {
        const result = await autoUpdater.checkForUpdates();
        if (!result?.isUpdateAvailable) return null;
        const info = result.updateInfo;
        return {
          version: info.version,
          files: info.files.map(({ url, sha512 }) => ({ url, sha512 })),
          releaseNotes: info.releaseNotes ?? null,
        };
      },
      download: async (onProgress) => {
        const listener = (progress: ProgressInfo) => onProgress(progress.percent);
        autoUpdater.on('download-progress', listener);
        try {
          const [file] = await autoUpdater.downloadUpdate();
          if (!file) throw new Error('the updater downloaded no file');
          return file;
        } finally {
          autoUpdater.removeListener('download-progress', listener);
        }
      },
      // Closes the window (before-quit: keys wiped, sandbox stopped), installs, starts again.
      install: () => autoUpdater.quitAndInstall(false, true),
    },
    signedManifest: (version) =>
      fetchSignedManifest({
        url: releaseFileUrl(feed, version, manifest),
        publicKeys: UPDATE_PUBLIC_KEYS,
        fetch: (url, init) => net.fetch(url, init),
      }),
  };
};
