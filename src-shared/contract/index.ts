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
import { operations, operationEvents } from './operations';
import { offline } from './offline';
import { trading } from './trading';
import { funds, fundsEvents } from './funds';
import { orders, orderEvents } from './orders';
import { market, marketEvents } from './market';
import { settings, settingsEvents } from './settings';
import { updates, updatesEvents } from './updates';
import type { Result } from '../result';
import type { Serialized } from '../domain/amount';

/**
 * The whole IPC contract: every operation the renderer may ask of main, by area. Adding an
 * operation here makes it appear, typed, as `window.api.<area>.<method>` and forces main to
 * provide a handler for it.
 */
export const contract = {
  app,
  session,
  wallet,
  settings,
  market,
  trading,
  funds,
  orders,
  operations,
  offline,
  updates,
} as const satisfies ContractShape;

/** Every event main may push to the renderer. */
export const events = {
  ...sessionEvents,
  ...settingsEvents,
  ...marketEvents,
  ...orderEvents,
  ...fundsEvents,
  ...operationEvents,
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
    ? () => Promise<Result<Serialized<ResponseOf<O>>>>
    : (request: RequestOf<O>) => Promise<Result<Serialized<ResponseOf<O>>>>;

/** What the renderer sees as `window.api`. */
export type Api = {
  readonly [A in AreaName]: { readonly [M in keyof Contract[A]]: CallOf<Contract[A][M]> };
} & {
  /** Listen to an event from main; returns the function that stops listening. */
  readonly on: <E extends EventName>(
    name: E,
    listener: (payload: Serialized<PayloadOf<Events[E]>>) => void,
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

/** How a service pushes an event: typed by name, with domain values (decimal.js money). */
export type EmitEvent = <E extends EventName>(name: E, payload: PayloadOf<Events[E]>) => void;

/** How a transport (Electron IPC, the harness) sends an event once it is serialised. */
export type SendEvent = <E extends EventName>(
  name: E,
  payload: Serialized<PayloadOf<Events[E]>>,
) => void;

export type { AppInfo } from './app';
export type {
  OperationKind,
  OperationStep,
  PreparedOperation,
  OperationResult,
  PendingOperation,
  OperationProgress,
  TransactionSummary,
  IntentCheck,
  ShownAmount,
  Party,
} from './operations';
export type { OrderRequest, OrderPreview, CancelAllResult } from './trading';
export type { FundsOverview, PendingFunds, FundsRules } from './funds';
export type {
  OrderQuery,
  OrderFilters,
  OrderListRead,
  FillSummary,
  OrderRow,
  OrderRows,
  OrderSummary,
  OrderRowsRequest,
} from './orders';
export { MAX_ORDER_ROWS, orderRowOf } from './orders';
export type { ConnectionState } from './market';
export type { Settings } from './settings';
export type { SessionStatus, LockState, AutoLock, LockReason } from './session';
export type {
  WalletSummary,
  WalletList,
  WalletKind,
  NewRecoveryPhrase,
  OneTransaction,
  WalletAddresses,
  WalletAsset,
  WalletBalance,
} from './wallet';
export type { UpdateState, UpdateStatus } from './updates';
