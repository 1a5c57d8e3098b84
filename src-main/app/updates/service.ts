import type { EmitEvent, UpdateState, UpdateStatus } from '../../../src-shared/contract';
import {
  UpdateRefused,
  checkDownloadedFile,
  checkOffer,
  isNewerVersion,
  plainReleaseNotes,
  type OfferedUpdate,
  type UpdateManifest,
} from '../../updates';
import type { Logger } from '../../log';
import type { InFlight } from './in-flight';

/** A newer version the updater found, before anything is checked. */
export interface UpdateOffer extends OfferedUpdate {
  /** As the release feed gives them (HTML or text); shown only as plain text. */
  releaseNotes: string | ReadonlyArray<{ version: string; note: string | null }> | null;
}

/** What does the downloading and installing (electron-updater, in the Electron glue). */
export interface UpdateEngine {
  /** Asks the release feed; null when nothing newer is published. */
  check(): Promise<UpdateOffer | null>;
  /** Downloads the offered version; resolves with the downloaded installer's path. */
  download(onProgress: (percent: number) => void): Promise<string>;
  /** Quits the app and installs the downloaded version, then starts it again. */
  install(): void;
}

/** Where updates come from, or why this copy does not update itself. */
export type UpdateSource =
  | {
      engine: UpdateEngine;
      /** The release's manifest, fetched with its detached signature and verified. */
      signedManifest(version: string): Promise<UpdateManifest>;
    }
  | { disabled: string };

export interface UpdateServiceDeps {
  currentVersion: string;
  source: UpdateSource;
  /** The trader's requests in flight: an agreed restart waits until there are none. */
  inFlight: InFlight;
  emit: EmitEvent;
  logger: Logger;
  now?: () => number;
}

export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;
export const FIRST_CHECK_AFTER_MS = 30 * 1000;

const CHECK_FAILED =
  'Countersign could not look for updates (no connection to the release server?). It will try ' +
  'again later.';
const DOWNLOAD_FAILED =
  'The update could not be downloaded. Countersign will try again at the next check, or choose ' +
  'Download to try now.';
const WAITING =
  'Countersign will restart into the new version as soon as it has finished what it is doing.';

/**
 * The app's self-update: checks at start and every few hours, downloads in the background what
 * passed the signature check, and installs only when the trader agrees, between requests.
 */
export class UpdateService {
  #state: UpdateState;
  #reason: string | null;
  #available: string | null = null;
  #notes: string | null = null;
  #progress: number | null = null;
  #checkedAt: number | null = null;
  /** The offer that passed the signature check, and its signed manifest. */
  #verified: { offer: UpdateOffer; manifest: UpdateManifest } | null = null;
  #downloaded: string | null = null;
  #installAgreed = false;
  #timers: Array<ReturnType<typeof setTimeout>> = [];

  constructor(private readonly deps: UpdateServiceDeps) {
    const disabled = 'disabled' in deps.source ? deps.source.disabled : null;
    this.#state = disabled ? 'disabled' : 'idle';
    this.#reason = disabled;
  }

  status(): UpdateStatus {
    return {
      state: this.#state,
      currentVersion: this.deps.currentVersion,
      availableVersion: this.#available,
      releaseNotes: this.#notes,
      progress: this.#progress,
      reason: this.#reason,
      checkedAt: this.#checkedAt,
    };
  }

