import type {
  ContractShape,
  EventsShape,
  PayloadOf,
  RequestOf,
  ResponseOf,
  AnyOperation,
  ParsedRequestOf,
} from './define';
import { app } from './app';
import { session, sessionEvents } from './session';
import { wallet } from './wallet';
import { updates, updatesEvents } from './updates';
import type { Result } from '../result';

/**
 * The whole IPC contract: every operation the renderer may ask of main, by area. Adding an
 * operation here makes it appear, typed, as `window.api.<area>.<method>` and forces main to
 * provide a handler for it.
 */
export const contract = {
  app,
  session,
  wallet,
  updates,
} as const satisfies ContractShape;

/** Every event main may push to the renderer. */
export const events = {
  ...sessionEvents,
  ...updatesEvents,
} as const satisfies EventsShape;

export type Contract = typeof contract;
export type Events = typeof events;
export type EventName = keyof Events & string;
export type AreaName = keyof Contract & string;

export const channelOf = (area: string, method: string): string => `${area}:${method}`;

/** Every channel with the area and method it names, derived from the contract. */
export const channels: ReadonlyArray<{ channel: string; area: string; method: string }> =
  Object.entries(contract).flatMap(([area, ops]) =>
    Object.keys(ops).map((method) => ({ channel: channelOf(area, method), area, method })),
  );

export const eventNames = Object.keys(events) as EventName[];

export const findOperation = (channel: string): AnyOperation | undefined => {
  const [area, method, ...rest] = channel.split(':');
  if (!area || !method || rest.length > 0 || !Object.hasOwn(contract, area)) return undefined;
  const ops: Readonly<Record<string, AnyOperation>> = contract[area as AreaName];
  return Object.hasOwn(ops, method) ? ops[method] : undefined;
};

type CallOf<O> =
  RequestOf<O> extends undefined
    ? () => Promise<Result<ResponseOf<O>>>
    : (request: RequestOf<O>) => Promise<Result<ResponseOf<O>>>;

/** What the renderer sees as `window.api`. */
export type Api = {
  readonly [A in AreaName]: { readonly [M in keyof Contract[A]]: CallOf<Contract[A][M]> };
} & {
  /** Listen to an event from main; returns the function that stops listening. */
  readonly on: <E extends EventName>(
    name: E,
    listener: (payload: PayloadOf<Events[E]>) => void,
  ) => () => void;
};

/** What main must implement: one async handler per operation, taking the parsed request. */
export type Handlers = {
  readonly [A in AreaName]: {
    readonly [M in keyof Contract[A]]: (
      request: ParsedRequestOf<Contract[A][M]>,
    ) => Promise<ResponseOf<Contract[A][M]>>;
  };
};

/** How main pushes an event: typed by name. */
export type EmitEvent = <E extends EventName>(name: E, payload: PayloadOf<Events[E]>) => void;

export type { AppInfo } from './app';
export type { SessionStatus, LockState, AutoLock, LockReason } from './session';
export type {
  WalletSummary,
  WalletList,
  WalletKind,
  NewRecoveryPhrase,
  WalletAddresses,
  WalletAsset,
  WalletBalance,
} from './wallet';
export type { UpdateState, UpdateStatus } from './updates';
