import { defineConfig } from '@playwright/test';

/**
 * `npm run test:electron`: the built app in real Electron, through Playwright's `_electron`.
 * It runs where Electron can be downloaded: the release workflow's macOS, Windows and Ubuntu
 * runners (Ubuntu under Xvfb with a private keyring). `npm test` never runs it:
 * playwright.config.ts only looks in test/e2e.
 */
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/electron',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env['CI']),
  retries: 0,
  timeout: 90_000,
  reporter: [['list']],
  use: { trace: 'retain-on-failure' },
});
