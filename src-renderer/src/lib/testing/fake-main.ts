import type { Api, AreaName, Contract, EventName, Events } from '../../../../src-shared/contract';
import { buildApi } from '../../../../src-shared/contract/api';
import type { PayloadOf, RequestOf, ResponseOf } from '../../../../src-shared/contract/define';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { ErrorCode } from '../../../../src-shared/errors';
import type { Result } from '../../../../src-shared/result';

/**
 * A stand-in for the main process in component tests: `window.api` built from the real contract
 * (the same builder the preload uses), answering from per-channel handlers the test gives.
 * A handler throws `mainError(code, message)` to answer a failure; a channel with no handler
 * answers what main's unfinished areas answer.
 */
export type Channel = {
  [A in AreaName]: `${A}:${keyof Contract[A] & string}`;
}[AreaName];

type OperationOf<C extends Channel> = C extends `${infer A}:${infer M}`
  ? A extends AreaName
    ? M extends keyof Contract[A]
      ? Contract[A][M]
      : never
    : never
  : never;

export type FakeHandler<C extends Channel> = (
  request: RequestOf<OperationOf<C>>,
) => Serialized<ResponseOf<OperationOf<C>>> | Promise<Serialized<ResponseOf<OperationOf<C>>>>;

export type FakeHandlers = { [C in Channel]?: FakeHandler<C> };

export class MainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const mainError = (code: ErrorCode, message: string): MainError =>
  new MainError(code, message);

export class FakeMain {
  readonly calls: Array<{ channel: string; request: unknown }> = [];
  readonly api: Api;
  private readonly handlers = new Map<string, (request: unknown) => unknown>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(handlers: FakeHandlers = {}) {
    for (const [channel, handler] of Object.entries(handlers)) {
      this.handlers.set(channel, handler as (request: unknown) => unknown);
    }
    this.api = buildApi(
      async (channel, payload): Promise<Result<unknown>> => {
        this.calls.push({ channel, request: payload });
        const handler = this.handlers.get(channel);
        if (!handler) {
          return {
            ok: false,
            error: {
              code: ErrorCode.Internal,
              message: 'This part of Countersign is not ready yet.',
            },
          };
        }
        try {
          return { ok: true, value: await handler(payload) };
        } catch (error) {
          if (error instanceof MainError) {
            return { ok: false, error: { code: error.code, message: error.message } };
          }
          throw error;
        }
      },
      (name, listener) => {
        const set = this.listeners.get(name) ?? new Set();
        this.listeners.set(name, set);
        set.add(listener);
        return () => set.delete(listener);
      },
    );
  }

  handle<C extends Channel>(channel: C, handler: FakeHandler<C>): this {
    this.handlers.set(channel, handler as (request: unknown) => unknown);
    return this;
  }

  emit<E extends EventName>(name: E, payload: Serialized<PayloadOf<Events[E]>>): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload);
  }

  listenerCount(name: EventName): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  callsTo(channel: Channel): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request);
  }

  /** Installs this fake as `window.api` for components that call `api()`. */
  install(): this {
    Object.defineProperty(window, 'api', { value: this.api, configurable: true, writable: true });
    return this;
  }
}
