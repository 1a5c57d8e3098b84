/**
 * Error codes that cross the IPC boundary. Every failure a user can meet reaches the renderer as
 * `{ code, message }`: the code lets the UI react, the message tells a person what happened and
 * what to do. Stack traces and internals never cross.
 */
export const ErrorCode = {
  /** The request did not match the contract (a bug in the caller or a hostile frame). */
  InvalidInput: 'INVALID_INPUT',
  /** The IPC sender is not our window's main frame on our app:// origin. */
  ForbiddenSender: 'FORBIDDEN_SENDER',
  /** No handler answers this operation. */
  UnknownOperation: 'UNKNOWN_OPERATION',
  /** Something broke inside the app; the message says what to try. */
  Internal: 'INTERNAL',
  /** The session is locked: unlock with the spending password first. */
  Locked: 'LOCKED',
  WrongPassword: 'WRONG_PASSWORD',
  /** Too many wrong passwords: wait before the next attempt. */
  TooManyAttempts: 'TOO_MANY_ATTEMPTS',
  WeakPassword: 'WEAK_PASSWORD',
  InvalidMnemonic: 'INVALID_MNEMONIC',
  KeychainUnavailable: 'KEYCHAIN_UNAVAILABLE',
  /** A stored secret could not be read: corrupted, or written by something else. */
  VaultCorrupted: 'VAULT_CORRUPTED',
  WalletNotFound: 'WALLET_NOT_FOUND',
  WatchOnly: 'WATCH_ONLY',
  /** The server's transaction differs from what the user asked for; nothing was signed. */
  IntentMismatch: 'INTENT_MISMATCH',
  InvalidTransaction: 'INVALID_TRANSACTION',
  /**
   * A file offered as the offline device's signature cannot be used (unreadable, another
   * transaction, another key): nothing was sent, another file may be chosen.
   */
  SignedFile: 'SIGNED_FILE',
  /** The exchange answered with a business error ({error, code}). */
  Exchange: 'EXCHANGE',
  /** The exchange could not be reached or answered something unreadable. */
  Network: 'NETWORK',
  RateLimited: 'RATE_LIMITED',
  NotFound: 'NOT_FOUND',
  Offline: 'OFFLINE',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The shape every failure takes on the wire between main and renderer. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
}

/**
 * A failure meant for the user. Throw it from services with a message a trader can act on;
 * anything else thrown is reported as `Internal` with a generic message.
 */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message };
  }
}
