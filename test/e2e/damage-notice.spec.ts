import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../harness/server';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { PASSWORD, goTo, shoot, unlockFromStatusBar, VECTOR_PHRASE } from './wallet-steps';

const must = async (harness: Harness, channel: string, payload?: unknown): Promise<unknown> => {
  const result = await harness.services.dispatch(channel, payload);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
};

test('when the practice exchange’s data was damaged, the trader reads what happened and what to do, and doing it works', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-e2e-damage-'));
  let harness: Harness | undefined;
  try {
    // A wallet with its practice account, as a first run leaves it.
    harness = await startHarness({ dataDir });
    await harness.services.sandbox;
    await must(harness, 'wallet:restore', {
      name: 'Main',
      words: VECTOR_PHRASE,
      password: PASSWORD,
    });
    await must(harness, 'session:unlock', { password: PASSWORD });
    const { activeWalletId } = (await must(harness, 'wallet:list')) as { activeWalletId: string };
    await must(harness, 'wallet:joinExchange', { walletId: activeWalletId, password: PASSWORD });
    await harness.close();
    harness = undefined;

    // Between runs the practice exchange's saved data is damaged beyond repair.
    const folder = join(dataDir, 'sandbox');
    const files = (await readdir(folder)).filter((name) => name.includes('journal'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      await writeFile(join(folder, name), 'not a journal line\n{"kind": "start"}\n');
    }

    harness = await startHarness({ dataDir });
    await page.goto(harness.url);
    const notice = page.getByRole('alert').filter({
      has: page.getByRole('heading', { name: 'Some saved data could not be read' }),
    });
    await expect(notice).toContainText('a fresh practice exchange was started', {
      timeout: 30_000,
    });
    await expect(notice).toContainText('reset the practice exchange in Settings');
    await expect(notice).not.toContainText(dataDir);
    await shoot(page, 'practice-exchange-damaged');
    expect(await seriousViolations(page, 'repair notice')).toEqual([]);

    await unlockFromStatusBar(page);

    // What it says to do: reset the practice exchange in Settings, with the spending password.
    await notice.getByRole('button', { name: 'Open Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const reset = page.getByRole('form', { name: 'Reset the practice exchange' });
    await reset.getByLabel(/I understand/).check();
    await reset.getByLabel('Spending password').fill(PASSWORD);
    await reset.getByRole('button', { name: 'Reset the practice exchange' }).click();
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      'Practice exchange reset',
      { timeout: 30_000 },
    );
    await notice.getByRole('button', { name: 'Close this notice' }).click();
    await expect(notice).toBeHidden();

    // The wallet has a practice account and practice coins again, and the exchange answers.
    await goTo(page, 'Funds');
    await expect(page.getByRole('table', { name: 'Exchange balances' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(
      page.getByRole('table', { name: 'Wallet balance' }).getByRole('row', { name: /^ADA/ }),
    ).toContainText('10,000');
    await expect(page.getByRole('alert').filter({ hasText: 'No connection' })).toHaveCount(0);
    await shoot(page, 'practice-exchange-reset-after-damage');
  } finally {
    await harness?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
