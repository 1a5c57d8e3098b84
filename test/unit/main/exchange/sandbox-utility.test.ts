import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../src-main/log';
import {
  SANDBOX_SERVICE_NAME,
  startEmbeddedSandbox,
  utilityProcessLauncher,
  type UtilityProcessApi,
  type UtilityProcessChild,
} from '../../../../src-main/exchange';
import { ErrorCode } from '../../../../src-shared/errors';

const root = resolve(import.meta.dirname, '../../../..');
const host = join(root, 'src-main/exchange/sandbox-host.ts');
const sourceProgram = join(root, 'src-sandbox/cli.ts');

const folders: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cs-utility-'));
  folders.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A stand-in for Electron's utilityProcess that runs the module in Node, the way a utility
 * process does: no stdin, stdout and stderr piped, `exit` with a code, `kill()` sends SIGTERM.
 */
const nodeBackedUtility = () => {
  const forks: Array<{ modulePath: string; args: string[]; options: object }> = [];
  const api: UtilityProcessApi = {
    fork: (modulePath, args, options) => {
      forks.push({ modulePath, args, options });
      const child = spawn(process.execPath, ['--import', 'tsx', modulePath, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: options.env ?? process.env,
      });
      const events = new EventEmitter();
      child.once('exit', (code, signal) => events.emit('exit', code ?? (signal ? 1 : 0)));
      return Object.assign(events, {
        get pid() {
          return child.exitCode === null && child.signalCode === null ? child.pid : undefined;
        },
        stdout: child.stdout,
        stderr: child.stderr,
        kill: () => child.kill('SIGTERM'),
      });
    },
  };
  return { api, forks };
};

