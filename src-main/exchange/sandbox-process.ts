import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import type { Logger } from '../log';

/**
 * The embedded sandbox exchange runs as its own program, in its own process: a crash there cannot
 * take the app (or its keys) with it. Two starters run it. The installed app uses Electron's
 * utility process (its fuses forbid running Electron as plain Node); the browser harness and the
 * tests use a Node child process. Both share what follows: a loopback URL announced on the first
 * line of output, a clear error when it does not start, and an end that follows the app's.
 */

/** A running sandbox program, as the starter needs it: what both kinds of process offer. */
export interface SandboxChild {
  /** Known once the process runs. */
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  hasExited(): boolean;
  /** Asks it to stop cleanly (SIGTERM: the sandbox closes its journal, then exits). */
  terminate(): void;
  /** Ends it at once. */
  forceKill(): void;
  /** Called once when it ends, whatever the cause. */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** Called when it could not be started at all. */
  onError(listener: (message: string) => void): void;
}

/** Starts the sandbox program with the given arguments (`--port 0 --data-dir DIR`). */
export interface SandboxLauncher {
  launch(args: readonly string[]): SandboxChild;
}

/** How to run the sandbox program as a Node child process (the harness runs the source). */
export interface SandboxCommand {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** A command for a Node child process, or a launcher (Electron's utility process). */
export type SandboxProgram = SandboxCommand | SandboxLauncher;

export type EmbeddedSandboxOptions = SandboxProgram & {
  /** The sandbox's journal and ledger live here (inside the app's data folder). */
  dataDir: string;
  logger: Logger;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Called if the sandbox ends on its own after it started. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
};

export interface EmbeddedSandbox {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly pid: number;
  /** The sandbox's admin credential for its `/sandbox/` endpoints, when it announces one. */
  readonly adminToken?: string;
  /** Something the sandbox wants the trader to know (plain text), when it says so. */
  readonly notice?: string;
  stop(): Promise<void>;
}

const isLoopbackHttp = (url: string): boolean => {
  const parsed = new URL(url);
  return (
    parsed.protocol === 'http:' &&
    parsed.hostname === '127.0.0.1' &&
    parsed.username === '' &&
    parsed.password === ''
  );
};

/**
 * The sandbox's first line of output: `{"url": "http://127.0.0.1:PORT"}`, and from newer
 * sandboxes also `"adminToken": "<64 hex>"` and an optional `"notice"` for the trader.
 */
export const Announcement = z.object({
  url: z.string().url().refine(isLoopbackHttp, 'the sandbox must listen on loopback'),
  adminToken: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .optional(),
  notice: z
    .string()
    .max(2000)
    // Plain text: no control characters besides line breaks and tabs.
    // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
    .refine((text) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text), 'plain text only')
    .optional(),
});
export type Announcement = z.infer<typeof Announcement>;

const notStarted = (detail: string) =>
  new AppError(
    ErrorCode.Network,
    `The built-in practice exchange did not start (${detail}). Restart Countersign; if it keeps ` +
      'failing, choose another network in Settings.',
  );

/** Runs the sandbox program as a Node child process (the harness, the tests). */
export const nodeChildLauncher = (command: SandboxCommand): SandboxLauncher => ({
  launch: (args) => {
    // stdin stays an open pipe: when this process dies, even by kill -9, it closes and the sandbox
    // stops itself (--exit-with-parent).
    const child = spawn(command.command, [...command.args, ...args, '--exit-with-parent'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: command.env ?? process.env,
      windowsHide: true,
    });
    return {
      get pid() {
        return child.pid;
      },
      stdout: child.stdout,
      stderr: child.stderr,
      hasExited: () => child.exitCode !== null || child.signalCode !== null,
      terminate: () => void child.kill('SIGTERM'),
      forceKill: () => void child.kill('SIGKILL'),
      onExit: (listener) => void child.once('exit', listener),
      onError: (listener) => void child.once('error', (error) => listener(error.message)),
    };
  },
});

const launcherOf = (program: SandboxProgram): SandboxLauncher =>
  'launch' in program ? program : nodeChildLauncher(program);

/**
 * Starts the embedded sandbox exchange on a random loopback port, with its data in the app's
 * data folder, and resolves once it has announced its URL.
 */
export const startEmbeddedSandbox = async (
  options: EmbeddedSandboxOptions,
): Promise<EmbeddedSandbox> => {
  await mkdir(options.dataDir, { recursive: true });
  const child = launcherOf(options).launch(['--port', '0', '--data-dir', options.dataDir]);

  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });

  let ready = false;
  let stopping = false;
  const exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
  child.onExit((code, signal) => exitListeners.forEach((listener) => listener(code, signal)));

  const announced = await new Promise<Announcement>((resolve, reject) => {
    let settled = false;
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!child.hasExited()) child.forceKill();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(notStarted('it did not answer in time')),
      options.startTimeoutMs ?? 20_000,
    );
    child.onError((message) => fail(notStarted(message)));
    exitListeners.push((code, signal) => {
      if (ready) return;
      const last = stderr.join('').trim().split('\n').at(-1) ?? '';
      fail(notStarted(`it stopped with ${signal ?? `code ${code}`}${last ? `: ${last}` : ''}`));
    });
    if (!child.stdout) return fail(notStarted('it has no output'));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      let parsed: Announcement;
      try {
        parsed = Announcement.parse(JSON.parse(line));
      } catch {
        return fail(notStarted('it printed something unexpected'));
      }
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ready = true;
      lines.close();
      resolve(parsed);
    });
  });

  exitListeners.push((code, signal) => {
    if (stopping) return;
    options.logger.error(
      `embedded sandbox exited (${signal ?? code})`,
      stderr.join('').slice(-2000),
    );
    options.onExit?.(code, signal);
  });
  child.stdout?.resume();
  options.logger.info(`embedded sandbox listening on ${announced.url}`);

  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.hasExited()) return resolve();
      exitListeners.push(() => resolve());
    });
  const within = (ms: number, promise: Promise<void>) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void promise.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  return {
    url: announced.url,
    pid: child.pid ?? -1,
    ...(announced.adminToken === undefined ? {} : { adminToken: announced.adminToken }),
    ...(announced.notice === undefined ? {} : { notice: announced.notice }),
    stop: async () => {
      stopping = true;
      if (child.hasExited()) return;
      const done = exited();
      child.terminate();
      if (!(await within(options.stopTimeoutMs ?? 5_000, done))) {
        child.forceKill();
        await within(2_000, done);
      }
    },
  };
};
