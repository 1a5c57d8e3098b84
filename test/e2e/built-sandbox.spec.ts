import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../../src-main/log';
import {
  startEmbeddedSandbox,
  utilityProcessLauncher,
  type UtilityProcessApi,
} from '../../src-main/exchange';

const built = (file: string) => resolve(import.meta.dirname, '../../out/main', file);

const servesTheSeed = async ({ url, adminToken }: { url: string; adminToken?: string }) => {
  // Its admin routes open only with the token it announced.
  expect(adminToken).toMatch(/^[0-9a-f]{64}$/);
  expect((await fetch(`${url}/sandbox/network`)).status).toBe(401);
  const network = await fetch(`${url}/sandbox/network`, {
    headers: adminToken ? { 'x-sandbox-token': adminToken } : {},
  });
  expect(network.status).toBe(200);
  const unauthorized = await fetch(`${url}/accounts/balance`);
  expect(unauthorized.status).toBe(401);
  expect(await unauthorized.json()).toMatchObject({ code: 4010 });
};

/**
 * The bundle the app starts (out/main/sandbox.js) works on its own: it starts from the build
 * output, not from the source tree.
 */
test('the built sandbox bundle starts, serves the seed and stops cleanly', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-built-sandbox-'));
  const sandbox = await startEmbeddedSandbox({
    command: process.execPath,
    args: [built('sandbox.js')],
    dataDir,
    logger: silentLogger,
  });
  try {
    await servesTheSeed(sandbox);
  } finally {
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * What Electron's main runs in its utility process: the built host (out/main/sandbox-host.js)
 * loading the built program, with no stdin, as a utility process has none.
 */
test('the built host runs the built sandbox as the utility process will', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-built-host-'));
  const utility: UtilityProcessApi = {
    fork: (modulePath, args) => {
      const child = spawn(process.execPath, [modulePath, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const events = new EventEmitter();
      child.once('exit', (code) => events.emit('exit', code ?? 1));
      return Object.assign(events, {
        pid: child.pid,
        stdout: child.stdout,
        stderr: child.stderr,
        kill: () => child.kill(),
      });
    },
  };
  const sandbox = await startEmbeddedSandbox({
    ...utilityProcessLauncher(utility, {
      host: built('sandbox-host.js'),
      program: built('sandbox.js'),
    }),
    dataDir,
    logger: silentLogger,
  });
  try {
    await servesTheSeed(sandbox);
  } finally {
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
