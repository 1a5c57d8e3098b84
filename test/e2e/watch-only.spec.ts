import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitTransaction, transactionIdOf, witnessEnvelope } from '../../src-main/signing';
import { SigningKey } from '../../src-main/wallet/signing-key';
import { startHarness, type Harness } from '../harness/server';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import {
  addWatchOnlyFromUi,
  exchangeAda,
  openOfflineSigning,
  PASSWORD,
  shoot,
  VECTOR_ADDRESS,
  vectorAccountKey,
} from './wallet-steps';

/** The app's exports folder: where the harness's save dialog writes. */
const exportsOf = async (harness: Harness): Promise<string> =>
  join((await harness.services.handlers.app.info(undefined)).dataDir, 'exports');

test('a watch-only wallet deposits through its offline device: save the transaction, sign it there in Countersign, load the signature, see it credited', async ({
  page,
  harness,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);

  await page.goto(harness.url);
  await addWatchOnlyFromUi(page, 'Cold', await vectorAccountKey(), {
    screenshots: true,
  });
  await page.getByRole('button', { name: 'See your funds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Funds' })).toBeVisible();

  const note = page.getByRole('note', { name: 'Signed on your offline device' });
  await expect(note).toContainText('Cold is watch-only: its wallet key is on another device.');
  await expect(page.getByText(VECTOR_ADDRESS)).toBeVisible();
  const form = page.getByRole('form', { name: 'Deposit' });
  await form.getByRole('textbox', { name: 'ADA' }).fill('25');
  await shoot(page, 'funds-watch-only');
  expect(await seriousViolations(page, 'watch-only funds')).toEqual([]);
  await form.getByRole('button', { name: 'Review deposit' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog.getByTestId('intent-check')).toContainText('Matches what you asked');
  await expect(dialog).toContainText('Your wallet key (on your offline device)');
  await expect(dialog.getByLabel('Spending password')).toHaveCount(0);
  const steps = dialog.getByRole('region', { name: 'Sign it on your offline device' });
  const send = dialog.getByRole('button', { name: 'Check signature and deposit' });
  await expect(send).toBeDisabled();
  await steps.getByRole('button', { name: 'Save transaction…' }).click();
  await expect(steps.getByRole('status')).toContainText(/Saved as countersign-deposit-/);
  await steps.scrollIntoViewIfNeeded();
  await shoot(page, 'offline-signing-saved');
  expect(await seriousViolations(page, 'offline signing dialog')).toEqual([]);

  // The trader closes the dialog while away: the deposit waits in Funds, and the app is usable.
  await dialog.getByRole('button', { name: 'Keep for later' }).click();
  await expect(dialog).toHaveCount(0);
  const waiting = page.getByRole('list', {
    name: 'Deposits and withdrawals waiting for a signature',
  });
  await expect(waiting.getByRole('listitem')).toHaveCount(1);
  await expect(waiting).toContainText('Deposit 25 ADA');
  await shoot(page, 'funds-waiting-for-signature');

  const folder = await exportsOf(harness);
  const [saved] = (await readdir(folder)).filter((f) => f.endsWith('.unsigned.json'));
  const unsignedFile = join(folder, saved ?? '');
  const unsigned = JSON.parse(await readFile(unsignedFile, 'utf8')) as {
    type: string;
    cborHex: string;
  };
  expect(unsigned.type).toBe('Tx ConwayEra');

  // The offline computer: Countersign with the wallet restored from its recovery phrase.
  const offlineDir = await mkdtemp(join(tmpdir(), 'countersign-offline-'));
  const offline = await startHarness({ dataDir: offlineDir });
  const goodFile = testInfo.outputPath('cold.witness.json');
  try {
    const there = await browser.newPage({ viewport: page.viewportSize() });
    await there.goto(offline.url);
    const signing = await openOfflineSigning(there);
    await signing.getByLabel('Transaction file').setInputFiles(unsignedFile);
    // What it does, as far as a computer without the chain can tell: 25 ADA leave to an address
    // that is not the wallet's (this computer does not know the exchange's), the rest comes back.
    const goes = signing.getByRole('region', { name: 'Where it goes' });
    await expect(goes.getByRole('row', { name: /Not yours .* 25 ADA/ })).toHaveCount(1);
    await expect(goes.getByRole('row', { name: /Your wallet/ })).toHaveCount(1);
    await expect(signing).toContainText(/Leaves to addresses not yours\s*25 ADA/);
    await expect(signing.getByRole('alert')).toHaveCount(0);
    await signing.getByLabel('Spending password').fill(PASSWORD);
    await shoot(there, 'offline-computer-sign-file');
    expect(await seriousViolations(there, 'sign a transaction file')).toEqual([]);
    await signing.getByRole('button', { name: 'Sign and save signature…' }).click();
    await expect(signing.getByRole('status')).toContainText(/Signature saved as countersign-/);
    await shoot(there, 'offline-computer-signed');
    const offlineFolder = await exportsOf(offline);
    const [witness] = (await readdir(offlineFolder)).filter((f) => f.endsWith('.witness.json'));
    await writeFile(goodFile, await readFile(join(offlineFolder, witness ?? ''), 'utf8'));
    await there.close();
  } finally {
    await offline.close();
    await rm(offlineDir, { recursive: true, force: true });
  }

  // Another key's signature of the same transaction, for the refusal below.
  const stranger = new SigningKey(Buffer.alloc(64, 3));
  const wrongFile = testInfo.outputPath('other-key.witness.json');
  await writeFile(
    wrongFile,
    witnessEnvelope({
      vkey: stranger.publicKey,
      signature: stranger.sign(
        Buffer.from(transactionIdOf(splitTransaction(unsigned.cborHex).body), 'hex'),
      ),
    }),
  );

  // Back with the signature: the same dialog, the transaction read again, saved earlier.
  await waiting.getByRole('button', { name: 'Load the signature: Deposit 25 ADA' }).click();
  await expect(dialog.getByTestId('intent-check')).toContainText('Matches what you asked');
  await expect(steps).toContainText('It was handed out earlier');

  // A file signed with another key: said under the field, and another can be chosen.
  const input = steps.getByLabel(/Load the signed file/);
  await input.setInputFiles(wrongFile);
  await send.click();
  await expect(steps.getByRole('alert')).toContainText('is not signed by the key of “Cold”');
  // Brought into sight in the scrolling dialog: the answer to the click is not below the fold.
  await expect(steps.getByRole('alert')).toBeInViewport();
  await shoot(page, 'offline-signing-wrong-file');

  await input.setInputFiles(goodFile);
  await expect(steps).toContainText('cold.witness.json is ready');
  await shoot(page, 'offline-signing-loaded');
  await send.click();
  await expect(dialog).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText('Deposit submitted').first()).toBeVisible();
  // On its way, then credited: 25 ADA free on the exchange, and said so.
  await expect(exchangeAda(page)).toHaveText('25', { timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    'Deposit credited',
  );
  await expect(waiting).toHaveCount(0);
  await shoot(page, 'funds-watch-only-deposited');
});
