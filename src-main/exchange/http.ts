import { Agent, type Dispatcher } from 'undici';
import { silentLogger, type Logger } from '../log';
import { backoffDelay, systemClock, type Clock } from './clock';
import {
  capitalise,
  ExchangeError,
  isTransient,
  quoteServerText,
  rejection,
  waitText,
} from './errors';
import { parseJsonExact } from './json';
import { RateLimiter, REAL_SERVICE_RATE_LIMIT, type RateLimit } from './rate-limiter';

/**
 * The one HTTP transport of the exchange client (and of the sandbox's admin calls and the chain
 * providers): undici with keep-alive, a deadline per request, cancellation, a cap on the size
 * of an answer, a client-side rate limit, retries for what is safe to retry, and every failure
 * turned into an `ExchangeError` whose message a trader can act on.
 */

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A rate limit that lifts later than this is reported instead of waited out. */
  maxRateLimitWaitMs: number;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRateLimitWaitMs: 30_000,
  random: Math.random,
};

export interface HttpOptions {
  /** An undici dispatcher (Agent, Pool, MockAgent); by default a keep-alive Agent of our own. */
  dispatcher?: Dispatcher;
  /** Deadline of one request, headers and body together. Default 15 s. */
  timeoutMs?: number;
  clock?: Clock;
  /** The client-side limit; `false` for none. Default: the real service's, except on loopback. */
  rateLimit?: RateLimit | false;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  /** Largest answer read, in bytes. Default 16 MiB. */
  maxBodyBytes?: number;
}

/** How messages name the server, and what to advise when it cannot be reached. */
export interface ServiceProfile {
  /** Lower case, as in "could not reach the exchange". */
  name: string;
  unreachableAdvice?: string;
  /** What to check when the server says the credentials are wrong (HTTP 401/403 with JSON). */
  credentialAdvice?: string;
}

export const EXCHANGE_SERVICE: ServiceProfile = {
  name: 'the exchange',
  unreachableAdvice:
    "Check your internet connection and the exchange's address in Settings, then try again.",
  credentialAdvice: 'Check the API key in Settings.',
};

/**
 * read: idempotent, retried. build: creates nothing that matters until signed, retried.
 * submit: never sent twice; a failure after it was sent is `ambiguous`.
 */
export type RequestKind = 'read' | 'build' | 'submit';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, starting with `/`. */
  path: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  /** JSON text, already serialised (numbers written exactly). */
  body?: string;
  headers?: Readonly<Record<string, string>>;
  kind: RequestKind;
  /** What the request does, for messages: "submit the order" ("could not … to submit the order"). */
  action: string;
  signal?: AbortSignal;
}

export interface HttpReply {
  status: number;
  /** The parsed JSON answer; null for an empty body. */
  body: unknown;
  /** `METHOD /path`, for messages. */
  endpoint: string;
}

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/;

const AMBIGUOUS_ADVICE =
  'The request had been sent, so it may or may not have taken effect: check your orders and balances before trying again. Countersign will not send it twice on its own.';

/** The answer was larger than the cap for its status; `status` is the status it came with. */
class BodyTooLarge extends Error {
  constructor(readonly status: number) {
    super('the answer is larger than accepted');
  }
}

/** The request was stopped by its deadline or by the caller. */
class Interrupted extends Error {
  constructor(readonly why: 'timeout' | 'cancelled') {
    super(why === 'timeout' ? 'timed out' : 'cancelled');
  }
}

/** The connection failed (undici's error is the cause); `status` if an answer had begun. */
class TransportFailure extends Error {
  constructor(
    readonly status: number,
    cause: unknown,
  ) {
    super('the request failed', { cause });
  }
}

/** What came back: the status, the headers and the whole body as text. */
interface Received {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
}

interface Classified {
  failure: 'unreachable' | 'timeout' | 'connection-lost' | 'tls' | 'invalid-request';
  reason: string;
  /** The failure happened while connecting: nothing was sent. */
  beforeSending: boolean;
}

const errorCodes = (error: unknown): string[] => {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, name, message } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
    };
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') codes.push(name);
    if (typeof message === 'string' && /\b(ssl|tls|certificate)\b/i.test(message))
      codes.push('TLS');
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
};

