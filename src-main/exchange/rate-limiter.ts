import type { Clock } from './clock';

/** At most `max` requests in any `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** What the real service publishes (staging: 100 requests per 60 s, real-service.md). */
export const REAL_SERVICE_RATE_LIMIT: RateLimit = { max: 100, windowMs: 60_000 };

/**
 * Keeps this client under the server's published rate: a sliding window of the start times of
 * recent requests, plus a pause the server can impose (`X-Ratelimit-Remaining: 0`, a 429).
 * A request waits its turn instead of being refused by the server.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #clock: Clock;
  /** Start times of the requests in the current window, oldest first. */
  readonly #starts: number[] = [];
  #pausedUntil = 0;

  constructor(limit: RateLimit, clock: Clock) {
    if (!Number.isInteger(limit.max) || limit.max < 1 || !(limit.windowMs > 0)) {
      throw new RangeError('a rate limit needs max ≥ 1 and windowMs > 0');
    }
    this.#limit = limit;
    this.#clock = clock;
  }

  /** Waits until one more request fits, then counts it. Rejects if the signal aborts. */
  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.#waitFor(this.#clock.now());
      if (wait <= 0) {
        this.#starts.push(this.#clock.now());
        return;
      }
      await this.#clock.sleep(wait, signal);
    }
  }

  /** How long the next request would have to wait now (0: it may go). */
  waitMs(): number {
    return Math.max(0, this.#waitFor(this.#clock.now()));
  }

  /** The server said to hold off until this time (epoch ms). */
  pauseUntil(epochMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, epochMs);
  }

  #waitFor(now: number): number {
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - this.#limit.windowMs) {
      this.#starts.shift();
    }
    const paused = this.#pausedUntil - now;
    const full =
      this.#starts.length >= this.#limit.max
        ? (this.#starts[this.#starts.length - this.#limit.max] ?? now) + this.#limit.windowMs - now
        : 0;
    return Math.max(paused, full);
  }
}
