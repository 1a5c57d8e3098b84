import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { OperationStep } from '../../src-shared/contract';

const CLI = resolve(import.meta.dirname, '../harness/cli.ts');

export interface HarnessProcess {
  /** Open this in the browser: it carries the run's token. */
  url: string;
  /** The embedded sandbox it started (it stops when this process dies, even by SIGKILL). */
  sandboxPid: number;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops it as Ctrl+C does, and waits for it and its sandbox to be gone. */
  stop(): Promise<void>;
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until a process is gone (a sandbox still holding its data folder cannot be replaced). */
export const gone = async (pid: number, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running`);
    await new Promise((done) => setTimeout(done, 100));
  }
};

/**
 * The browser harness in a process of its own (`test/harness/cli.ts`), so a test can kill it
 * the way a crash would and start it again on the same data folder and keychain. With `killAt`,
 * it kills itself with SIGKILL the moment an operation reaches that step.
 */
export const startHarnessProcess = (options: {
  dataDir: string;
  killAt?: OperationStep;
}): Promise<HarnessProcess> =>
  new Promise((ready, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--port',
        '0',
        '--data-dir',
        options.dataDir,
        ...(options.killAt ? ['--kill-at', options.killAt] : []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: process.env },
    );
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    const output: string[] = [];
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    let url = '';
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      output.push(line);
      url = /Countersign harness: open (\S+)/.exec(line)?.[1] ?? url;
      const sandbox = /Embedded sandbox exchange: \S+ \(process (\d+)\)/.exec(line);
      if (url && sandbox) {
        const sandboxPid = Number(sandbox[1]);
        ready({
          url,
          sandboxPid,
          exited,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
            await gone(sandboxPid);
          },
        });
      }
    });
    child.once('error', fail);
    void exited.then(({ code, signal }) => {
      if (!url) fail(new Error(`the harness ended (${signal ?? code}): ${output.join('\n')}`));
    });
  });
