import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import type { Logger } from '../log';

/** How to run the sandbox program: Electron runs its bundled file, the harness runs the source. */
export interface SandboxCommand {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export interface EmbeddedSandboxOptions extends SandboxCommand {
  /** The sandbox's journal and ledger live here (inside the app's data folder). */
  dataDir: string;
  logger: Logger;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Called if the sandbox ends on its own after it started. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface EmbeddedSandbox {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** The per-run token of its admin routes (`x-sandbox-token`); only this process knows it. */
  readonly adminToken?: string;
  /** Set when its data was damaged and it started afresh: what happened, in plain words. */
  readonly notice?: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const Announcement = z.object({
  url: z
    .string()
    .url()
    .refine((url) => new URL(url).hostname === '127.0.0.1', 'the sandbox must listen on loopback'),
  adminToken: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  notice: z.string().max(2000).optional(),
});

const notStarted = (detail: string) =>
  new AppError(
    ErrorCode.Network,
    `The built-in practice exchange did not start (${detail}). Restart Countersign; if it keeps ` +
      'failing, choose another network in Settings.',
  );

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * Starts the embedded sandbox exchange as a child process on a random loopback port, with its
 * data in the app's data folder, and resolves once it has announced its URL. It is a separate
 * program: a crash there cannot take the app (or its keys) with it.
 */
export const startEmbeddedSandbox = async (
  options: EmbeddedSandboxOptions,
): Promise<EmbeddedSandbox> => {
  await mkdir(options.dataDir, { recursive: true });
  // stdin stays an open pipe: when this process dies, even by kill -9, it closes and the sandbox
  // stops itself (--exit-with-parent).
  const child = spawn(
    options.command,
    [...options.args, '--port', '0', '--data-dir', options.dataDir, '--exit-with-parent'],
    { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, windowsHide: true },
  );
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });

  let ready = false;
  const announced = await new Promise<z.infer<typeof Announcement>>((resolve, reject) => {
    const fail = (error: AppError) => {
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(
      () => fail(notStarted('it did not answer in time')),
      options.startTimeoutMs ?? 20_000,
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(notStarted(error.message));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) {
        const last = stderr.join('').trim().split('\n').at(-1) ?? '';
        reject(notStarted(`it stopped with ${signal ?? `code ${code}`}${last ? `: ${last}` : ''}`));
      }
    });
    if (!child.stdout) return fail(notStarted('it has no output'));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      let announced: z.infer<typeof Announcement>;
      try {
        announced = Announcement.parse(JSON.parse(line));
      } catch {
        return fail(notStarted('it printed something unexpected'));
      }
      ready = true;
      lines.close();
      resolve(announced);
    });
  });

  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    options.logger.error(
      `embedded sandbox exited (${signal ?? code})`,
      stderr.join('').slice(-2000),
    );
    options.onExit?.(code, signal);
  });
  child.stdout?.resume();
  const { url, adminToken, notice } = announced;
  options.logger.info(`embedded sandbox listening on ${url}`);
  if (notice) options.logger.warn(notice);

  return {
    url,
    ...(adminToken ? { adminToken } : {}),
    ...(notice ? { notice } : {}),
    pid: child.pid ?? -1,
    stop: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await waitForExit(child, options.stopTimeoutMs ?? 5_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 2_000);
      }
    },
  };
};
