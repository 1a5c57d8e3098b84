import type { Api } from '../../../src-shared/contract';
import { buildApi, type Call } from '../../../src-shared/contract/api';
import { ErrorCode, type ErrorPayload } from '../../../src-shared/errors';
import type { Result } from '../../../src-shared/result';

/** A failure reported by main, carrying the message meant for the user. */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(error: ErrorPayload) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
  }
}

/** Turns a contract result into its value, or throws the user-facing error it carries. */
export const unwrap = async <T>(pending: Promise<Result<T>>): Promise<T> => {
  const result = await pending;
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
};

export const MAIN_LOST_MESSAGE =
  'Countersign lost contact with its main process. Restart the app; nothing is lost.';

/** Message to show for anything caught in the UI. */
export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : MAIN_LOST_MESSAGE;

/** True when the failure is the connection to main itself, not an answer from main. */
export const isMainLost = (error: unknown): boolean =>
  !(error instanceof ApiError) || error.code === ErrorCode.ForbiddenSender;

type LostListener = (message: string | null) => void;
const lostListeners = new Set<LostListener>();

/**
 * Hears when the renderer loses or regains main: a refused sender (the harness without its
 * token, a closed socket) or a call that could not even be made. `null` means main answered again.
 */
export const onMainConnection = (listener: LostListener): (() => void) => {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
};

const report = (message: string | null) => {
  for (const listener of lostListeners) listener(message);
};

/**
 * Wraps `window.api` so every call, from any screen, reports whether main is still there, and a
 * call that throws (a dead IPC channel) becomes a result like any other failure.
 */
const watch = (raw: Api): Api => {
  const call: Call = async (channel, payload) => {
    const [area, method] = channel.split(':') as [string, string];
    const target = (raw as unknown as Record<string, Record<string, (p?: unknown) => unknown>>)[
      area
    ]?.[method];
    try {
      if (!target) throw new Error('not exposed');
      const result = (await target(payload)) as Result<unknown>;
      report(
        !result.ok && result.error.code === ErrorCode.ForbiddenSender ? result.error.message : null,
      );
      return result;
    } catch {
      report(MAIN_LOST_MESSAGE);
      return { ok: false, error: { code: ErrorCode.Internal, message: MAIN_LOST_MESSAGE } };
    }
  };
  return buildApi(call, (name, listener) => raw.on(name, listener as never));
};

/** What the renderer uses when the page has no `window.api` at all (opened outside the app). */
const missing = (): Api => {
  const message =
    'Countersign cannot reach its main process from this page. Open it from the app (or open the address the harness printed).';
  return buildApi(
    async () => {
      report(message);
      return { ok: false, error: { code: ErrorCode.ForbiddenSender, message } };
    },
    () => () => undefined,
  );
};

let current: { raw: Api | undefined; api: Api } | null = null;

/** The renderer's only way out: `window.api`, watched for a lost main. */
export const api = (): Api => {
  const raw = (window as { api?: Api }).api;
  if (!current || current.raw !== raw) current = { raw, api: raw ? watch(raw) : missing() };
  return current.api;
};
