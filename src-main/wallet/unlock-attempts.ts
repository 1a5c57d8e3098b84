import { join } from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { readJsonFile, writeJsonFile } from '../store/atomic-file';

/**
 * Wrong-password throttling, remembered across restarts (`<dataDir>/wallet/unlock-attempts.json`):
 * 5 free attempts, then each further wrong password doubles the wait, from 1 s up to 30 s.
 */
export const FREE_ATTEMPTS = 5;
export const MAX_DELAY_MS = 30_000;

const AttemptsFile = z.object({
  failures: z.number().int().min(0),
  lastFailureAt: z.number(),
});
type AttemptsFile = z.infer<typeof AttemptsFile>;

export const delayAfter = (failures: number): number =>
  failures < FREE_ATTEMPTS ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_ATTEMPTS));

export class UnlockAttempts {
  readonly #path: string;
  #state: AttemptsFile | undefined;

  constructor(
    dataDir: string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#path = join(dataDir, 'wallet', 'unlock-attempts.json');
  }

  async #load(): Promise<AttemptsFile> {
    if (this.#state) return this.#state;
    const read = await readJsonFile(this.#path, AttemptsFile);
    // A damaged counter must not reset the throttle: count it as the maximum delay.
    this.#state =
      read.kind === 'ok'
        ? read.value
        : read.kind === 'missing'
          ? { failures: 0, lastFailureAt: 0 }
          : { failures: FREE_ATTEMPTS + 5, lastFailureAt: this.now() };
    return this.#state;
  }

  /** When the next attempt is allowed (epoch ms), or null when it is allowed now. */
  async nextAttemptAt(): Promise<number | null> {
    const state = await this.#load();
    const at = state.lastFailureAt + delayAfter(state.failures);
    return at > this.now() ? at : null;
  }

  /** Throws `TOO_MANY_ATTEMPTS` while the trader must wait. */
  async assertMayTry(): Promise<void> {
    const at = await this.nextAttemptAt();
    if (at !== null) {
      const seconds = Math.ceil((at - this.now()) / 1000);
      throw new AppError(
        ErrorCode.TooManyAttempts,
        `Too many wrong passwords. Wait ${seconds} s before the next try; the wait grows with each wrong password, up to 30 s.`,
      );
    }
  }

  async recordFailure(): Promise<number> {
    const state = await this.#load();
    const next = { failures: state.failures + 1, lastFailureAt: this.now() };
    await writeJsonFile(this.#path, next);
    this.#state = next;
    return next.failures;
  }

  async recordSuccess(): Promise<void> {
    const state = await this.#load();
    if (state.failures === 0) return;
    const next = { failures: 0, lastFailureAt: 0 };
    await writeJsonFile(this.#path, next);
    this.#state = next;
  }

  /**
   * Runs a check of the spending password under the throttle: refused while a wait is due, a
   * wrong password counts towards the next wait, a right one clears the count. Every place that
   * takes the spending password goes through here, so no path allows guessing faster.
   */
  async guard<T>(check: () => Promise<T>): Promise<T> {
    await this.assertMayTry();
    let value: T;
    try {
      value = await check();
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.WrongPassword) {
        await this.recordFailure();
      }
      throw error;
    }
    await this.recordSuccess();
    return value;
  }
}