/** A transport failure (no HTTP answer), in categories and plain words. */
const classify = (error: unknown): Classified => {
  const codes = errorCodes(error);
  const has = (...wanted: string[]) => codes.some((c) => wanted.includes(c));
  if (codes.some((c) => /^(ERR_SSL|ERR_TLS|TLS$|EPROTO$)|CERT|SIGNATURE/.test(c))) {
    return {
      failure: 'tls',
      reason: has('ERR_SSL_WRONG_VERSION_NUMBER', 'EPROTO')
        ? 'the server does not speak TLS at that address'
        : 'its certificate was not accepted',
      beforeSending: true,
    };
  }
  if (has('ECONNREFUSED')) {
    return { failure: 'unreachable', reason: 'the connection was refused', beforeSending: true };
  }
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME')) {
    return {
      failure: 'unreachable',
      reason: 'its address could not be found',
      beforeSending: true,
    };
  }
  if (has('EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL')) {
    return { failure: 'unreachable', reason: 'the network cannot reach it', beforeSending: true };
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ConnectTimeoutError')) {
    return {
      failure: 'timeout',
      reason: 'the connection could not be made in time',
      beforeSending: true,
    };
  }
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT')) {
    return { failure: 'timeout', reason: 'no answer in time', beforeSending: false };
  }
  if (has('UND_ERR_INVALID_ARG', 'InvalidArgumentError')) {
    return { failure: 'invalid-request', reason: 'the request is malformed', beforeSending: true };
  }
  if (codes.some((c) => c.startsWith('HPE_'))) {
    return {
      failure: 'connection-lost',
      reason: 'the answer was not valid HTTP',
      beforeSending: false,
    };
  }
  if (has('ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'SocketError')) {
    return { failure: 'connection-lost', reason: 'the connection was reset', beforeSending: false };
  }
  if (has('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')) {
    return { failure: 'connection-lost', reason: 'the answer was cut short', beforeSending: false };
  }
  return { failure: 'connection-lost', reason: 'the connection failed', beforeSending: false };
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const headerValue = (headers: Dispatcher.ResponseData['headers'], name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: parseJsonExact(text) };
  } catch {
    return { ok: false };
  }
};

export class HttpTransport {
  readonly #base: string;
  /** The base URL's origin (`https://host:port`) and path (no trailing slash), for dispatching. */
  readonly #origin: string;
  readonly #basePath: string;
  readonly #service: ServiceProfile;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #limiter: RateLimiter | null;
  readonly #retry: RetryPolicy;
  readonly #logger: Logger;
  readonly #maxBodyBytes: number;
  readonly #headers: Readonly<Record<string, string>>;

  constructor(
    config: { baseUrl: string; service?: ServiceProfile; headers?: Record<string, string> },
    options: HttpOptions = {},
  ) {
    this.#service = config.service ?? EXCHANGE_SERVICE;
    let url: URL;
    try {
      url = new URL(config.baseUrl);
    } catch {
      throw this.#invalidAddress();
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
      throw this.#invalidAddress();
    }
    url.search = '';
    url.hash = '';
    this.#base = url.toString().replace(/\/+$/, '');
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#clock = options.clock ?? systemClock;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#logger = options.logger ?? silentLogger;
    this.#maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
    this.#headers = config.headers ?? {};
    const limit =
      options.rateLimit === undefined
        ? LOOPBACK.test(url.hostname)
          ? false
          : REAL_SERVICE_RATE_LIMIT
        : options.rateLimit;
    this.#limiter = limit ? new RateLimiter(limit, this.#clock) : null;
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 8,
        connect: { timeout: Math.min(this.#timeoutMs, 10_000) },
      });
  }

  /** The base URL (no query, no trailing slash). */
  get baseUrl(): string {
    return this.#base;
  }

