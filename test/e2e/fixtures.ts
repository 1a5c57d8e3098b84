import { test as base } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../harness/server';

/** Each test gets a fresh harness (app services + built renderer) with its own data folder. */
export const test = base.extend<{ harness: Harness }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a test asks for from this pattern
  harness: async ({}, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-'));
    const harness = await startHarness({ dataDir });
    // The app starts on the embedded sandbox exchange, as it does for a new user.
    await harness.services.sandbox;
    await use(harness);
    await harness.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
