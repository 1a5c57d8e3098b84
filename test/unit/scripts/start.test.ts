import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ELECTRON_MISSING, installedElectron, start } from '../../../scripts/start';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A stand-in for the electron package: its installer either fails like it does offline or works. */
const electronPackage = async (installer: 'fails' | 'works' | 'installed') => {
  const dir = await mkdtemp(join(tmpdir(), 'cs-electron-'));
  folders.push(dir);
  const install =
    installer === 'fails'
      ? `console.error('TypeError: fetch failed\\n    at FetchDownloader.download (file:///x.js:46:30)');
         process.exit(1);`
      : `const fs = require('fs'), path = require('path');
         fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
         fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), '');
         fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');`;
  await writeFile(join(dir, 'install.js'), install);
  if (installer === 'installed') {
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'dist', 'electron'), '');
    await writeFile(join(dir, 'path.txt'), 'electron');
  }
  return dir;
};

const run = async (electronDir: string, env: NodeJS.ProcessEnv = {}) => {
  const said: string[] = [];
  const preview = vi.fn(async () => 0);
  const code = await start({ electronDir, env, say: (line) => said.push(line), preview });
  return { code, said, preview };
};

describe('npm start', () => {
  it('says in one sentence that Electron is missing, points to the harness, and stops', async () => {
    const { code, said, preview } = await run(await electronPackage('fails'));
    expect(code).toBe(1);
    expect(said.at(-1)).toBe(ELECTRON_MISSING);
    expect(ELECTRON_MISSING).toMatch(/npm run harness/);
    // One sentence, no stack trace, no path.
    expect(ELECTRON_MISSING.split(/[.;]\s/).length).toBeLessThanOrEqual(2);
    expect(said.join('\n')).not.toMatch(/\bat |TypeError|file:\/\//);
    expect(preview).not.toHaveBeenCalled();
  });

  it('downloads Electron on first start where it can, then starts the app', async () => {
    const dir = await electronPackage('works');
    expect(installedElectron(dir, {})).toBeNull();
    const { code, preview } = await run(dir);
    expect(code).toBe(0);
    expect(preview).toHaveBeenCalledTimes(1);
    expect(installedElectron(dir, {})).toBe(join(dir, 'dist', 'electron'));
  });

  it('starts at once when Electron is already there', async () => {
    const { said, preview } = await run(await electronPackage('installed'));
    expect(said).toEqual([]);
    expect(preview).toHaveBeenCalledTimes(1);
  });

  it('honours ELECTRON_EXEC_PATH as electron-vite does', async () => {
    const dir = await electronPackage('fails');
    const executable = join(dir, 'my-electron');
    await writeFile(executable, '');
    expect(installedElectron(dir, { ELECTRON_EXEC_PATH: executable })).toBe(executable);
    expect(installedElectron(dir, { ELECTRON_EXEC_PATH: join(dir, 'nope') })).toBeNull();
  });
});
