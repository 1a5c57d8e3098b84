/**
 * Time as the exchange client sees it: now, and waiting (for a backoff, a rate limit, a
 * reconnect). Tests inject one that records the waits instead of sleeping through them.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Exponential backoff with jitter: base·2^attempt capped at `maxMs`, then between half and all of it. */
export const backoffDelay = (
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number => {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
};
