import type { Locator, Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src-sandbox/index';
import { ErrorCode } from '../../src-shared/errors';
import { startHarness, type Harness } from '../harness/server';
import { expect, test } from './fixtures';
import { PASSWORD, createWalletFromUi, goTo, shoot, unlockFromStatusBar } from './wallet-steps';

/** A loopback port nothing listens on (taken, then released). */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
};

const networkPanel = (page: Page): Locator => page.getByRole('region', { name: 'Network' });

const typeAddress = async (page: Page, url: string, stream = ''): Promise<void> => {
  const panel = networkPanel(page);
  await panel.getByLabel('Exchange address').fill(url);
  await panel.getByLabel('Live stream address (optional)').fill(stream);
};

const switchButton = (page: Page): Locator =>
  networkPanel(page).getByRole('button', { name: 'Switch to Custom' });

test('a Custom network: bad addresses are refused in words, an unreachable one says so, the running exchange at its loopback address works with an API key', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // The practice exchange runs on its own here, so it keeps running when the app leaves the
  // Sandbox network (the app stops only the one it started itself).
  const sandboxDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-exchange-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-'));
  const sandbox = await startSandbox({ dataDir: sandboxDir, port: 0 });
  const harness = await startHarness({
    dataDir,
    sandbox: { url: sandbox.url, adminToken: sandbox.adminToken },
  });
  try {
    await run(page, harness, sandbox);
  } finally {
    await harness.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(sandboxDir, { recursive: true, force: true });
  }
});

const run = async (
  page: Page,
  harness: Harness,
  sandbox: { url: string; adminToken: string },
): Promise<void> => {
  await page.goto(harness.url);
  await createWalletFromUi(page);
  await page.getByRole('button', { name: 'Go to Trade' }).click();
  await goTo(page, 'Settings');
  await networkPanel(page)
    .getByRole('radio', { name: /^Custom/ })
    .check();
  await expect(switchButton(page)).toBeDisabled();

  // Each refusal says what is wrong; nothing can be switched to.
  const refusals: Array<[string, string, string]> = [
    ['exchange.example.com', '', 'That is not a web address.'],
    ['http://exchange.example.com', '', 'would send your API key in the clear'],
    ['ftp://exchange.example.com', '', 'Use an https address.'],
    ['https://me:secret@exchange.example.com', '', 'must not contain a user name or password'],
    ['https://exchange.example.com/?key=1', '', 'must not contain a query or a fragment'],
    [
      'https://exchange.example.com',
      'ws://stream.example.com',
      'would send your API key in the clear',
    ],
  ];
  for (const [url, stream, words] of refusals) {
    await typeAddress(page, url, stream);
    await expect(networkPanel(page)).toContainText(words);
    await expect(switchButton(page)).toBeDisabled();
    if (url === 'http://exchange.example.com') await shoot(page, 'custom-network-refused');
  }
  // Main refuses the same whatever asks it, and the network stays as it was.
  const refused = await harness.services.dispatch('settings:setNetwork', {
    network: { name: 'custom', baseUrl: 'http://exchange.example.com', networkId: 0 },
  });
  expect(refused.ok ? null : refused.error.code).toBe(ErrorCode.InvalidInput);
  expect(refused.ok ? '' : refused.error.message).toMatch(/in the clear/);
  expect(await harness.services.handlers.settings.get(undefined)).toMatchObject({
    network: { name: 'sandbox' },
  });

  // An address on this computer where nothing answers: accepted, and the screen says so.
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await typeAddress(page, `http://127.0.0.1:${await closedPort()}`);
  await switchButton(page).click();
  await expect(status).toContainText('Custom', { timeout: 15_000 });
  const offline = page.getByRole('alert').filter({ hasText: 'No connection to the exchange' });
  await expect(offline).toContainText('(Custom)', { timeout: 30_000 });
  await shoot(page, 'custom-network-unreachable');

  // The running exchange at its loopback address (http, and ws for its streams).
  await typeAddress(page, `${sandbox.url}/`, sandbox.url.replace(/^http/, 'ws'));
  await switchButton(page).click();
  await expect(offline).toBeHidden({ timeout: 30_000 });
  await expect(status).toContainText('Exchange: Live', { timeout: 30_000 });
  expect(await harness.services.handlers.settings.get(undefined)).toMatchObject({
    // Kept without the trailing slash.
    network: { name: 'custom', baseUrl: sandbox.url, networkId: 0 },
  });

  // API keys are per network: this one has none yet. The exchange issues one for the account
  // (here through the practice exchange's own admin route, as its website would).
  await unlockFromStatusBar(page);
  const { wallets } = await harness.services.handlers.wallet.list(undefined);
  const wallet = wallets[0];
  if (!wallet) throw new Error('no wallet');
  expect(wallet.apiKey).toBeNull();
  const { baseAddress } = await harness.services.handlers.wallet.addresses({});
  const issued = await fetch(`${sandbox.url}/sandbox/accounts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-sandbox-token': sandbox.adminToken,
    },
    body: JSON.stringify({ address: baseAddress, operation_key_hash: wallet.operationKeyHash }),
  });
  const { api_key: apiKey } = (await issued.json()) as { api_key: string };
  const access = page.getByRole('region', { name: 'API key' });
  await expect(access).toContainText('None saved for this network.');
  await access.getByLabel('API key').fill(apiKey);
  await access.getByLabel('Spending password').fill(PASSWORD);
  await access.getByRole('button', { name: 'Save API key' }).click();
  await expect(access).toContainText(`Saved: ••••${apiKey.slice(-4)}`, { timeout: 15_000 });
  await shoot(page, 'custom-network-settings');

  // The exchange's data now comes from the custom address: the book, and this account's funds.
  await goTo(page, 'Trade');
  await expect(page.getByRole('region', { name: 'Order book' })).toContainText(/\d\.\d{4}/, {
    timeout: 20_000,
  });
  await goTo(page, 'Funds');
  await expect(page.getByRole('table', { name: 'Exchange balances' })).toContainText('ADA', {
    timeout: 20_000,
  });
  await expect(status).toContainText('Exchange: Live');
  await shoot(page, 'custom-network-funds');
};
