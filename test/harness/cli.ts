import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleLogger } from '../../src-main/log';
import { OperationStep } from '../../src-shared/contract/operations';
import { startHarness } from './server';

/**
 * `npm run harness -- [--port N] [--data-dir DIR]`: the app in a browser, for development.
 * `--kill-at STEP` (crash tests only): the process kills itself with SIGKILL when an operation
 * reaches that step (`journaled`: signed and written down, not yet sent), like a crash.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5199' },
    'data-dir': { type: 'string' },
    'kill-at': { type: 'string' },
  },
});
const killAt = values['kill-at'] === undefined ? undefined : OperationStep.parse(values['kill-at']);

const KEYCHAIN_HOW_TO =
  'Wallets are sealed in the OS keychain (Secret Service on Linux), and this machine has no ' +
  'desktop session to provide one. Install dbus and gnome-keyring (apt-get install dbus ' +
  'gnome-keyring), then run `npm run harness` again: it starts its own private keychain session.';

const commandExists = (name: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/**
 * On a headless Linux machine there is no D-Bus session, hence no keychain: creating a wallet
 * would fail. Run again inside a private session with an unlocked, throwaway keyring (the one the
 * tests use), or say how to get one. Returns true when the child now runs the harness.
 */
const relaunchWithKeychain = (): boolean => {
  if (process.platform !== 'linux') return false;
  if (process.env['DBUS_SESSION_BUS_ADDRESS'] || process.env['COUNTERSIGN_KEYCHAIN'] === 'real') {
    return false;
  }
  if (!commandExists('dbus-run-session') || !commandExists('gnome-keyring-daemon')) {
    console.warn(`No keychain here. ${KEYCHAIN_HOW_TO}`);
    return false;
  }
  console.log(
    'No desktop keychain session: starting a private one for this run (its keyring is deleted ' +
      'when the harness stops, so wallets created now last for this run only).',
  );
  const script = resolve(import.meta.dirname, '../with-keychain.sh');
  // Its own process group, so a signal reaches the keychain session and the harness inside it.
  const child = spawn(
    'bash',
    [script, process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', detached: true },
  );
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, signal);
  };
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  process.on('SIGHUP', forward('SIGHUP'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return true;
};

if (!relaunchWithKeychain()) {
  const dataDir = values['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'countersign-harness-')));
  const harness = await startHarness({
    dataDir,
    port: Number(values.port),
    logger: consoleLogger('harness'),
    ...(killAt ? { killAt } : {}),
  });
  const sandbox = await harness.services.sandbox;
  console.log(`Countersign harness: open ${harness.url}`);
  if (sandbox) console.log(`Embedded sandbox exchange: ${sandbox.url} (process ${sandbox.pid})`);
  console.log(`Data folder: ${dataDir}`);

  const stop = () => {
    void harness.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