  /** Sends a request, retrying what is safe to retry; resolves with the parsed JSON answer. */
  async request(req: HttpRequest): Promise<HttpReply> {
    const endpoint = `${req.method} ${req.path}`;
    for (let attempt = 0; ; attempt++) {
      const limiter = this.#limiter;
      if (limiter) await this.#wait((signal) => limiter.take(signal), req, endpoint);
      try {
        return await this.#once(req, endpoint);
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        const delay = this.#retryDelay(req, error, attempt);
        if (delay === undefined) throw error;
        this.#logger.warn(
          `${endpoint}: ${error.failure}${error.exchangeCode ? ` (code ${error.exchangeCode})` : ''}${
            error.httpStatus ? ` (HTTP ${error.httpStatus})` : ''
          }; retry ${attempt + 1} of ${this.#retry.attempts - 1} in ${delay} ms`,
        );
        await this.#wait((signal) => this.#clock.sleep(delay, signal), req, endpoint);
      }
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #retryDelay(req: HttpRequest, error: ExchangeError, attempt: number): number | undefined {
    if (req.kind === 'submit' || attempt + 1 >= this.#retry.attempts || !isTransient(error)) {
      return undefined;
    }
    const { baseDelayMs, maxDelayMs, random } = this.#retry;
    if (error.failure === 'rate-limited') {
      const wait = error.retryAfterMs ?? backoffDelay(attempt, baseDelayMs * 4, maxDelayMs, random);
      if (wait > this.#retry.maxRateLimitWaitMs) return undefined;
      return wait + Math.round(random() * Math.min(1_000, baseDelayMs));
    }
    return backoffDelay(attempt, baseDelayMs, maxDelayMs, random);
  }

  /** Waits for something abortable; the caller's abort becomes a clear "cancelled". */
  async #wait(
    what: (signal?: AbortSignal) => Promise<void>,
    req: HttpRequest,
    endpoint: string,
  ): Promise<void> {
    try {
      await what(req.signal);
    } catch (error) {
      if (req.signal?.aborted) throw this.#cancelled(req, endpoint, false);
      throw error;
    }
  }

