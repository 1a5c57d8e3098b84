import type { SandboxChild, SandboxLauncher } from './sandbox-process';

/**
 * The part of Electron's `utilityProcess` the sandbox needs. The Electron glue passes Electron's
 * own object (so this file stays plain Node); tests pass a stand-in.
 */
export interface UtilityProcessApi {
  fork(
    modulePath: string,
    args: string[],
    options: { stdio: 'pipe'; serviceName: string; env?: NodeJS.ProcessEnv },
  ): UtilityProcessChild;
}

export interface UtilityProcessChild {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** SIGTERM on POSIX; ends the process on Windows. */
  kill(): boolean;
  once(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'error', listener: (type: string) => void): unknown;
}

export interface UtilityProcessPaths {
  /** The bundled `sandbox-host.js`: watches the app, then runs the program in its process. */
  host: string;
  /** The bundled sandbox program (`sandbox.js`). */
  program: string;
}

/** How the sandbox's process is named in the OS's process list and in Electron's metrics. */
export const SANDBOX_SERVICE_NAME = 'Countersign sandbox exchange';

/**
 * Runs the sandbox program in an Electron utility process. A utility process has no stdin the
 * sandbox could watch for the app's end, so it runs through the host, which watches the app's
 * process id instead and stops the sandbox when the app is gone, even after kill -9.
 */
export const utilityProcessLauncher = (
  utility: UtilityProcessApi,
  paths: UtilityProcessPaths,
  env?: NodeJS.ProcessEnv,
): SandboxLauncher => ({
  launch: (args): SandboxChild => {
    const child = utility.fork(
      paths.host,
      ['--parent-pid', String(process.pid), '--program', paths.program, '--', ...args],
      { stdio: 'pipe', serviceName: SANDBOX_SERVICE_NAME, ...(env ? { env } : {}) },
    );
    let exited = false;
    let lastPid = child.pid;
    child.once('exit', () => {
      exited = true;
    });
    return {
      get pid() {
        // Electron forgets the pid once the process has exited; keep the last one known.
        lastPid = child.pid ?? lastPid;
        return lastPid;
      },
      stdout: child.stdout,
      stderr: child.stderr,
      hasExited: () => exited,
      terminate: () => void child.kill(),
      forceKill: () => {
        const pid = child.pid;
        if (pid === undefined) return void child.kill();
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      },
      onExit: (listener) => void child.once('exit', (code) => listener(code, null)),
      onError: (listener) =>
        void child.once('error', (type) => listener(`its process failed: ${type}`)),
    };
  },
});
