import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * What went wrong talking to the exchange (or to a chain provider through the same transport),
 * in categories a caller can act on. The message says it in words; these let code decide.
 */
export type ExchangeFailure =
  /** The server refused with an `{error, code}` body: see `exchangeCode`. */
  | 'rejected'
  /** HTTP 429 (or code 4290): too many requests. */
  | 'rate-limited'
  /** No connection: refused, or the host name does not resolve. Nothing was sent. */
  | 'unreachable'
  /** No (complete) answer in time. */
  | 'timeout'
  /** The connection broke before the whole answer arrived. */
  | 'connection-lost'
  /** The TLS handshake failed: not a TLS server, a bad certificate… */
  | 'tls'
  /** The answer was larger than the client accepts. */
  | 'too-large'
  /** The answer is not JSON. */
  | 'not-json'
  /** JSON, but not the shape this endpoint answers. */
  | 'unexpected-answer'
  /** A plain `404 page not found`: the server has no such route. */
  | 'no-such-route'
  /** A web page (HTML) or other non-JSON error from something in between (a proxy, a gateway). */
  | 'gateway'
  /** Another HTTP error status without an exchange code. */
  | 'http-status'
  /** The caller cancelled (AbortSignal). */
  | 'cancelled'
  /** The operation needs an API key and none is set. */
  | 'no-api-key'
  /** The request itself could not be made (a bad address, a bad argument). */
  | 'invalid-request';

export interface ExchangeErrorInit {
  failure: ExchangeFailure;
  /** What happened, in words (one or more sentences). */
  detail: string;
  /** What to do about it. */
  advice: string;
  /** `METHOD /path` (never the host, the query or a key). */
  endpoint?: string;
  exchangeCode?: number;
  httpStatus?: number;
  ambiguous?: boolean;
  retryAfterMs?: number;
  /**
   * What a transport failure says of the connection itself, without the request that met it
   * ("Countersign could not reach the exchange: the connection was refused."): for the app-wide
   * connection state, which is about no one read.
   */
  connection?: string;
  code?: ErrorCode;
  cause?: unknown;
}

const codeFor = (init: ExchangeErrorInit): ErrorCode => {
  if (init.code) return init.code;
  if (init.failure === 'rate-limited') return ErrorCode.RateLimited;
  if (init.failure === 'cancelled' || init.failure === 'invalid-request') {
    return ErrorCode.InvalidInput;
  }
  if (init.failure === 'rejected') {
    if (init.exchangeCode === 4200 || init.exchangeCode === 4402) return ErrorCode.NotFound;
    if (init.exchangeCode === 4290) return ErrorCode.RateLimited;
    if (init.exchangeCode !== undefined && init.exchangeCode >= 5000) return ErrorCode.Network;
    return ErrorCode.Exchange;
  }
  if (init.failure === 'no-api-key') return ErrorCode.Exchange;
  return ErrorCode.Network;
};

/**
 * A failure of a call to the exchange, for people: `message` is `detail` + `advice`. It also
 * carries what code needs: the exchange's `code`, the HTTP status, and `ambiguous` when a
 * submit was sent but its outcome is unknown (the caller must ask the server before retrying).
 */
export class ExchangeError extends AppError {
  readonly failure: ExchangeFailure;
  readonly detail: string;
  readonly advice: string;
  readonly endpoint: string | undefined;
  readonly exchangeCode: number | undefined;
  readonly httpStatus: number | undefined;
  readonly ambiguous: boolean;
  readonly retryAfterMs: number | undefined;
  readonly connection: string | undefined;

  constructor(init: ExchangeErrorInit) {
    super(codeFor(init), [init.detail, init.advice].filter(Boolean).join(' '), {
      cause: init.cause,
    });
    this.name = 'ExchangeError';
    this.failure = init.failure;
    this.detail = init.detail;
    this.advice = init.advice;
    this.endpoint = init.endpoint;
    this.exchangeCode = init.exchangeCode;
    this.httpStatus = init.httpStatus;
    this.ambiguous = init.ambiguous ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.connection = init.connection;
  }

  /** Everything but the cause, for a copy with one part changed. */
  toInit(): ExchangeErrorInit {
    return {
      failure: this.failure,
      detail: this.detail,
      advice: this.advice,
      code: this.code,
      ambiguous: this.ambiguous,
      ...(this.endpoint === undefined ? {} : { endpoint: this.endpoint }),
      ...(this.exchangeCode === undefined ? {} : { exchangeCode: this.exchangeCode }),
      ...(this.httpStatus === undefined ? {} : { httpStatus: this.httpStatus }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.connection === undefined ? {} : { connection: this.connection }),
    };
  }
}

