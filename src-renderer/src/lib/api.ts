import type { Api } from '../../../src-shared/contract';
import type { ErrorCode, ErrorPayload } from '../../../src-shared/errors';
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

/** Message to show for anything caught in the UI. */
export const messageOf = (error: unknown): string =>
  error instanceof ApiError
    ? error.message
    : 'Countersign lost contact with its main process. Restart the app.';

export const api = (): Api => window.api;
