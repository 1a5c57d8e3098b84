import { join, resolve } from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import {
  KeyedMutex,
  loadJsonFile,
  readJsonFile,
  updateJsonFile,
  type Damage,
} from '../store/atomic-file';

/**
 * Wrong-password throttling, remembered across restarts (`<dataDir>/wallet/unlock-attempts.json`):
 * 5 free attempts, then each further wrong password doubles the wait, from 1 s up to 30 s.
 *
 * A guess costs its full price whatever the concurrency: `guard` checks one password at a time
 * (per counter file, across every service of the process), and counts the attempt as wrong on
 * disk BEFORE the check runs. A right password clears the count afterwards; a check that fails
 * for another reason (keychain locked, key missing) gives the attempt back. A crash during the
 * check leaves it counted.
 */
export const FREE_ATTEMPTS = 5;
export const MAX_DELAY_MS = 30_000;

const AttemptsFile = z.object({
  failures: z.number().int().min(0),
  lastFailureAt: z.number(),
});
type AttemptsFile = z.infer<typeof AttemptsFile>;

const CLEAR: AttemptsFile = { failures: 0, lastFailureAt: 0 };

export const delayAfter = (failures: number): number =>
  failures < FREE_ATTEMPTS ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_ATTEMPTS));

/** One password check at a time per counter file, for every instance in the process. */
const checks = new KeyedMutex();

const waitSeconds = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));

export class UnlockAttempts {
  readonly #path: string;
  #damage: Damage | undefined;

  constructor(
    dataDir: string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#path = resolve(join(dataDir, 'wallet', 'unlock-attempts.json'));
  }

  /**
   * At start-up: removes what a write killed half-way left beside the counter, and reads it (a
   * damaged counter is handled as `#state` does). The counter is otherwise read only when a
   * password is checked, so without this a leftover would stay until then.
   */
  async load(): Promise<void> {
    const read = await loadJsonFile(this.#path, AttemptsFile);
    if (read.kind === 'damaged') await this.#replaceDamaged(read.damage);
  }

  /** A damaged counter must not reset the throttle: it counts as the maximum delay. */
  #replaceDamaged(moved?: Damage): Promise<AttemptsFile> {
    return updateJsonFile(this.#path, AttemptsFile, (current, damage) => {
      this.#damage = damage ?? moved ?? this.#damage;
      return damage || moved
        ? { failures: FREE_ATTEMPTS + 5, lastFailureAt: this.now() }
        : (current ?? CLEAR);
    });
  }

  /** The counter as on disk. A damaged counter is moved aside and replaced by the longest wait. */
  async #state(): Promise<AttemptsFile> {
    const read = await readJsonFile(this.#path, AttemptsFile);
    if (read.kind === 'ok') return read.value;
    if (read.kind === 'missing') return CLEAR;
    return this.#replaceDamaged();
  }

  #write(next: AttemptsFile): Promise<AttemptsFile> {
    return updateJsonFile(this.#path, AttemptsFile, () => next);
  }

  /** A plain-words note when the counter file was damaged during this run, else null. */
  notice(): string | null {
    const damage = this.#damage;
    if (!damage) return null;
    return (
      `The wrong-password counter (${damage.file}) could not be read (${damage.reason}). ` +
      `It was moved aside as ${damage.movedTo} and the longest wait (30 s) applies once; ` +
      'after that, your spending password works as usual.'
    );
  }

  #nextAt(state: AttemptsFile): number | null {
    const at = state.lastFailureAt + delayAfter(state.failures);
    return at > this.now() ? at : null;
  }

  /** When the next attempt is allowed (epoch ms), or null when it is allowed now. */
  async nextAttemptAt(): Promise<number | null> {
    return this.#nextAt(await this.#state());
  }

  #refuseIfWaiting(state: AttemptsFile): void {
    const at = this.#nextAt(state);
    if (at !== null) {
      throw new AppError(
        ErrorCode.TooManyAttempts,
        `Too many wrong passwords. Wait ${waitSeconds(at, this.now())} s before the next try; the wait grows with each wrong password, up to 30 s.`,
      );
    }
  }

  /** Throws `TOO_MANY_ATTEMPTS` while the trader must wait. */
  async assertMayTry(): Promise<void> {
    this.#refuseIfWaiting(await this.#state());
  }

  #wrong(error: AppError, failures: number): AppError {
    const left = FREE_ATTEMPTS - failures;
    const next = this.#nextAt({ failures, lastFailureAt: this.now() });
    const hint =
      left > 0
        ? ` ${left} more ${left === 1 ? 'try' : 'tries'} before a wait is imposed.`
        : ` Wait ${waitSeconds(next ?? this.now(), this.now())} s before the next try.`;
    return new AppError(ErrorCode.WrongPassword, `${error.message}${hint}`, { cause: error });
  }

  /**
   * Runs a check of the spending password under the throttle: refused while a wait is due, one
   * check at a time, counted before it runs; a wrong password stays counted (and says how many
   * tries are left), a right one clears the count. Every place that takes the spending password
   * goes through here, so no path and no number of parallel calls allows guessing faster.
   */
  guard<T>(check: () => Promise<T>): Promise<T> {
    return checks.run(this.#path, async () => {
      const before = await this.#state();
      this.#refuseIfWaiting(before);
      const counted = await this.#write({
        failures: before.failures + 1,
        lastFailureAt: this.now(),
      });
      let value: T;
      try {
        value = await check();
      } catch (error) {
        if (error instanceof AppError && error.code === ErrorCode.WrongPassword) {
          // The wait runs from the end of the check.
          await this.#write({ failures: counted.failures, lastFailureAt: this.now() });
          throw this.#wrong(error, counted.failures);
        }
        // Not a verdict on the password: the attempt is given back.
        await this.#write(before);
        throw error;
      }
      await this.#write(CLEAR);
      return value;
    });
  }
}
