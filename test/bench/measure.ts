import { performance } from 'node:perf_hooks';

export interface Timing {
  iterations: number;
  median: number;
  p99: number;
  mean: number;
  opsPerSecond: number;
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** Times each call of `fn` (after a warm-up) and returns the distribution in milliseconds. */
export const measure = async (
  fn: () => unknown,
  { iterations = 10_000, warmup = 1_000 }: { iterations?: number; warmup?: number } = {},
): Promise<Timing> => {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = new Float64Array(iterations);
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples[i] = performance.now() - t0;
  }
  const total = performance.now() - start;
  samples.sort();
  return {
    iterations,
    median: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    mean: total / iterations,
    opsPerSecond: Math.round((iterations / total) * 1000),
  };
};

/** One figure per line, as JSON: what `npm run bench` prints. */
export const report = (bench: string, figures: Record<string, number | string>): void => {
  console.log(JSON.stringify({ bench, ...figures }));
};

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Reports a timing in microseconds (the unit for in-process calls). */
export const reportMicros = (bench: string, timing: Timing, extra: Record<string, string> = {}) =>
  report(bench, {
    unit: 'us',
    median: round(timing.median * 1000),
    p99: round(timing.p99 * 1000),
    mean: round(timing.mean * 1000),
    ops_per_s: timing.opsPerSecond,
    iterations: timing.iterations,
    ...extra,
  });
