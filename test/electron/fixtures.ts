import {
  _electron as electron,
  test as base,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface LaunchedApp {
  app: ElectronApplication;
  /** The app's window. */
  page: Page;
  userData: string;
}

/** Launches the built app on a fresh data folder and waits for its window. */
export const launchApp = async (): Promise<LaunchedApp> => {
  if (!existsSync(join(root, 'out/main/index.js'))) {
    throw new Error('Build the app first: npm run test:electron builds it.');
  }
  const userData = await mkdtemp(join(tmpdir(), 'countersign-electron-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // A dev server URL would put the app in development mode.
    if (value !== undefined && key !== 'ELECTRON_RENDERER_URL') env[key] = value;
  }
  const app = await electron.launch({
    args: [join(root, 'test/electron/main.mjs')],
    cwd: root,
    env: { ...env, COUNTERSIGN_TEST_USER_DATA: userData },
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page, userData };
};

export const test = base.extend<LaunchedApp>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a test asks for from this pattern
  app: async ({}, use) => {
    const launched = await launchApp();
    await use(launched.app);
    await launched.app.close().catch(() => undefined);
    await rm(launched.userData, { recursive: true, force: true });
  },
  page: async ({ app }, use) => {
    await use(await app.firstWindow());
  },
  userData: async ({ app }, use) => {
    await use(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData')));
  },
});

export { expect } from '@playwright/test';

/** True while a process with this id exists. */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};
