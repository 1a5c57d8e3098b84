import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src-main/log';

const electron = vi.hoisted(() => ({
  app: { isPackaged: true },
  net: { fetch: vi.fn() },
}));

const updater = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  const autoUpdater = Object.assign(new EventEmitter(), {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    allowPrerelease: true,
    allowDowngrade: true,
    logger: null as unknown,
    checkForUpdates: vi.fn(),
    downloadUpdate: vi.fn(),
    quitAndInstall: vi.fn(),
  });
  return { autoUpdater };
});

vi.mock('electron', () => electron);
vi.mock('electron-updater', () => ({ default: updater }));

const { electronUpdateSource } = await import('../../../src-main/updater');

let resources: string;
const originalResourcesPath = process.resourcesPath;
beforeAll(async () => {
  resources = await mkdtemp(join(tmpdir(), 'cs-resources-'));
  Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true });
});
afterAll(async () => {
  Object.defineProperty(process, 'resourcesPath', {
    value: originalResourcesPath,
    configurable: true,
  });
  await rm(resources, { recursive: true, force: true });
});
beforeEach(async () => {
  vi.clearAllMocks();
  electron.app.isPackaged = true;
  await rm(join(resources, 'app-update.yml'), { force: true });
});

const withFeed = () =>
  writeFile(
    join(resources, 'app-update.yml'),
    'owner: countersign-app\nrepo: countersign\nprovider: github\n',
  );

const sourceOf = async () => {
  const source = await electronUpdateSource(silentLogger);
  if ('disabled' in source) throw new Error(`updates are off: ${source.disabled}`);
  return source;
};

describe('the electron-updater wiring', () => {
  it('is off in a development run and in a build without a release feed', async () => {
    electron.app.isPackaged = false;
    await withFeed();
    expect(await electronUpdateSource(silentLogger)).toMatchObject({
      disabled: expect.stringMatching(/not installed from a release/),
    });
    electron.app.isPackaged = true;
    await rm(join(resources, 'app-update.yml'));
    expect(await electronUpdateSource(silentLogger)).toMatchObject({
      disabled: expect.stringMatching(/does not update itself/),
    });
  });

  it('never downloads or installs on its own', async () => {
    await withFeed();
    await sourceOf();
    expect(updater.autoUpdater).toMatchObject({
      autoDownload: false,
      autoInstallOnAppQuit: false,
      allowPrerelease: false,
      allowDowngrade: false,
    });
  });

  it('hands over what electron-updater offers, and nothing when it offers nothing', async () => {
    await withFeed();
    const { engine } = await sourceOf();
    updater.autoUpdater.checkForUpdates.mockResolvedValueOnce({
      isUpdateAvailable: true,
      updateInfo: {
        version: '0.2.0',
        files: [{ url: 'a.AppImage', sha512: 'abc', size: 3 }],
        releaseNotes: '<p>new</p>',
      },
    });
    expect(await engine.check()).toEqual({
      version: '0.2.0',
      files: [{ url: 'a.AppImage', sha512: 'abc' }],
      releaseNotes: '<p>new</p>',
    });
    updater.autoUpdater.checkForUpdates.mockResolvedValueOnce({
      isUpdateAvailable: false,
      updateInfo: { version: '0.1.0', files: [] },
    });
    expect(await engine.check()).toBeNull();
    updater.autoUpdater.checkForUpdates.mockResolvedValueOnce(null);
    expect(await engine.check()).toBeNull();
  });

  it('reports download progress and the downloaded file, then stops listening', async () => {
    await withFeed();
    const { engine } = await sourceOf();
    updater.autoUpdater.downloadUpdate.mockImplementationOnce(async () => {
      updater.autoUpdater.emit('download-progress', { percent: 40 });
      return ['/cache/pending/a.AppImage'];
    });
    const progress = vi.fn();
    expect(await engine.download(progress)).toBe('/cache/pending/a.AppImage');
    expect(progress).toHaveBeenCalledWith(40);
    expect(updater.autoUpdater.listenerCount('download-progress')).toBe(0);
  });

  it('installs by quitting, so the app stops its services first, and starts again', async () => {
    await withFeed();
    const { engine } = await sourceOf();
    engine.install();
    expect(updater.autoUpdater.quitAndInstall).toHaveBeenCalledWith(false, true);
  });

  it('fetches the signed manifest of the release from GitHub through Electron', async () => {
    await withFeed();
    const { signedManifest } = await sourceOf();
    electron.net.fetch.mockResolvedValue(new Response('not found', { status: 404 }));
    await expect(signedManifest('0.2.0')).rejects.toMatchObject({ kind: 'unreachable' });
    const [url] = electron.net.fetch.mock.calls[0] as [string];
    expect(url).toMatch(
      /^https:\/\/github\.com\/countersign-app\/countersign\/releases\/download\/v0\.2\.0\/latest(-mac|-linux)?(-arm64)?\.yml$/,
    );
  });
});
