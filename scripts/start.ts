import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm start`: builds and starts the Electron app (electron-vite preview), once Electron's own
 * program is there. The electron package downloads it from GitHub on first use; where that
 * cannot happen, this says so in one sentence and points to the browser harness, instead of a
 * stack trace.
 */
export const ELECTRON_MISSING =
  'Countersign cannot start here because Electron’s program could not be downloaded from ' +
  'GitHub; run `npm run harness` to use the app in your browser instead.';

/** Electron's executable as electron-vite will look for it, or null when it is not there. */
export const installedElectron = (electronDir: string, env: NodeJS.ProcessEnv): string | null => {
  const override = env['ELECTRON_EXEC_PATH'];
  if (override) return existsSync(override) ? override : null;
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : null;
};

export interface StartOptions {
  /** The electron package's folder. */
  electronDir: string;
  env: NodeJS.ProcessEnv;
  /** One line for the person at the terminal. */
  say: (line: string) => void;
  /** Runs `electron-vite preview`; resolves with its exit code. */
  preview: () => Promise<number>;
}

/** Makes sure Electron is there (downloading it once if need be), then previews the app. */
export const start = async (options: StartOptions): Promise<number> => {
  if (!installedElectron(options.electronDir, options.env)) {
    options.say('Downloading Electron’s program (first start only)…');
    // Its output (a stack trace when GitHub cannot be reached) is kept from the terminal.
    spawnSync(process.execPath, [join(options.electronDir, 'install.js')], {
      env: options.env,
      stdio: 'ignore',
      timeout: 15 * 60 * 1000,
    });
  }
  if (!installedElectron(options.electronDir, options.env)) {
    options.say(ELECTRON_MISSING);
    return 1;
  }
  return options.preview();
};

const require = createRequire(import.meta.url);

const preview = (): Promise<number> => {
  const packageDir = dirname(require.resolve('electron-vite/package.json'));
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const child = spawn(
    process.execPath,
    [join(packageDir, bin['electron-vite'] ?? ''), 'preview', ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  start({
    electronDir: dirname(require.resolve('electron/package.json')),
    env: process.env,
    say: (line) => console.error(line),
    preview,
  }).then((code) => process.exit(code));
}
