import type { ErrorPayload } from './errors';

/**
 * What every contract call answers across the process boundary. Errors travel as data, never as
 * thrown objects, so nothing but `{ code, message }` can leak through (no stacks, no internals).
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };
