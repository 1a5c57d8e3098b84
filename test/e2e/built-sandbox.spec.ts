import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../../src-main/log';
import { startEmbeddedSandbox } from '../../src-main/exchange';

/**
 * The bundle Electron's main starts (out/main/sandbox.js, run with ELECTRON_RUN_AS_NODE) works on
 * its own: it starts from the build output, not from the source tree.
 */
test('the built sandbox bundle starts, serves the seed and stops cleanly', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-built-sandbox-'));
  const sandbox = await startEmbeddedSandbox({
    command: process.execPath,
    args: [resolve(import.meta.dirname, '../../out/main/sandbox.js')],
    dataDir,
    logger: silentLogger,
  });
  try {
    const network = await fetch(`${sandbox.url}/sandbox/network`, {
      headers: sandbox.adminToken ? { 'x-sandbox-token': sandbox.adminToken } : {},
    });
    expect(network.status).toBe(200);
    const unauthorized = await fetch(`${sandbox.url}/accounts/balance`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: 4010 });
  } finally {
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
