import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * What runs inside Electron's utility process before the sandbox program: it watches the app's
 * main process and stops the sandbox when the app is gone. (A Node child process watches its
 * stdin for that; a utility process has none.)
 */

export interface HostArgs {
  /** The app's main process. */
  parentPid: number;
  /** The sandbox program to run in this process. */
  program: string;
  /** Its arguments (`--port 0 --data-dir DIR`). */
  programArgs: string[];
}

/** `--parent-pid N --program FILE -- ARGS…` */
export const parseHostArgs = (argv: readonly string[]): HostArgs => {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { 'parent-pid': { type: 'string' }, program: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const parentPid = Number(values['parent-pid']);
  if (!Number.isSafeInteger(parentPid) || parentPid <= 0) {
    throw new Error('--parent-pid must be the process id of the app');
  }
  if (!values.program) throw new Error('--program must name the sandbox program');
  return { parentPid, program: values.program, programArgs: positionals };
};

/** True while a process with this id exists (EPERM: it exists but is not ours to signal). */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface WatchOptions {
  intervalMs?: number;
  isRunning?: (pid: number) => boolean;
  /** This process's parent right now (POSIX hands an orphan to another parent). */
  currentParent?: () => number;
}

/**
 * Calls `onGone` once, as soon as the app's process no longer exists or this process has been
 * handed to another parent. Returns a function that stops watching.
 */
export const watchParent = (
  parentPid: number,
  onGone: () => void,
  options: WatchOptions = {},
): (() => void) => {
  const running = options.isRunning ?? isRunning;
  const currentParent = options.currentParent ?? (() => process.ppid);
  const firstParent = currentParent();
  const timer = setInterval(() => {
    if (currentParent() === firstParent && running(parentPid)) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 500);
  // The watch alone must not keep this process alive.
  timer.unref();
  return () => clearInterval(timer);
};

/** Stops the sandbox the way SIGTERM does (a clean close of its journal), on every OS. */
export const stopThisProcess = (graceMs = 5_000): void => {
  if (process.listenerCount('SIGTERM') === 0) process.exit(0);
  process.emit('SIGTERM', 'SIGTERM');
  setTimeout(() => process.exit(0), graceMs);
};

/** Watches the app, then runs the sandbox program in this process with its own arguments. */
export const runSandboxHost = async (argv: readonly string[]): Promise<void> => {
  const { parentPid, program, programArgs } = parseHostArgs(argv);
  watchParent(parentPid, () => stopThisProcess());
  // The program reads its arguments from process.argv, as if it had been started on its own.
  process.argv = [process.execPath, program, ...programArgs];
  try {
    await import(pathToFileURL(program).href);
  } catch (error) {
    // The detail names files on this machine: it goes to the log as the cause, not to the trader.
    throw new Error('the sandbox program could not be loaded', { cause: error });
  }
};