  /** Checks shortly after start, then every few hours. */
  start(firstAfterMs = FIRST_CHECK_AFTER_MS, everyMs = CHECK_EVERY_MS): void {
    if ('disabled' in this.deps.source || this.#timers.length > 0) return;
    const check = () => void this.check();
    this.#timers.push(setTimeout(check, firstAfterMs), setInterval(check, everyMs));
  }

  stop(): void {
    for (const timer of this.#timers.splice(0)) clearTimeout(timer);
  }

  async check(): Promise<UpdateStatus> {
    const source = this.deps.source;
    if ('disabled' in source) return this.status();
    // A check is under way, or a verified update is being fetched or waits for the trader.
    if (['checking', 'downloading', 'ready'].includes(this.#state)) return this.status();
    this.#set('checking');
    let offer: UpdateOffer | null;
    try {
      offer = await source.engine.check();
    } catch (error) {
      this.deps.logger.warn('update check failed', error);
      this.#checkedAt = this.#now();
      return this.#set('failed', CHECK_FAILED);
    }
    this.#checkedAt = this.#now();
    this.#verified = null;
    this.#downloaded = null;
    if (!offer || !isNewerVersion(offer.version, this.deps.currentVersion)) {
      this.#available = null;
      this.#notes = null;
      return this.#set('idle');
    }
    this.#available = offer.version;
    this.#notes = plainReleaseNotes(offer.releaseNotes);
    try {
      const manifest = await source.signedManifest(offer.version);
      checkOffer(offer, manifest);
      this.#verified = { offer, manifest };
      // The signed notes, when the release carries them, win over the feed's.
      this.#notes = plainReleaseNotes(manifest.releaseNotes) ?? this.#notes;
    } catch (error) {
      return this.#refuse(error);
    }
    this.#set('available');
    void this.download();
    return this.status();
  }

  async download(): Promise<UpdateStatus> {
    const source = this.deps.source;
    if ('disabled' in source) return this.status();
    const verified = this.#verified;
    if (!verified || !['available', 'failed'].includes(this.#state)) return this.status();
    this.#progress = 0;
    this.#set('downloading');
    let file: string;
    try {
      file = await source.engine.download((percent) => {
        const rounded = Math.max(0, Math.min(100, Math.floor(percent)));
        if (this.#state !== 'downloading' || rounded === this.#progress) return;
        this.#progress = rounded;
        this.#changed();
      });
    } catch (error) {
      this.deps.logger.warn('update download failed', error);
      this.#progress = null;
      return this.#set('failed', DOWNLOAD_FAILED);
    }
    this.#progress = null;
    try {
      await checkDownloadedFile(file, verified.manifest);
    } catch (error) {
      return this.#refuse(error);
    }
    this.#downloaded = file;
    return this.#set('ready');
  }

  /**
   * The trader agreed to restart into the new version. It happens now, or as soon as no request
   * is being handled; the installer is checked against the signed manifest once more first.
   */
  async install(): Promise<UpdateStatus> {
    const source = this.deps.source;
    if ('disabled' in source || this.#state !== 'ready' || this.#installAgreed) {
      return this.status();
    }
    this.#installAgreed = true;
    if (this.deps.inFlight.busy) {
      this.#set('ready', WAITING);
      void this.deps.inFlight.whenIdle().then(() => this.#installNow());
      return this.status();
    }
    await this.#installNow();
    return this.status();
  }

  async #installNow(): Promise<void> {
    const source = this.deps.source;
    const verified = this.#verified;
    const file = this.#downloaded;
    if ('disabled' in source || !verified || !file) return;
    try {
      await checkDownloadedFile(file, verified.manifest);
    } catch (error) {
      this.#installAgreed = false;
      this.#refuse(error);
      return;
    }
    this.deps.logger.info(`installing update ${verified.manifest.version}`);
    source.engine.install();
  }

  #refuse(error: unknown): UpdateStatus {
    this.#verified = null;
    this.#downloaded = null;
    this.#progress = null;
    const reason =
      error instanceof UpdateRefused
        ? error.message
        : 'Countersign could not check this update’s signature, so it was not installed. It ' +
          'will try again later.';
    this.deps.logger.warn(
      `update ${this.#available ?? ''} refused: ${error instanceof UpdateRefused ? error.kind : 'error'}`,
      error instanceof UpdateRefused ? undefined : error,
    );
    return this.#set('refused', reason);
  }

  #set(state: UpdateState, reason: string | null = null): UpdateStatus {
    this.#state = state;
    this.#reason = reason;
    return this.#changed();
  }

  #changed(): UpdateStatus {
    const status = this.status();
    this.deps.emit('updates:changed', status);
    return status;
  }

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
