import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../src-main/log';
import {
  InFlight,
  REVIEW_HOLD_MS,
  UpdateService,
  updatesHandlers,
  type UpdateEngine,
  type UpdateOffer,
} from '../../../../src-main/app/updates';
import { fetchSignedManifest } from '../../../../src-main/updates';
import type { OperationStep, UpdateStatus } from '../../../../src-shared/contract';
import {
  manifestYaml,
  sha512Of,
  startUpdateServer,
  updateKeyPair,
} from '../../../fixtures/update-server';

const key = updateKeyPair();
const APPIMAGE = 'Countersign-0.2.0-linux-x86_64.AppImage';
const installer = Buffer.from('the real 0.2.0 installer');
const notes = 'Faster order book.\nDeposits show their confirmations.';
const manifest = manifestYaml('0.2.0', { [APPIMAGE]: installer }, notes);
const offer: UpdateOffer = {
  version: '0.2.0',
  files: [{ url: APPIMAGE, sha512: sha512Of(installer) }],
  releaseNotes: '<p>From the <b>release page</b></p>',
};

let server: Awaited<ReturnType<typeof startUpdateServer>>;
let dir: string;
beforeAll(async () => {
  server = await startUpdateServer({
    '/valid/v0.2.0/latest-linux.yml': manifest,
    '/valid/v0.2.0/latest-linux.yml.sig': key.sign(Buffer.from(manifest)),
    '/tampered/v0.2.0/latest-linux.yml': manifest.replace('Faster', 'Free money:'),
    '/tampered/v0.2.0/latest-linux.yml.sig': key.sign(Buffer.from(manifest)),
    '/unsigned/v0.2.0/latest-linux.yml': manifest,
  });
  dir = await mkdtemp(join(tmpdir(), 'cs-updates-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/** electron-updater's stand-in: offers a version, "downloads" the given bytes, installs. */
const fakeEngine = (offered: UpdateOffer | null, downloaded: Buffer = installer) => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.AppImage`);
  return {
    file,
    check: vi.fn<UpdateEngine['check']>(async () => offered),
    download: vi.fn<UpdateEngine['download']>(async (onProgress) => {
      onProgress(12.5);
      onProgress(100);
      await writeFile(file, downloaded);
      return file;
    }),
    install: vi.fn<UpdateEngine['install']>(),
  };
};

const serviceFor = (release: string, engine: UpdateEngine, inFlight = new InFlight()) => {
  const events: UpdateStatus[] = [];
  const service = new UpdateService({
    currentVersion: '0.1.0',
    source: {
      engine,
      signedManifest: (version) =>
        fetchSignedManifest({
          url: `${server.url}/${release}/v${version}/latest-linux.yml`,
          publicKeys: [key.publicKey],
        }),
    },
    inFlight,
    emit: (name, payload) => {
      if (name === 'updates:changed') events.push(payload as UpdateStatus);
    },
    logger: silentLogger,
    now: () => 1_700_000_000_000,
  });
  return { service, events };
};

describe('updates that pass the signature check', () => {
  it('are offered, downloaded in the background and then wait for the trader', async () => {
    const engine = fakeEngine(offer);
    const { service, events } = serviceFor('valid', engine);
    expect((await service.check()).state).toMatch(/available|downloading/);
    await vi.waitFor(() => expect(service.status().state).toBe('ready'));
    expect(service.status()).toEqual({
      state: 'ready',
      currentVersion: '0.1.0',
      availableVersion: '0.2.0',
      // The signed manifest's notes, not the release page's.
      releaseNotes: notes,
      progress: null,
      reason: null,
      checkedAt: 1_700_000_000_000,
    });
    expect(events.map((e) => e.state)).toEqual([
      'checking',
      'available',
      'downloading',
      'downloading',
      'downloading',
      'ready',
    ]);
    expect(events.map((e) => e.progress)).toEqual([null, null, 0, 12, 100, null]);
    // Nothing restarts by itself.
    expect(engine.install).not.toHaveBeenCalled();
  });

  it('install when the trader agrees', async () => {
    const engine = fakeEngine(offer);
    const { service } = serviceFor('valid', engine);
    await service.check();
    await vi.waitFor(() => expect(service.status().state).toBe('ready'));
    await service.install();
    expect(engine.install).toHaveBeenCalledTimes(1);
  });

  it('wait, once agreed, until no request of the trader is in flight', async () => {
    const engine = fakeEngine(offer);
    const inFlight = new InFlight();
    const { service } = serviceFor('valid', engine, inFlight);
    await service.check();
    await vi.waitFor(() => expect(service.status().state).toBe('ready'));

    let finishTrade: () => void = () => {};
    const dispatch = inFlight.wrap(
      () =>
        new Promise((resolve) => {
          finishTrade = () => resolve({ ok: true, value: null });
        }),
    );
    const trade = dispatch('trading:placeOrder', {});
    const status = await service.install();
    expect(status).toMatchObject({ state: 'ready', reason: expect.stringMatching(/as soon as/) });
    expect(engine.install).not.toHaveBeenCalled();

    finishTrade();
    await trade;
    await vi.waitFor(() => expect(engine.install).toHaveBeenCalledTimes(1));
  });

  it('wait, once agreed, until the trade under way has reached its last step', async () => {
    const engine = fakeEngine(offer);
    const inFlight = new InFlight();
    const { service } = serviceFor('valid', engine, inFlight);
    await service.check();
    await vi.waitFor(() => expect(service.status().state).toBe('ready'));

    const step = (operationId: string, next: OperationStep) =>
      inFlight.observe({
        operationId,
        kind: 'place-order',
        title: 'Buy 10 ADA',
        step: next,
        message: null,
        at: new Date().toISOString(),
      });
    // Signed and sent, the exchange not yet seen to take it: no request is in flight.
    step('order-1', 'submitting');
    step('order-1', 'verifying');
    expect((await service.install()).reason).toMatch(/as soon as/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(engine.install).not.toHaveBeenCalled();

    step('order-1', 'done');
    await vi.waitFor(() => expect(engine.install).toHaveBeenCalledTimes(1));
  });

  it('are refused at install time when the downloaded file changed since', async () => {
    const engine = fakeEngine(offer);
    const { service } = serviceFor('valid', engine);
    await service.check();
    await vi.waitFor(() => expect(service.status().state).toBe('ready'));
    await writeFile(engine.file, 'replaced by something else');
    const status = await service.install();
    expect(status.state).toBe('refused');
    expect(engine.install).not.toHaveBeenCalled();
  });
});

describe('updates that fail the signature check', () => {
  it.each([
    ['a manifest changed after signing', 'tampered', /failed Countersign’s signature check/],
    ['an unsigned manifest', 'unsigned', /without the signature Countersign requires/],
  ])('are refused and reported, never downloaded or installed: %s', async (_what, release, why) => {
    const engine = fakeEngine(offer);
    const { service, events } = serviceFor(release, engine);
    const status = await service.check();
    expect(status).toMatchObject({
      state: 'refused',
      availableVersion: '0.2.0',
      reason: expect.stringMatching(why),
    });
    expect(events.at(-1)?.state).toBe('refused');
    await service.download();
    await service.install();
    expect(engine.download).not.toHaveBeenCalled();
    expect(engine.install).not.toHaveBeenCalled();
  });

  it('are refused when the updater offers other files than the signed ones', async () => {
    const engine = fakeEngine({
      ...offer,
      files: [{ url: APPIMAGE, sha512: sha512Of(Buffer.from('a different installer')) }],
    });
    const { service } = serviceFor('valid', engine);
    expect((await service.check()).state).toBe('refused');
    expect(engine.download).not.toHaveBeenCalled();
  });

  it('are refused when the downloaded installer is not the signed one', async () => {
    const engine = fakeEngine(offer, Buffer.from('an installer someone swapped in'));
    const { service } = serviceFor('valid', engine);
    await service.check();
    await vi.waitFor(() => expect(service.status().state).toBe('refused'));
    expect(service.status().reason).toMatch(/does not match the signed release/);
    await service.install();
    expect(engine.install).not.toHaveBeenCalled();
  });
});

describe('checking', () => {
  it('finds nothing when nothing newer is published', async () => {
    for (const offered of [null, { ...offer, version: '0.1.0' }, { ...offer, version: '0.0.9' }]) {
      const engine = fakeEngine(offered);
      const { service } = serviceFor('valid', engine);
      expect(await service.check()).toMatchObject({ state: 'idle', availableVersion: null });
      expect(engine.download).not.toHaveBeenCalled();
    }
  });

  it('says so in words when the release server cannot be reached, and tries again', async () => {
    const engine = fakeEngine(offer);
    engine.check.mockRejectedValueOnce(new Error('net::ERR_INTERNET_DISCONNECTED'));
    const { service } = serviceFor('valid', engine);
    const failed = await service.check();
    expect(failed).toMatchObject({ state: 'failed', reason: expect.stringMatching(/try again/) });
    expect(failed.reason).not.toMatch(/ERR_/);
    expect((await service.check()).state).toMatch(/available|downloading/);
  });

  it('runs shortly after start and every few hours, and stops with the app', async () => {
    vi.useFakeTimers();
    const engine = fakeEngine(null);
    const { service } = serviceFor('valid', engine);
    service.start(1_000, 60_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(engine.check).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(engine.check).toHaveBeenCalledTimes(3);
    service.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(engine.check).toHaveBeenCalledTimes(3);
  });

  it('is off, and says why, in a copy that does not update itself', async () => {
    const service = new UpdateService({
      currentVersion: '0.1.0',
      source: { disabled: 'This copy runs from its sources.' },
      inFlight: new InFlight(),
      emit: () => {},
      logger: silentLogger,
    });
    const handlers = updatesHandlers(service);
    for (const call of [handlers.status, handlers.check, handlers.download, handlers.install]) {
      expect(await call(undefined)).toMatchObject({
        state: 'disabled',
        reason: 'This copy runs from its sources.',
        currentVersion: '0.1.0',
      });
    }
  });
});

describe('what holds back a restart', () => {
  const progress = (operationId: string, step: OperationStep) => ({
    operationId,
    kind: 'cancel-order' as const,
    title: 'Cancel order',
    step,
    message: null,
    at: '2026-01-01T00:00:00.000Z',
  });

  it('is every operation from build to its last step, whichever way it ends', () => {
    const inFlight = new InFlight();
    expect(inFlight.busy).toBe(false);
    for (const [id, end] of [
      ['a', 'done'],
      ['b', 'failed'],
      ['c', 'discarded'],
    ] as const) {
      for (const step of ['building', 'checking', 'signing', 'journaled', 'submitting'] as const) {
        inFlight.observe(progress(id, step));
        expect(inFlight.busy, `${id} ${step}`).toBe(true);
      }
      inFlight.observe(progress(id, end));
      expect(inFlight.busy, `${id} ${end}`).toBe(false);
    }
  });

  it('is a trade the trader is reviewing, until the review is abandoned', async () => {
    let now = 0;
    const inFlight = new InFlight(() => now);
    inFlight.observe(progress('a', 'awaiting-confirmation'));
    expect(inFlight.busy).toBe(true);
    vi.useFakeTimers();
    try {
      const idle = vi.fn();
      void inFlight.whenIdle().then(idle);
      now = REVIEW_HOLD_MS - 1;
      await vi.advanceTimersByTimeAsync(REVIEW_HOLD_MS - 1);
      expect(idle).not.toHaveBeenCalled();
      now = REVIEW_HOLD_MS;
      await vi.advanceTimersByTimeAsync(1);
      expect(idle).toHaveBeenCalledTimes(1);
      expect(inFlight.busy).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