/**
 * The same error with the app's own figures in place of the generic description, keeping the
 * advice: `withFigures(e, 'Not enough free USDM: 12.50 needed, 3.20 free.')` →
 * "Not enough free USDM: 12.50 needed, 3.20 free. Deposit more, cancel an open order…".
 */
export const withFigures = (error: ExchangeError, figures: string): ExchangeError =>
  new ExchangeError({ ...error.toInit(), detail: figures.trim(), cause: error.cause ?? error });

/** Is this a failure worth trying again later with the same request (nothing wrong in it)? */
export const isTransient = (error: ExchangeError): boolean =>
  ['rate-limited', 'unreachable', 'timeout', 'connection-lost'].includes(error.failure) ||
  (error.failure === 'gateway' && (error.httpStatus ?? 500) >= 500) ||
  (error.failure === 'rejected' &&
    (error.exchangeCode === 4290 ||
      error.exchangeCode === 5000 ||
      error.exchangeCode === 5001 ||
      error.exchangeCode === 5002)) ||
  (error.failure === 'http-status' && (error.httpStatus ?? 0) >= 500);

interface CodeText {
  detail: string;
  advice: string;
}

/** The real service's error codes (real-service.md), each in words a trader can act on. */
const EXCHANGE_CODES: Readonly<Record<number, CodeText>> = {
  4000: {
    detail: 'The exchange refused the request as invalid.',
    advice:
      'Check the values and try again. If it keeps happening, this version of Countersign and the exchange disagree on the format: please report it.',
  },
  4010: {
    detail: 'The exchange did not accept the API key.',
    advice:
      'Check the API key in Settings: it must be the key the exchange issued for this account on this network.',
  },
  4050: {
    detail: 'There is not enough free balance for this.',
    advice: 'Deposit more, cancel an open order to free what it locks, or make the amount smaller.',
  },
  4100: {
    detail: "The order is below the exchange's minimum size of 5 ADA equivalent.",
    advice: 'Increase the quantity so the order is worth at least 5 ADA.',
  },
  4101: { detail: 'The price must be greater than 0.', advice: 'Enter a positive price.' },
  4102: {
    detail: 'The price has too many decimal places.',
    advice: 'Use at most 4 decimal places for the price.',
  },
  4103: {
    detail: 'The quantity has too many decimal places.',
    advice: 'Use at most 4 decimal places for the quantity.',
  },
  4104: {
    detail:
      'This post-only order would trade at once against a resting order, so the exchange refused it.',
    advice: 'Move the price away from the other side of the book, or turn post-only off.',
  },
  4105: {
    detail: 'Post-only applies only to limit orders.',
    advice: 'Turn post-only off, or place a limit order.',
  },
  4106: {
    detail: 'The exchange does not know this market.',
    advice: 'Choose one of the markets the exchange lists.',
  },
  4107: { detail: 'The quantity must be greater than 0.', advice: 'Enter a positive quantity.' },
  4108: {
    detail: 'The slippage limit must be between 0 and 10000 basis points (0 to 100 %).',
    advice: 'Enter a slippage limit in that range.',
  },
  4109: {
    detail: 'There is not enough on the other side of the book to fill this market order.',
    advice: 'Try a smaller quantity, or place a limit order instead.',
  },
  4110: {
    detail: 'This account has as many open orders as the exchange allows.',
    advice: 'Cancel some open orders before placing another.',
  },
  4111: {
    detail: 'The price is above the band the exchange allows around the market price.',
    advice: 'Bring the price closer to the market price.',
  },
  4112: {
    detail: 'The price is below the band the exchange allows around the market price.',
    advice: 'Bring the price closer to the market price.',
  },
  4200: {
    detail: 'The exchange has no such order.',
    advice: 'Refresh your orders: it may be gone, or belong to another account.',
  },
  4201: {
    detail: 'The order is no longer open.',
    advice: 'Refresh your orders: it has filled or been cancelled already.',
  },
  4202: {
    detail: 'The order is in a state that does not allow this.',
    advice: 'Refresh your orders and try again.',
  },
  4290: {
    detail: 'The exchange is limiting how many requests this account may make.',
    advice: 'Wait a moment and try again.',
  },
  4300: {
    detail: 'The transaction expired before it reached the exchange; nothing was done.',
    advice: 'Build it again: repeat the operation to get a fresh transaction to sign.',
  },
  4301: {
    detail:
      'A coin (UTxO) this transaction spends has already been spent, by another order or transfer that went first.',
    advice:
      'Start it again once the operation before it has finished: a fresh build spends the coins as they are now.',
  },
  4302: {
    detail: 'The exchange already has this transaction: it was submitted before.',
    advice: 'Refresh to see its result instead of sending it again.',
  },
  4400: {
    detail: 'The exchange has no user for this API key.',
    advice: 'Check the API key in Settings.',
  },
  4402: {
    detail: 'The exchange has no record of this transaction.',
    advice: 'Build the operation again.',
  },
  4404: {
    detail: 'The exchange did not accept the order-list filter Countersign asked for.',
    advice:
      'Please report this: this version of Countersign asks for a list the exchange does not offer.',
  },
  4406: {
    detail:
      'This account has no operation key: the exchange has no trading key registered for it, so orders and cancels cannot be signed.',
    advice:
      "Create the account's operation (trading) key on the exchange's website, then import it in Countersign.",
  },
  4407: {
    detail: 'The exchange could not sign the transaction.',
    advice: 'Try again; if it repeats, import the operation key again.',
  },
  5000: {
    detail: 'The exchange had an internal error.',
    advice: 'Try again in a moment.',
  },
  5001: {
    detail: 'The exchange is temporarily unavailable.',
    advice: 'Try again in a moment.',
  },
  5002: {
    detail: 'Trading is locked on the exchange for now; nothing was done.',
    advice: 'Try again later.',
  },
};

