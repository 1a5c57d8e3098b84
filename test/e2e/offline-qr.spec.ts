import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startHarness } from '../harness/server';
import { seriousViolations } from './axe';
import { allShownCodes, browserWithCamera, codeOf, writeCameraVideo } from './fake-camera';
import { expect, test } from './fixtures';
import {
  addWatchOnlyFromUi,
  exchangeAda,
  goTo,
  openOfflineSigning,
  PASSWORD,
  shoot,
  vectorAccountKey,
} from './wallet-steps';

/**
 * Offline signing with no file carried: the online app shows the deposit as QR codes, the offline
 * computer's camera scans them, it shows the signature as a QR code, and the online app's camera
 * scans that. Each camera is a Chromium whose fake capture device plays what the other page drew.
 */
test('a watch-only wallet deposits through its offline device by QR codes, both ways, with the camera', async ({
  page,
  harness,
}, testInfo) => {
  test.setTimeout(240_000);
  const browsers: Browser[] = [];
  const withCamera = async (video: string, url: string): Promise<Page> => {
    const browser = await browserWithCamera(video);
    browsers.push(browser);
    const context = await browser.newContext({
      viewport: page.viewportSize(),
      permissions: ['camera'],
    });
    const opened = await context.newPage();
    await opened.goto(url);
    return opened;
  };

  // The online computer: a watch-only wallet reviews a deposit and shows it as QR codes.
  await page.goto(harness.url);
  await addWatchOnlyFromUi(page, 'Cold', await vectorAccountKey());
  await page.getByRole('button', { name: 'See your funds' }).click();
  const form = page.getByRole('form', { name: 'Deposit' });
  await form.getByRole('textbox', { name: 'ADA' }).fill('15');
  await form.getByRole('button', { name: 'Review deposit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your deposit' });
  await expect(dialog.getByTestId('intent-check')).toContainText('Matches what you asked');
  const steps = dialog.getByRole('region', { name: 'Sign it on your offline device' });
  await steps.getByRole('button', { name: 'Show QR codes' }).click();
  const txCodes = steps.getByRole('figure', { name: 'QR codes of the deposit’s transaction' });
  await expect(txCodes.getByRole('img', { name: /^QR code 1 of \d+$/ })).toBeVisible();
  // The codes turn by themselves, for a camera held in front of them.
  await expect(txCodes.getByRole('img', { name: /^QR code 2 of \d+$/ })).toBeVisible();
  await txCodes.scrollIntoViewIfNeeded();
  await shoot(page, 'offline-qr-transaction');
  expect(await seriousViolations(page, 'transaction as QR codes')).toEqual([]);
  const shown = await allShownCodes(txCodes);
  expect(shown.length).toBeGreaterThan(1);
  // Away at the offline computer meanwhile: the deposit waits in Funds.
  await dialog.getByRole('button', { name: 'Keep for later' }).click();
  await expect(dialog).toHaveCount(0);

  const offlineDir = await mkdtemp(join(tmpdir(), 'countersign-offline-'));
  const offline = await startHarness({ dataDir: offlineDir });
  try {
    // The offline computer films the online screen's codes, and shows the signature's code.
    const txVideo = testInfo.outputPath('transaction-codes.y4m');
    await writeCameraVideo(txVideo, shown);
    const there = await withCamera(txVideo, offline.url);
    const signing = await openOfflineSigning(there);
    await signing.getByRole('button', { name: 'Scan QR codes with the camera' }).click();
    const goes = signing.getByRole('region', { name: 'Where it goes' });
    await expect(goes.getByRole('row', { name: /Not yours .* 15 ADA/ })).toHaveCount(1, {
      timeout: 30_000,
    });
    // Read: the camera is off again.
    await expect(signing.getByRole('button', { name: 'Stop the camera' })).toHaveCount(0);
    await signing.getByLabel('Spending password').fill(PASSWORD);
    // It came by QR codes, so the signature goes back the same way unless the trader chooses.
    await signing.getByLabel('Spending password').press('Enter');
    const witnessCode = signing.getByRole('figure', { name: 'QR code of the signature' });
    await expect(witnessCode.getByRole('img', { name: 'QR code' })).toBeVisible();
    await witnessCode.scrollIntoViewIfNeeded();
    await shoot(there, 'offline-qr-signed');
    expect(await seriousViolations(there, 'signature as a QR code')).toEqual([]);
    const signature = await allShownCodes(witnessCode);

    // Back online: the same app (its main process holds the deposit) in a browser whose camera
    // films the offline screen's code.
    const witnessVideo = testInfo.outputPath('signature-code.y4m');
    await writeCameraVideo(witnessVideo, signature);
    const online = await withCamera(witnessVideo, harness.url);
    await goTo(online, 'Funds');
    await online.getByRole('button', { name: 'Load the signature: Deposit 15 ADA' }).click();
    const again = online.getByRole('dialog', { name: 'Confirm your deposit' });
    const back = again.getByRole('region', { name: 'Sign it on your offline device' });
    await back.getByRole('button', { name: 'Scan the signature’s QR code' }).click();
    await expect(back.getByRole('status').last()).toContainText('The signature’s QR code is read', {
      timeout: 30_000,
    });
    await shoot(online, 'offline-qr-scanned');
    await again.getByRole('button', { name: 'Check signature and deposit' }).click();
    await expect(again).toHaveCount(0, { timeout: 30_000 });
    await expect(exchangeAda(online)).toHaveText('15', { timeout: 60_000 });
  } finally {
    for (const browser of browsers) await browser.close();
    await offline.close();
    await rm(offlineDir, { recursive: true, force: true });
  }
});

test('a QR code from elsewhere is named for what it is, and the camera stops when told', async ({
  harness,
}, testInfo) => {
  test.setTimeout(120_000);
  const video = testInfo.outputPath('payment-link.y4m');
  await writeCameraVideo(video, [codeOf('https://pay.example/invoice?amount=1000')], {
    framesEach: 10,
  });
  const browser = await browserWithCamera(video);
  try {
    const context = await browser.newContext({ permissions: ['camera'] });
    const page = await context.newPage();
    await page.goto(harness.url);
    const signing = await openOfflineSigning(page);
    await signing.getByRole('button', { name: 'Scan QR codes with the camera' }).click();
    await expect(signing.getByRole('status')).toHaveText(
      'That QR code is not a Countersign transaction code. Show the camera the QR codes the online Countersign shows for your deposit or withdrawal.',
      { timeout: 30_000 },
    );
    await expect(signing.getByLabel('The camera’s picture')).toBeVisible();
    await signing.getByLabel('The camera’s picture').scrollIntoViewIfNeeded();
    await shoot(page, 'offline-qr-foreign-code');
    expect(await seriousViolations(page, 'scanning QR codes')).toEqual([]);
    // Nothing was read or signed; stopping turns the camera off.
    await expect(signing.getByRole('region', { name: 'Where it goes' })).toHaveCount(0);
    await signing.getByRole('button', { name: 'Stop the camera' }).click();
    await expect(signing.getByLabel('The camera’s picture')).toHaveCount(0);
    expect(
      await page.evaluate(() =>
        Array.from(document.querySelectorAll('video')).some((v) => v.srcObject !== null),
      ),
    ).toBe(false);
  } finally {
    await browser.close();
  }
});
