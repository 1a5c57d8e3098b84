import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../src-main/log';
import { startEmbeddedSandbox } from '../../../../src-main/exchange';
import { ErrorCode } from '../../../../src-shared/errors';
import { sourceSandboxCommand } from '../../../harness/sandbox-command';

const folders: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cs-embedded-'));
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

const node = (script: string) => ({ command: process.execPath, args: ['-e', script, '--'] });

describe('the embedded sandbox as a Node child process', () => {
  it('starts on a loopback port with its data in the given folder, and stops on request', async () => {
    const dataDir = join(await tempDir(), 'sandbox');
    const sandbox = await startEmbeddedSandbox({
      ...sourceSandboxCommand,
      dataDir,
      logger: silentLogger,
    });
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Its admin routes open only with the token it announced, which is recorded for the app.
    expect(sandbox.adminToken).toMatch(/^[0-9a-f]{64}$/);
    expect((await fetch(`${sandbox.url}/sandbox/network`)).status).toBe(401);
    const network = await fetch(`${sandbox.url}/sandbox/network`, {
      headers: sandbox.adminToken ? { 'x-sandbox-token': sandbox.adminToken } : {},
    });
    expect(network.status).toBe(200);
    expect((await readdir(dataDir)).length).toBeGreaterThan(0);

    await sandbox.stop();
    expect(isAlive(sandbox.pid)).toBe(false);
    await expect(fetch(`${sandbox.url}/sandbox/network`)).rejects.toThrow();
  });

  it('says in words when the program cannot start', async () => {
    const failing = startEmbeddedSandbox({
      ...node('process.stderr.write("port in use\\n"); process.exit(3)'),
      dataDir: await tempDir(),
      logger: silentLogger,
    });
    await expect(failing).rejects.toMatchObject({
      code: ErrorCode.Network,
      message: expect.stringMatching(/did not start \(it stopped with code 3: port in use\)/),
    });
  });

  it('refuses an announcement that is not a loopback URL', async () => {
    const failing = startEmbeddedSandbox({
      ...node(
        'console.log(JSON.stringify({url:"http://203.0.113.9:80"})); setInterval(()=>{},1e3)',
      ),
      dataDir: await tempDir(),
      logger: silentLogger,
    });
    await expect(failing).rejects.toThrow(/printed something unexpected/);
  });

  it('gives up on a program that never announces itself, and ends it', async () => {
    const dataDir = await tempDir();
    const pidFile = join(dataDir, 'pid');
    const failing = startEmbeddedSandbox({
      ...node(
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(()=>{},1e3)`,
      ),
      dataDir,
      logger: silentLogger,
      startTimeoutMs: 700,
    });
    await expect(failing).rejects.toThrow(/did not answer in time/);
    const pid = Number(await readFile(pidFile, 'utf8'));
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false));
  });

  it('kills a program that ignores SIGTERM when asked to stop', async () => {
    const sandbox = await startEmbeddedSandbox({
      ...node(
        'process.on("SIGTERM",()=>{}); console.log(JSON.stringify({url:"http://127.0.0.1:1"})); setInterval(()=>{},1e3)',
      ),
      dataDir: await tempDir(),
      logger: silentLogger,
      stopTimeoutMs: 300,
    });
    await sandbox.stop();
    expect(isAlive(sandbox.pid)).toBe(false);
  });

  it('ends when the app dies, even by kill -9, so no exchange is left running', async () => {
    const dataDir = await tempDir();
    const launcher = new URL('../../../../src-main/exchange/sandbox-process.ts', import.meta.url)
      .pathname;
    // A stand-in for the app's main process: starts the sandbox, reports it, then waits.
    const app = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { startEmbeddedSandbox } = await import(${JSON.stringify(launcher)});
         const quiet = { info() {}, warn() {}, error() {} };
         const sandbox = await startEmbeddedSandbox({ ...${JSON.stringify(sourceSandboxCommand)},
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

  it('takes the admin token and the notice a newer sandbox announces', async () => {
    const token = 'ab'.repeat(32);
    const sandbox = await startEmbeddedSandbox({
      ...node(
        `console.log(JSON.stringify({url:"http://127.0.0.1:1", adminToken:"${token}", notice:"Practice funds only."})); setInterval(()=>{},1e3)`,
      ),
      dataDir: await tempDir(),
      logger: silentLogger,
    });
    expect(sandbox).toMatchObject({ adminToken: token, notice: 'Practice funds only.' });
    await sandbox.stop();
  });

  it('reports a crash after start', async () => {
    const onExit = vi.fn();
    const sandbox = await startEmbeddedSandbox({
      ...node(
        'console.log(JSON.stringify({url:"http://127.0.0.1:1"})); setTimeout(()=>process.exit(9),100)',
      ),
      dataDir: await tempDir(),
      logger: silentLogger,
      onExit,
    });
    await vi.waitFor(() => expect(onExit).toHaveBeenCalledWith(9, null));
    await sandbox.stop();
  });
});