const MAX_QUOTED = 160;

export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Text from a server, made safe to show: printable, one line, short, with no web address or
 * absolute file path in it (a hostile or leaky server must not put those in front of a trader).
 */
export const quoteServerText = (text: string, max = MAX_QUOTED): string => {
  const cleaned = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[address]')
    .replace(/(^|[\s("'=])(?:[A-Za-z]:\\|\\\\)[^\s"')]+/g, '$1[path]')
    .replace(/(^|[\s("'=])\/(?:[^\s/"')]+\/)+[^\s"')]*/g, '$1[path]')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
};

/** The error for an `{error, code}` body. */
export const rejection = (init: {
  exchangeCode: number;
  serverText: string | undefined;
  httpStatus: number;
  endpoint: string;
  action: string;
  ambiguous?: boolean;
  retryAfterMs?: number;
  /** How to name the server; "the exchange" by default. */
  service?: string;
}): ExchangeError => {
  const known = EXCHANGE_CODES[init.exchangeCode];
  const quoted = init.serverText ? quoteServerText(init.serverText) : '';
  const detail = known
    ? known.detail
    : `${capitalise(init.service ?? 'the exchange')} refused to ${init.action} (code ${init.exchangeCode}${quoted ? `: “${quoted}”` : ''}).`;
  let advice = known ? known.advice : 'Check the values and try again.';
  if (init.ambiguous) {
    advice =
      'The request had been sent, so it may or may not have taken effect: check your orders and balances before trying again. Countersign will not send it twice on its own.';
  } else if (init.retryAfterMs !== undefined && init.exchangeCode === 4290) {
    advice = `Wait ${waitText(init.retryAfterMs)} and try again.`;
  }
  return new ExchangeError({
    failure: init.exchangeCode === 4290 ? 'rate-limited' : 'rejected',
    detail,
    advice,
    exchangeCode: init.exchangeCode,
    httpStatus: init.httpStatus,
    endpoint: init.endpoint,
    ...(init.ambiguous ? { ambiguous: true } : {}),
    ...(init.retryAfterMs === undefined ? {} : { retryAfterMs: init.retryAfterMs }),
  });
};

/** The words for one exchange code (for callers that build their own message around it). */
export const describeExchangeCode = (code: number): CodeText | undefined => EXCHANGE_CODES[code];

/** A request the app itself got wrong (or a trader typed): said before anything is sent. */
export const invalidInput = (message: string): AppError =>
  new AppError(ErrorCode.InvalidInput, message);

/**
 * How long a server asks to be left alone, in words a trader reads at a glance: "about 45 s",
 * "about 3 minutes", "about 2 hours", "about 400 days" (a server may say anything).
 */
export const waitText = (ms: number): string => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `about ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `about ${hours} hours`;
  return `about ${Math.round(hours / 24)} days`;
};
