import type { z } from 'zod';
import { findOperation, type Handlers } from '../src-shared/contract';
import { AppError, ErrorCode, type ErrorPayload } from '../src-shared/errors';
import type { Result } from '../src-shared/result';
import { serialize } from '../src-shared/domain/amount';
import type { Logger } from './log';
import { diskProblem } from './store/disk-problem';

/**
 * The one binder between a transport (Electron IPC, or the harness's WebSocket) and the services:
 * it finds the operation, validates the payload against the contract's schema, calls the handler
 * and turns any failure into `{ code, message }`. The sender check belongs to the transport.
 */
export type Dispatch = (channel: string, payload: unknown) => Promise<Result<unknown>>;

type AnyHandler = (request: unknown) => Promise<unknown>;

const describeIssues = (error: z.ZodError): string =>
  error.issues
    .slice(0, 3)
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');

export const toErrorPayload = (error: unknown, channel: string, logger: Logger): ErrorPayload => {
  if (error instanceof AppError) return error.toPayload();
  logger.error(`unexpected failure in ${channel}`, error);
  const disk = diskProblem(error);
  if (disk) {
    return {
      code: ErrorCode.Internal,
      message: `Countersign could not save its data on this computer: ${disk.reason}. ${disk.advice}`,
    };
  }
  return {
    code: ErrorCode.Internal,
    message:
      'Something went wrong inside Countersign. Nothing was sent to the exchange. ' +
      'Try again; if it keeps happening, restart the app.',
  };
};

export const createDispatcher = (handlers: Handlers, logger: Logger): Dispatch => {
  const table = handlers as unknown as Readonly<
    Record<string, Readonly<Record<string, AnyHandler>>>
  >;
  return async (channel, payload) => {
    const op = findOperation(channel);
    const [area = '', method = ''] = channel.split(':');
    const handler = op ? table[area]?.[method] : undefined;
    if (!op || !handler) {
      return {
        ok: false,
        error: {
          code: ErrorCode.UnknownOperation,
          message: `Countersign has no operation "${channel}".`,
        },
      };
    }
    const parsed = op.request.safeParse(payload);
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: ErrorCode.InvalidInput,
          message: `The request was not accepted (${describeIssues(parsed.error)}). Nothing was changed.`,
        },
      };
    }
    try {
      // Money crosses as exact decimal strings (structured clone would mangle decimal.js values).
      return { ok: true, value: serialize(await handler(parsed.data)) };
    } catch (error) {
      return { ok: false, error: toErrorPayload(error, channel, logger) };
    }
  };
};