describe('the embedded sandbox in an Electron utility process', () => {
  it('runs the program through the host with the app as its parent, and stops on request', async () => {
    const utility = nodeBackedUtility();
    const dataDir = join(await tempDir(), 'sandbox');
    const sandbox = await startEmbeddedSandbox({
      ...utilityProcessLauncher(utility.api, { host, program: sourceProgram }),
      dataDir,
      logger: silentLogger,
    });
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Its admin routes open only with the token it announced.
    expect((await fetch(`${sandbox.url}/sandbox/network`)).status).toBe(401);
    const network = await fetch(`${sandbox.url}/sandbox/network`, {
      headers: { 'x-sandbox-token': sandbox.adminToken ?? '' },
    });
    expect(network.status).toBe(200);

    expect(utility.forks).toEqual([
      {
        modulePath: host,
        args: [
          '--parent-pid',
          String(process.pid),
          '--program',
          sourceProgram,
          '--',
          '--port',
          '0',
          '--data-dir',
          dataDir,
        ],
        options: { stdio: 'pipe', serviceName: SANDBOX_SERVICE_NAME },
      },
    ]);
    // Nothing asks Electron to run as plain Node (its fuse is off in the installed app).
    expect(JSON.stringify(utility.forks)).not.toContain('ELECTRON_RUN_AS_NODE');

    await sandbox.stop();
    expect(isAlive(sandbox.pid)).toBe(false);
    await expect(fetch(`${sandbox.url}/sandbox/network`)).rejects.toThrow();
  });

  it('ends when the app dies, even by kill -9, though it has no stdin to watch', async () => {
    const dataDir = await tempDir();
    const modules = {
      exchange: join(root, 'src-main/exchange/index.ts'),
      fake: new URL(import.meta.url).pathname,
    };
    // A stand-in for the app's main process: starts the sandbox through a utility process that,
    // like Electron's, has no stdin, reports it, then waits to be killed.
    const app = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { spawn } from 'node:child_process';
         import { EventEmitter } from 'node:events';
         const { startEmbeddedSandbox, utilityProcessLauncher } = await import(${JSON.stringify(modules.exchange)});
         const utility = { fork: (modulePath, args) => {
           const child = spawn(process.execPath, ['--import', 'tsx', modulePath, ...args],
             { stdio: ['ignore', 'pipe', 'pipe'] });
           const events = new EventEmitter();
           child.once('exit', (code) => events.emit('exit', code ?? 1));
           return Object.assign(events, { pid: child.pid, stdout: child.stdout,
             stderr: child.stderr, kill: () => child.kill() });
         } };
         const quiet = { info() {}, warn() {}, error() {} };
         const sandbox = await startEmbeddedSandbox({
           ...utilityProcessLauncher(utility, { host: ${JSON.stringify(host)}, program: ${JSON.stringify(sourceProgram)} }),
           dataDir: ${JSON.stringify(dataDir)}, logger: quiet });
         console.log(JSON.stringify({ pid: sandbox.pid, url: sandbox.url, token: sandbox.adminToken }));
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(createInterface({ input: app.stdout }), 'line')) as [string];
    const { pid, url, token } = JSON.parse(line) as { pid: number; url: string; token: string };
    const network = await fetch(`${url}/sandbox/network`, {
      headers: { 'x-sandbox-token': token },
    });
    expect(network.status).toBe(200);

    app.kill('SIGKILL');
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000 });
  });

  it('gives up on a program that never announces itself, and ends its process', async () => {
    const dir = await tempDir();
    const program = join(dir, 'silent.mjs');
    await writeFile(program, 'setInterval(() => {}, 1000);\n');
    const utility = nodeBackedUtility();
    let pid: number | undefined;
    const launcher = utilityProcessLauncher(utility.api, { host, program });
    const failing = startEmbeddedSandbox({
      launch: (args) => {
        const child = launcher.launch(args);
        setTimeout(() => (pid = child.pid), 200);
        return child;
      },
      dataDir: dir,
      logger: silentLogger,
      startTimeoutMs: 1_500,
    });
    await expect(failing).rejects.toThrow(/did not answer in time/);
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isAlive(pid ?? -1)).toBe(false));
  });

  it('says in words, without file paths, when the program cannot be loaded', async () => {
    const dir = await tempDir();
    const utility = nodeBackedUtility();
    const failing = startEmbeddedSandbox({
      ...utilityProcessLauncher(utility.api, { host, program: join(dir, 'missing.js') }),
      dataDir: dir,
      logger: silentLogger,
    });
    const error = await failing.catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ErrorCode.Network,
      message: expect.stringMatching(
        /did not start \(it stopped with code 2: sandbox host: the sandbox program could not be loaded\)/,
      ),
    });
    expect((error as Error).message).not.toContain(dir);
  });

  it('reports a utility process that Electron could not run', async () => {
    const fake = new EventEmitter() as EventEmitter & UtilityProcessChild;
    Object.assign(fake, {
      pid: undefined,
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      kill: vi.fn(() => true),
    });
    const failing = startEmbeddedSandbox({
      ...utilityProcessLauncher({ fork: () => fake }, { host, program: sourceProgram }),
      dataDir: await tempDir(),
      logger: silentLogger,
    });
    await vi.waitFor(() => expect(fake.listenerCount('error')).toBeGreaterThan(0));
    fake.emit('error', 'FatalError', 'v8::Isolate');
    await expect(failing).rejects.toThrow(
      /practice exchange did not start \(its process failed: FatalError\)/,
    );
  });

  it('stops with SIGKILL by process id when the program ignores the request to stop', async () => {
    const dir = await tempDir();
    const program = join(dir, 'stubborn.mjs');
    await writeFile(
      program,
      `process.on('SIGTERM', () => {});
       console.log(JSON.stringify({ url: 'http://127.0.0.1:1' }));
       setInterval(() => {}, 1000);\n`,
    );
    const sandbox = await startEmbeddedSandbox({
      ...utilityProcessLauncher(nodeBackedUtility().api, { host, program }),
      dataDir: dir,
      logger: silentLogger,
      stopTimeoutMs: 300,
    });
    expect(isAlive(sandbox.pid)).toBe(true);
    await sandbox.stop();
    expect(isAlive(sandbox.pid)).toBe(false);
  });
});
