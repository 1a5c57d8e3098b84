import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive the real renderer in Debian's Chromium through the browser harness
 * (never `playwright install`: nothing may be downloaded here). Electron-level specs would need
 * a separate config: Electron cannot run on these machines.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env['CI']),
  retries: 0,
  timeout: 30_000,
  reporter: process.env['CI'] ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 860 },
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'retain-on-failure',
  },
});
