import type { Locator, Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { gone, startHarnessProcess, type HarnessProcess } from './harness-process';
import {
  PASSWORD,
  createWalletFromUi,
  exchangeAda,
  goTo,
  shoot,
  unlockFromStatusBar,
  unlockInDialog,
} from './wallet-steps';

const PROMPT = 'Unfinished operations from last time';

const walletAda = (page: Page): Locator =>
  page
    .getByRole('table', { name: 'Wallet balance' })
    .getByRole('row', { name: /^ADA/ })
    .getByRole('cell')
    .first();

/** Confirms a deposit from the Funds screen; the harness dies once it is signed and journaled. */
const depositUntilTheCrash = async (page: Page, run: HarnessProcess, ada: string) => {
  const deposit = page.getByRole('form', { name: 'Deposit' });
  await deposit.getByLabel('ADA', { exact: true }).fill(ada);
  await deposit.getByRole('button', { name: 'Review deposit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await dialog.getByLabel('Spending password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign and deposit' }).click();
  // Killed (SIGKILL) between the journal write and the submit: the app's own crash path.
  expect(await run.exited).toMatchObject({ signal: 'SIGKILL' });
  // Its embedded exchange goes with it; the next start takes over the same data.
  await gone(run.sandboxPid);
};

const restart = async (
  page: Page,
  dataDir: string,
  killAt?: 'journaled',
): Promise<HarnessProcess> => {
  const run = await startHarnessProcess({ dataDir, ...(killAt ? { killAt } : {}) });
  await page.goto(run.url);
  return run;
};

test('a deposit signed but never sent before a crash is offered after the restart: submitted once, or discarded, never sent twice', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-crash-'));
  let run: HarnessProcess | undefined;
  try {
    // First run: a new wallet deposits 100 ADA, and the app dies before the submit.
    run = await startHarnessProcess({ dataDir, killAt: 'journaled' });
    await page.goto(run.url);
    await createWalletFromUi(page);
    await page.getByRole('button', { name: 'See your funds' }).click();
    await depositUntilTheCrash(page, run, '100');

    // Second run: it opens locked; the deposit is offered, known as never sent.
    run = await restart(page, dataDir, 'journaled');
    let prompt = page.getByRole('dialog', { name: PROMPT });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    const first = prompt.getByRole('listitem', { name: 'Deposit 100 ADA' });
    await expect(first).toContainText('Never reached the exchange');
    await expect(prompt).toContainText('Your wallet is locked');
    await expect(first.getByRole('button', { name: 'Submit now' })).toHaveCount(0);
    await shoot(page, 'crash-recovery-locked');
    expect(await seriousViolations(page, 'unfinished operations, locked')).toEqual([]);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    await unlockInDialog(page);
    prompt = page.getByRole('dialog', { name: PROMPT });
    await expect(prompt.getByRole('listitem', { name: 'Deposit 100 ADA' })).toContainText(
      'It was signed but never sent',
    );
    await shoot(page, 'crash-recovery-unlocked');
    await prompt.getByRole('button', { name: 'Submit now' }).click();
    await expect(prompt).toBeHidden({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      'Submitted after restart',
    );
    await goTo(page, 'Funds');
    await expect(exchangeAda(page)).toHaveText('100', { timeout: 60_000 });
    const walletAfterFirst = (await walletAda(page).textContent())?.trim() ?? '';
    // Grouped as the app groups amounts ("9,899.82").
    expect(Number(walletAfterFirst.replaceAll(',', ''))).toBeLessThan(9900);

    // A second deposit, and a second crash at the same point.
    await depositUntilTheCrash(page, run, '50');

    // Third run: only the second deposit is left (the first went through); it is discarded.
    run = await restart(page, dataDir);
    prompt = page.getByRole('dialog', { name: PROMPT });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt.getByRole('listitem')).toHaveCount(1);
    // Put off, it waits in the status bar and comes back from there.
    await prompt.getByRole('button', { name: 'Decide later' }).click();
    await expect(prompt).toBeHidden();
    const reopen = page
      .getByRole('contentinfo', { name: 'Status' })
      .getByRole('button', { name: 'Unfinished operations 1' });
    await shoot(page, 'crash-recovery-later');
    expect(await seriousViolations(page, 'unfinished operations put off')).toEqual([]);
    await reopen.click();
    await expect(prompt).toBeVisible();
    const second = prompt.getByRole('listitem', { name: 'Deposit 50 ADA' });
    await expect(second).toContainText('Never reached the exchange');
    await second.getByRole('button', { name: 'Discard' }).click();
    await expect(prompt).toBeHidden({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      'Removed from the unfinished list',
    );
    await expect(reopen).toHaveCount(0);
    await shoot(page, 'crash-recovery-discarded');
    await run.stop();

    // Fourth run: nothing is left to decide, and nothing was sent twice or sent after a discard.
    run = await restart(page, dataDir);
    await unlockFromStatusBar(page);
    await goTo(page, 'Funds');
    await expect(exchangeAda(page)).toHaveText('100', { timeout: 20_000 });
    // The discarded deposit's coin never left the wallet.
    await expect(walletAda(page)).toHaveText(walletAfterFirst);
    await expect(page.getByRole('dialog', { name: PROMPT })).toHaveCount(0);
    await shoot(page, 'crash-recovery-after');
  } finally {
    await run?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
