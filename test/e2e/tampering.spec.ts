import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedSandbox } from '../../src-main/exchange/sandbox-process';
import { silentLogger } from '../../src-main/log';
import { startHarness } from '../harness/server';
import { sourceSandboxCommand } from '../harness/sandbox-command';
import { expect, test } from '@playwright/test';
import { startTamperingExchange } from './tampering-exchange';
import { createWalletFromUi, shoot } from './wallet-steps';

test('a deposit the exchange built differently from what was asked is refused, in words, and never signed', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-tamper-'));
  const sandbox = await startEmbeddedSandbox({
    ...sourceSandboxCommand,
    dataDir: join(dataDir, 'exchange'),
    logger: silentLogger,
  });
  const hostile = await startTamperingExchange(sandbox.url);
  const harness = await startHarness({
    dataDir: join(dataDir, 'app'),
    sandbox: {
      url: hostile.url,
      ...(sandbox.adminToken ? { adminToken: sandbox.adminToken } : {}),
    },
  });
  try {
    await page.goto(harness.url);
    await createWalletFromUi(page);
    await page.getByRole('button', { name: 'See your funds' }).click();
    const deposit = page.getByRole('form', { name: 'Deposit' });
    await deposit.getByLabel('ADA', { exact: true }).fill('10');
    await deposit.getByRole('button', { name: 'Review deposit' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
    const check = dialog.getByTestId('intent-check');
    await expect(check).toContainText('Does not match what you asked', { timeout: 20_000 });
    await expect(check).toContainText('Countersign will not sign this');
    expect(hostile.tampered).toBe(1);
    // No password field, no sign button: only discarding it.
    await expect(dialog.getByLabel('Spending password')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: /^Sign/ })).toHaveCount(0);
    await shoot(page, 'intent-mismatch');
    await dialog.getByRole('button', { name: 'Discard, do not sign' }).click();
    await expect(dialog).toBeHidden();

    // Nothing left the wallet and nothing reached the exchange.
    await expect(
      page.getByRole('list', { name: 'Deposits and withdrawals on their way' }),
    ).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Wallet balance' })).toContainText('10,000');
    await expect(
      page.getByRole('table', { name: 'Exchange balances' }).getByRole('row', { name: /^ADA/ }),
    ).toContainText('0');
  } finally {
    await harness.close();
    await hostile.close();
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
