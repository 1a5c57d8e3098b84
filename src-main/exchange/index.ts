/**
 * The exchange area: the trading service's HTTP and WebSocket client, the embedded sandbox's
 * process and its admin endpoints, and the one transport they (and the chain providers) share.
 */
export {
  Announcement,
  nodeChildLauncher,
  startEmbeddedSandbox,
  type EmbeddedSandbox,
  type EmbeddedSandboxOptions,
  type SandboxChild,
  type SandboxCommand,
  type SandboxLauncher,
  type SandboxProgram,
} from './sandbox-process';
export {
  SANDBOX_SERVICE_NAME,
  utilityProcessLauncher,
  type UtilityProcessApi,
  type UtilityProcessChild,
  type UtilityProcessPaths,
} from './sandbox-utility';
export { ExchangeClient, type ExchangeClientOptions, type ExchangeConfig } from './client';
export type { OrderRecordsQuery, OrderRequest } from './orders';
export {
  ExchangeStreams,
  FLOOD_BURST_SECONDS,
  type AccountEvent,
  type StreamHandle,
  type StreamOptions,
  type StreamState,
  type StreamStatus,
} from './streams';
export {
  ExchangeError,
  describeExchangeCode,
  isTransient,
  quoteServerText,
  withFigures,
  type ExchangeFailure,
} from './errors';
export {
  DEFAULT_RETRY,
  EXCHANGE_SERVICE,
  HttpTransport,
  type HttpOptions,
  type HttpReply,
  type HttpRequest,
  type RequestKind,
  type RetryPolicy,
  type ServiceProfile,
} from './http';
export { REAL_SERVICE_RATE_LIMIT, type RateLimit } from './rate-limiter';
export { systemClock, type Clock } from './clock';
export {
  AmountEntry,
  InputUtxo,
  parseAnswer,
  unexpectedAnswer,
  type AnswerOf,
  type UnitAmount,
} from './wire';
export {
  SANDBOX_SERVICE,
  SandboxAdmin,
  SandboxNetwork,
  openSandboxAccount,
  type SandboxAccount,
} from './sandbox-admin';
