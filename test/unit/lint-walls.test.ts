import { ESLint } from 'eslint';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The house plan's walls between processes are lint rules; these prove they hold. */
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

const restrictedImports = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
};

describe('the walls of the house', () => {
  it.each([
    ['src-renderer/src/x.ts', "import { createAppServices } from '../../src-main/app';"],
    ['src-renderer/src/x.ts', "import { startSandbox } from '../../src-sandbox';"],
    ['src-renderer/src/x.ts', "import { readFile } from 'node:fs';"],
    ['src-renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['src-preload/x.ts', "import { createAppServices } from '../src-main/app';"],
    ['src-preload/x.ts', "import { startSandbox } from '../src-sandbox';"],
    ['src-sandbox/x.ts', "import { ErrorCode } from '../src-shared/errors';"],
    ['src-sandbox/x.ts', "import { createAppServices } from '../src-main/app';"],
    ['src-shared/x.ts', "import { readFile } from 'node:fs';"],
    ['src-shared/x.ts', "import { app } from 'electron';"],
    ['src-main/app/x.ts', "import { app } from 'electron';"],
    ['src-main/wallet/x.ts', "import { safeStorage } from 'electron';"],
    ['src-main/signing/x.ts', "import { SessionService } from '../app/session/service';"],
    ['src-main/exchange/x.ts', "import { createAppServices } from '../app';"],
    ['src-main/store/x.ts', "import type { Settings } from '../app/settings/service';"],
    ['src-main/chain/x.ts', "import { safeStorage } from 'electron';"],
    ['src-main/app/updates/x.ts', "import electronUpdater from 'electron-updater';"],
    ['src-main/updates/x.ts', "import { net } from 'electron';"],
  ])(
    '%s may not: %s',
    async (file, code) => {
      expect(await restrictedImports(file, `${code}\nexport {};\n`)).toHaveLength(1);
    },
    // The first case starts ESLint with type information: about 20 s on a busy machine.
    60_000,
  );

  it.each([
    ['src-main/index.ts', "import { app } from 'electron';"],
    ['src-main/window.ts', "import { BrowserWindow } from 'electron';"],
    ['src-main/ipc.ts', "import type { IpcMain } from 'electron';"],
    ['src-main/updater.ts', "import { net } from 'electron';"],
    ['src-main/updater.ts', "import electronUpdater from 'electron-updater';"],
    ['src-preload/index.ts', "import { contextBridge } from 'electron';"],
    ['src-renderer/src/x.ts', "import { ErrorCode } from '../../src-shared/errors';"],
    ['src-main/app/x.ts', "import { ErrorCode } from '../../src-shared/errors';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restrictedImports(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});

describe('no import cycles', () => {
  it('a cycle between two modules is an error, wherever it is', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const dir = await mkdtemp(join(root, 'src-main', 'cycle-probe-'));
    try {
      const a = join(dir, 'a.ts');
      const b = join(dir, 'b.ts');
      await writeFile(a, "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
      await writeFile(b, "import { a } from './a';\nexport const b = (): number => a() - 1;\n");
      const results = await eslint.lintFiles([a, b]);
      const cycles = results
        .flatMap((r) => r.messages)
        .filter((m) => m.ruleId === 'import-x/no-cycle');
      expect(cycles.length).toBeGreaterThanOrEqual(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the source tree has none', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const results = await eslint.lintFiles(
      ['src-main', 'src-shared', 'src-sandbox', 'src-preload'].map((f) => join(root, f)),
    );
    const cycles = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map(() => r.filePath),
    );
    expect(cycles).toEqual([]);
  }, 120_000);
});
