import type { ElectronApplication } from '@playwright/test';
import { rm } from 'node:fs/promises';
import { contract } from '../../src-shared/contract';
import { SANDBOX_SERVICE_NAME } from '../../src-main/exchange/sandbox-utility';
import { expect, isAlive, launchApp, test } from './fixtures';

/**
 * The Electron layer, checked in real Electron: what the unit tests can only check against a
 * mocked Electron. Run by `npm run test:electron` in the release workflow.
 */

test('the window’s web preferences hold in the running renderer', async ({ app, page }) => {
  expect(app.windows()).toHaveLength(1);
  // contextIsolation: contextBridge refuses to expose anything without it, so window.api
  // exists only in an isolated preload.
  expect(await page.evaluate(() => typeof (window as unknown as { api?: object }).api)).toBe(
    'object',
  );
  // nodeIntegration off (and in workers and subframes): no Node in the page.
  const nodeGlobals = await page.evaluate(() =>
    ['require', 'process', 'module', 'Buffer', 'global'].filter(
      (name) => typeof (globalThis as Record<string, unknown>)[name] !== 'undefined',
    ),
  );
  expect(nodeGlobals).toEqual([]);
  // webviewTag off: <webview> is an unknown element.
  expect(
    await page.evaluate(() => document.createElement('webview') instanceof HTMLUnknownElement),
  ).toBe(true);
  // devTools off: they do not open, even when main asks.
  const devTools = await app.evaluate(async ({ BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    window?.webContents.openDevTools({ mode: 'detach' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return window?.webContents.isDevToolsOpened();
  });
  expect(devTools).toBe(false);
  // sandbox: the renderer runs in the OS sandbox where Electron reports it (macOS, Windows).
  const renderers = await app.evaluate(({ app: electronApp }) =>
    electronApp
      .getAppMetrics()
      .filter((metric) => metric.type === 'Tab')
      .map((metric) => metric.sandboxed),
  );
  expect(renderers.length).toBeGreaterThan(0);
  for (const sandboxed of renderers) expect(sandboxed === undefined || sandboxed).toBe(true);
});

test('the page is our app:// origin, and the preload exposes exactly the contract', async ({
  page,
}) => {
  expect(page.url()).toMatch(/^app:\/\/countersign\//);
  const exposed = await page.evaluate(() => {
    const api = (window as unknown as { api: Record<string, unknown> }).api;
    return Object.fromEntries(
      Object.entries(api).map(([area, value]) => [
        area,
        typeof value === 'function' ? 'function' : Object.keys(value as object).sort(),
      ]),
    );
  });
  const expected = Object.fromEntries([
    ...Object.entries(contract).map(([area, ops]) => [area, Object.keys(ops).sort()]),
    ['on', 'function'],
  ]);
  expect(exposed).toEqual(expected);
});

test('the renderer has no require, no process, no Node globals and no Electron', async ({
  page,
}) => {
  const globals = await page.evaluate(() => {
    const scope = globalThis as Record<string, unknown>;
    return ['require', 'process', 'module', 'Buffer', 'global', 'ipcRenderer', 'electron'].map(
      (name) => [name, typeof scope[name]],
    );
  });
  for (const [name, type] of globals) expect(type, String(name)).toBe('undefined');
});

test('navigation away and new windows are refused', async ({ app, page }) => {
  const before = page.url();
  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(1_000);
  expect(page.url()).toBe(before);
  expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
  expect(await page.evaluate(() => window.open('app://countersign/') === null)).toBe(true);
  await page.waitForTimeout(500);
  expect(app.windows()).toHaveLength(1);
});

test('the content security policy blocks the renderer’s own network requests', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.effectiveDirective),
    );
    const outcomes = await Promise.all(
      ['https://example.com/', 'http://127.0.0.1:9/'].map((url) =>
        fetch(url).then(
          () => 'fetched',
          () => 'blocked',
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { outcomes, violations };
  });
  expect(result.outcomes).toEqual(['blocked', 'blocked']);
  expect(result.violations).toContain('connect-src');
});

const sandboxPids = (launched: { app: ElectronApplication }) =>
  launched.app.evaluate(
    ({ app }, name) =>
      app
        .getAppMetrics()
        .filter((metric) => metric.type === 'Utility' && metric.serviceName === name)
        .map((metric) => metric.pid),
    SANDBOX_SERVICE_NAME,
  );

test('the embedded sandbox starts with the app and stops when it quits', async () => {
  const launched = await launchApp();
  try {
    await expect.poll(() => sandboxPids(launched), { timeout: 30_000 }).toHaveLength(1);
    const [pid] = await sandboxPids(launched);
    expect(isAlive(pid ?? -1)).toBe(true);
    await launched.app.close();
    await expect.poll(() => isAlive(pid ?? -1), { timeout: 15_000 }).toBe(false);
  } finally {
    await launched.app.close().catch(() => undefined);
    await rm(launched.userData, { recursive: true, force: true });
  }
});

test('the embedded sandbox stops even when the app is killed', async () => {
  const launched = await launchApp();
  try {
    await expect.poll(() => sandboxPids(launched), { timeout: 30_000 }).toHaveLength(1);
    const [pid] = await sandboxPids(launched);
    launched.app.process().kill('SIGKILL');
    await expect.poll(() => isAlive(pid ?? -1), { timeout: 15_000 }).toBe(false);
  } finally {
    await rm(launched.userData, { recursive: true, force: true });
  }
});

test('the trading session locks when the machine goes to sleep', async ({ app, page }) => {
  const password = 'violet tractor sunrise';
  const phrase =
    'excess behave track soul table wear ocean cash stay nature item turtle palm soccer lunch ' +
    'horror start stumble month panic right must lock dress';
  const status = await page.evaluate(
    async ({ password, phrase }) => {
      const { api } = window as unknown as {
        api: {
          wallet: { restore(r: object): Promise<{ ok: boolean }> };
          session: {
            unlock(r: object): Promise<{ ok: boolean; value?: { state: string } }>;
          };
        };
      };
      const restored = await api.wallet.restore({ name: 'Main', words: phrase, password });
      const unlocked = await api.session.unlock({ password });
      return { restored: restored.ok, unlocked: unlocked.value?.state };
    },
    { password, phrase },
  );
  expect(status).toEqual({ restored: true, unlocked: 'unlocked' });

  await app.evaluate(({ powerMonitor }) => {
    powerMonitor.emit('suspend');
  });
  const after = await page.evaluate(() =>
    (
      window as unknown as {
        api: { session: { status(): Promise<{ value?: { state: string; lockReason?: string } }> } };
      }
    ).api.session.status(),
  );
  expect(after.value).toMatchObject({ state: 'locked', lockReason: 'suspend' });
});