  #cancelled(req: HttpRequest, endpoint: string, sent: boolean): ExchangeError {
    const ambiguous = sent && req.kind === 'submit';
    return new ExchangeError({
      failure: 'cancelled',
      detail: `The request to ${req.action} was cancelled.`,
      advice: ambiguous ? AMBIGUOUS_ADVICE : '',
      endpoint,
      ambiguous,
    });
  }

  #invalidAddress(): ExchangeError {
    return new ExchangeError({
      failure: 'invalid-request',
      detail: `The address of ${this.#service.name} is not a valid http or https address.`,
      advice: 'Check it in Settings.',
    });
  }

  /** The request's path on the server: the base URL's own path, the request's, its query. */
  #path(req: HttpRequest): string {
    let url = this.#basePath + req.path;
    if (req.query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(req.query)) {
        if (value !== undefined) params.set(key, String(value));
      }
      const query = params.toString();
      if (query) url += `?${query}`;
    }
    return url;
  }

  async #once(req: HttpRequest, endpoint: string): Promise<HttpReply> {
    if (req.signal?.aborted) throw this.#cancelled(req, endpoint, false);
    let received: Received;
    try {
      received = await this.#send(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        const ambiguous = req.kind === 'submit' && error.status < 400;
        throw new ExchangeError({
          failure: 'too-large',
          detail: `The answer of ${this.#service.name} to ${req.action} was larger than Countersign accepts (${Math.round(this.#maxBodyBytes / 1024 / 1024)} MB), so it was not read.`,
          advice: ambiguous
            ? AMBIGUOUS_ADVICE
            : `Try again later; if it keeps happening, check the address of ${this.#service.name} in Settings.`,
          endpoint,
          ...(error.status ? { httpStatus: error.status } : {}),
          ambiguous,
          cause: error,
        });
      }
      if (error instanceof Interrupted && error.why === 'cancelled') {
        throw this.#cancelled(req, endpoint, true);
      }
      const classified: Classified =
        error instanceof Interrupted
          ? { failure: 'timeout', reason: 'no answer in time', beforeSending: false }
          : classify(error);
      const failure = error instanceof TransportFailure ? error : null;
      throw this.#transportError(
        req,
        endpoint,
        classified,
        failure?.status ?? 0,
        failure ? failure.cause : error,
      );
    }
    const { status, headers, text } = received;
    this.#noteRateHeaders(headers, status);
    const contentType = String(headerValue(headers, 'content-type') ?? '');
    if (status === 429 || status >= 400) {
      throw this.#fromStatus(req, endpoint, status, contentType, text, headers);
    }
    if (status >= 300) throw this.#redirected(req, endpoint, status);
    return { status, body: this.#parseOk(req, endpoint, status, contentType, text), endpoint };
  }

  /**
   * A redirect is not followed: it would carry the API key, or a signed transaction, to an
   * address the trader never chose, and the exchange itself does not redirect.
   */
  #redirected(req: HttpRequest, endpoint: string, status: number): ExchangeError {
    const ambiguous = req.kind === 'submit';
    return new ExchangeError({
      failure: 'http-status',
      detail: `${capitalise(this.#service.name)} answered the request to ${req.action} with a redirect to another address (HTTP ${status}), which Countersign does not follow.`,
      advice: ambiguous
        ? AMBIGUOUS_ADVICE
        : `Check the address of ${this.#service.name} in Settings (the exact address, with https://); a proxy or portal on your network may also be redirecting requests.`,
      endpoint,
      httpStatus: status,
      ambiguous,
    });
  }

  /**
   * One request through undici's dispatcher, its answer collected as it arrives: the whole body,
   * or an error. Stopped by the deadline (headers and body together) or the caller's signal; an
   * answer larger than the cap for its status is cut off at the cap. (Undici's `request()` wraps
   * this same call in an async resource and a stream; without them an order's request leaves in
   * a third of the time.)
   */
  #send(req: HttpRequest): Promise<Received> {
    return new Promise<Received>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | null = null;
      let stopped: Error | null = null;
      let settled = false;
      let status = 0;
      let headers: Dispatcher.ResponseData['headers'] = {};
      let cap = this.#maxBodyBytes;
      let size = 0;
      const chunks: Buffer[] = [];
      const stop = (reason: Error): void => {
        stopped ??= reason;
        if (controller && !controller.aborted) controller.abort(reason);
        // Still waiting for a connection: it answers now, and is dropped when its turn comes.
        else if (!controller) finish(reason);
      };
      const timer = setTimeout(() => stop(new Interrupted('timeout')), this.#timeoutMs);
      const onAbort = (): void => stop(new Interrupted('cancelled'));
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (error: unknown, value?: Received): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        if (value && !error) resolve(value);
        // Whatever undici reports after we stopped it, the reason is ours.
        else reject(stopped ?? error);
      };
      const maxBodyBytes = this.#maxBodyBytes;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started;
          if (stopped) started.abort(stopped);
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          if (statusCode < 200) return;
          status = statusCode;
          headers = responseHeaders;
          cap = status < 300 ? maxBodyBytes : Math.min(maxBodyBytes, 1 << 20);
          const declared = Number(headerValue(headers, 'content-length'));
          if (Number.isFinite(declared) && declared > cap) stop(new BodyTooLarge(status));
        },
        onResponseData(_controller, chunk) {
          if (stopped) return;
          size += chunk.length;
          if (size > cap) stop(new BodyTooLarge(status));
          else chunks.push(chunk);
        },
        onResponseEnd() {
          if (stopped) finish(stopped);
          else
            finish(null, { status, headers, text: Buffer.concat(chunks, size).toString('utf8') });
        },
        onResponseError(_controller, error) {
          finish(new TransportFailure(status, error));
        },
      };
      try {
        this.#dispatcher.dispatch(
          {
            origin: this.#origin,
            path: this.#path(req),
            method: req.method,
            headers: {
              accept: 'application/json',
              ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...this.#headers,
              ...req.headers,
            },
            ...(req.body === undefined ? {} : { body: req.body }),
            headersTimeout: this.#timeoutMs,
            bodyTimeout: this.#timeoutMs,
          },
          handler,
        );
      } catch (error) {
        finish(new TransportFailure(0, error));
      }
    });
  }

  #transportError(
    req: HttpRequest,
    endpoint: string,
    classified: Classified,
    status: number,
    cause: unknown,
  ): ExchangeError {
    const service = this.#service.name;
    const ambiguous =
      req.kind === 'submit' &&
      !classified.beforeSending &&
      classified.failure !== 'invalid-request';
    const seconds = Math.round(this.#timeoutMs / 100) / 10;
    const detail = {
      unreachable: `Countersign could not reach ${service} to ${req.action}: ${classified.reason}.`,
      timeout:
        classified.reason === 'no answer in time'
          ? `${capitalise(service)} did not answer in time (${seconds} s) when asked to ${req.action}.`
          : `Countersign could not reach ${service} to ${req.action}: ${classified.reason}.`,
      'connection-lost': `The connection to ${service} broke while trying to ${req.action} (${classified.reason}).`,
      tls: `The secure (TLS) connection to ${service} failed when trying to ${req.action}: ${classified.reason}.`,
      'invalid-request': `Countersign could not send the request to ${req.action}: ${classified.reason}.`,
    }[classified.failure];
    const connection = {
      unreachable: `Countersign could not reach ${service}: ${classified.reason}.`,
      timeout:
        classified.reason === 'no answer in time'
          ? `${capitalise(service)} does not answer in time (${seconds} s).`
          : `Countersign could not reach ${service}: ${classified.reason}.`,
      'connection-lost': `The connection to ${service} broke (${classified.reason}).`,
      tls: `The secure (TLS) connection to ${service} failed: ${classified.reason}.`,
      'invalid-request': undefined,
    }[classified.failure];
    const advice = ambiguous
      ? AMBIGUOUS_ADVICE
      : {
          unreachable:
            this.#service.unreachableAdvice ??
            'Check your internet connection and the address in Settings, then try again.',
          timeout: 'Check your internet connection and try again.',
          'connection-lost': 'Try again in a moment.',
          tls: `Nothing was sent. Check the address of ${service} in Settings: an https address must be a server with a valid certificate.`,
          'invalid-request': 'Please report this.',
        }[classified.failure];
    return new ExchangeError({
      failure: classified.failure,
      detail,
      advice,
      endpoint,
      ambiguous,
      ...(status ? { httpStatus: status } : {}),
      ...(connection ? { connection } : {}),
      cause,
    });
  }

  /**
   * The answer to a successful status: JSON (or null when empty), or a clear error. An answer
   * that says it is a web page is not read as JSON even if it parses: it is a portal, a proxy or
   * another service at that address, not the exchange. Any other label is not trusted either
   * way (servers label JSON `text/plain` too): the text is read, and the schemas judge it.
   */
  #parseOk(
    req: HttpRequest,
    endpoint: string,
    status: number,
    contentType: string,
    text: string,
  ): unknown {
    if (text.trim() === '') return null;
    const declared = contentType.split(';')[0]?.trim() ?? '';
    const webPage = /html/i.test(declared);
    const parsed: ReturnType<typeof parseJson> = webPage ? { ok: false } : parseJson(text);
    if (!parsed.ok) {
      const ambiguous = req.kind === 'submit';
      const page = webPage || /^\s*</.test(text);
      throw new ExchangeError({
        failure: page ? 'gateway' : 'not-json',
        detail: page
          ? `A web page came back instead of the answer of ${this.#service.name} when trying to ${req.action} (HTTP ${status}).`
          : `The answer of ${this.#service.name} to ${req.action} is not valid JSON${declared && !/json/i.test(declared) ? ` (it says it is ${quoteServerText(declared, 60)})` : ''}.`,
        advice: ambiguous
          ? AMBIGUOUS_ADVICE
          : `Try again later; if it keeps happening, check the address of ${this.#service.name} in Settings.`,
        endpoint,
        httpStatus: status,
        ambiguous,
      });
    }
    const body = parsed.value;
    // An error body with a success status is still an error.
    if (
      isObject(body) &&
      typeof body.code === 'number' &&
      Number.isInteger(body.code) &&
      body.code >= 4000 &&
      typeof body.error === 'string' &&
      Object.keys(body).length === 2
    ) {
      throw rejection({
        exchangeCode: body.code,
        serverText: body.error,
        httpStatus: status,
        endpoint,
        action: req.action,
        ambiguous: req.kind === 'submit' && this.#ambiguousCode(body.code, status),
        service: this.#service.name,
      });
    }
    return body;
  }

  #ambiguousCode(code: number | undefined, status: number): boolean {
    if (code === 5002 || code === 4290 || status === 429) return false;
    if (code !== undefined && code < 5000) return false;
    return status >= 500 || code === 5000 || code === 5001;
  }

  #retryAfterMs(headers: Dispatcher.ResponseData['headers']): number | undefined {
    const reset = headerValue(headers, 'x-ratelimit-reset');
    const retryAfter = headerValue(headers, 'retry-after');
    const now = this.#clock.now();
    if (reset !== undefined && /^\d+(\.\d+)?$/.test(reset.trim())) {
      const n = Number(reset);
      // Seconds from now, or (above 10^9) a Unix time in seconds, (above 10^11) in milliseconds.
      const at = n > 1e11 ? n : n > 1e9 ? n * 1000 : now + n * 1000;
      return Math.max(0, Math.round(at - now));
    }
    if (retryAfter !== undefined) {
      if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
      const at = Date.parse(retryAfter);
      if (Number.isFinite(at)) return Math.max(0, at - now);
    }
    return undefined;
  }

  #noteRateHeaders(headers: Dispatcher.ResponseData['headers'], status: number): void {
    if (!this.#limiter) return;
    const remaining = headerValue(headers, 'x-ratelimit-remaining');
    if (status === 429 || (remaining !== undefined && remaining.trim() === '0')) {
      const wait = this.#retryAfterMs(headers);
      // Never longer than a rate limit is waited out: a server saying "in a year" must not
      // freeze every later request of the app (the 429 itself reports the time).
      if (wait !== undefined) {
        this.#limiter.pauseUntil(
          this.#clock.now() + Math.min(wait, this.#retry.maxRateLimitWaitMs),
        );
      }
    }
  }

  #fromStatus(
    req: HttpRequest,
    endpoint: string,
    status: number,
    contentType: string,
    text: string,
    headers: Dispatcher.ResponseData['headers'],
  ): ExchangeError {
    const service = this.#service.name;
    const parsed = parseJson(text);
    const json = parsed.ok ? parsed.value : undefined;
    const retryAfterMs = status === 429 ? this.#retryAfterMs(headers) : undefined;
    if (isObject(json) && typeof json.code === 'number' && Number.isInteger(json.code)) {
      const serverText =
        typeof json.error === 'string'
          ? json.error
          : typeof json.message === 'string'
            ? json.message
            : undefined;
      return rejection({
        exchangeCode: json.code,
        serverText,
        httpStatus: status,
        endpoint,
        action: req.action,
        ambiguous: req.kind === 'submit' && this.#ambiguousCode(json.code, status),
        service: this.#service.name,
        ...((json.code === 4290 || status === 429) && retryAfterMs !== undefined
          ? { retryAfterMs: retryAfterMs }
          : {}),
      });
    }
    if (status === 429) {
      return new ExchangeError({
        failure: 'rate-limited',
        detail: `${capitalise(service)} is limiting how many requests Countersign may make.`,
        advice:
          retryAfterMs === undefined
            ? 'Wait a moment and try again.'
            : `Wait ${waitText(retryAfterMs)} and try again.`,
        endpoint,
        httpStatus: status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    const ambiguous = req.kind === 'submit' && status >= 500;
    const isHtml = /html/i.test(contentType) || /^\s*</.test(text);
    const credentials = status === 401 || status === 403;
    if (json === undefined || isHtml) {
      if (isHtml || (status !== 404 && !credentials)) {
        const page = isHtml ? 'A web page' : 'An answer that is not JSON';
        return new ExchangeError({
          failure: status === 404 && !isHtml ? 'no-such-route' : 'gateway',
          detail: `${page} came back instead of the answer of ${service} when trying to ${req.action} (HTTP ${status}).`,
          advice: ambiguous
            ? AMBIGUOUS_ADVICE
            : status >= 500
              ? `${capitalise(service)}, or a proxy or gateway in front of it, seems to be down. Try again later.`
              : `Something between you and ${service} (a proxy, a firewall) refused the request. Check the address in Settings and your network.`,
          endpoint,
          httpStatus: status,
          ambiguous,
        });
      }
      if (status === 404) {
        return new ExchangeError({
          failure: 'no-such-route',
          detail: `${capitalise(service)} does not offer this request (HTTP 404 for ${endpoint}).`,
          advice: `Check the address of ${service} in Settings: it may point to another service or to a version that lacks this.`,
          endpoint,
          httpStatus: status,
        });
      }
    }
    const said = isObject(json)
      ? [json.message, json.error].find((v): v is string => typeof v === 'string')
      : undefined;
    const quoted = said ? `: “${quoteServerText(said)}”` : '';
    return new ExchangeError({
      failure: 'http-status',
      detail: `${capitalise(service)} refused to ${req.action} (HTTP ${status}${quoted}).`,
      advice: ambiguous
        ? AMBIGUOUS_ADVICE
        : credentials
          ? (this.#service.credentialAdvice ?? 'Check the credentials in Settings.')
          : status >= 500
            ? 'Try again in a moment.'
            : 'Check the values and try again.',
      endpoint,
      httpStatus: status,
      ambiguous,
    });
  }
}
