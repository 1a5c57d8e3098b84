import type { Api, UpdateStatus } from '../../../../src-shared/contract';
import { messageOf, unwrap } from '../api';

/**
 * The app's self-update as the trader sees it: kept current by `updates:changed`. Main checks,
 * verifies and downloads by itself; the trader only chooses when to restart into the new
 * version, or to wait. "Later" hides the offer of that version until a newer one comes.
 */
export class UpdatePrompt {
  status = $state<UpdateStatus | null>(null);
  /** A failure of this window's own request (main unreachable), in words. */
  error = $state<string | null>(null);
  /** The version the trader put off, or whose refusal they dismissed. */
  dismissed = $state<string | null>(null);
  busy = $state(false);

  private stopListening: (() => void) | null = null;

  constructor(private readonly api: Api) {}

  /** What to show: nothing while there is nothing to decide or to know. */
  get visible(): boolean {
    const status = this.status;
    if (!status || this.error) return Boolean(this.error);
    if (!['available', 'downloading', 'ready', 'refused'].includes(status.state)) return false;
    return status.availableVersion !== this.dismissed;
  }

  async load(): Promise<void> {
    this.stopListening ??= this.api.on('updates:changed', (status) => {
      this.status = status;
    });
    try {
      this.status = await unwrap(this.api.updates.status());
    } catch {
      // Nothing to decide until main can say (its next `updates:changed` brings it); a status
      // that could not be read is no reason to interrupt the trader.
    }
  }

  /** The trader agreed: main restarts into it now, or once what is under way has finished. */
  install(): Promise<void> {
    return this.#run(() => this.api.updates.install());
  }

  later(): void {
    this.dismissed = this.status?.availableVersion ?? null;
    this.error = null;
  }

  dispose(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  async #run(call: () => ReturnType<Api['updates']['status']>): Promise<void> {
    this.busy = true;
    try {
      this.status = await unwrap(call());
      this.error = null;
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }
}
