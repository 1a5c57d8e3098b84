import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ErrorCode, SandboxError } from '../errors.js';
import type { SandboxCore } from '../sandbox-core.js';
import { isAdminPath, refusal, type Guard } from './guard.js';
import { limitRequestRate, type RateLimit } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: string;
  }
}

export interface ServerOptions {
  rateLimit: RateLimit | false;
  logger: boolean;
  guard: Guard;
}

/** Injected failures: the next `remaining` trading-API requests answer `code`. */
export interface InjectedFailures {
  code: 5000 | 5001 | 5002;
  remaining: number;
}

/** The account behind the request's `x-api-key` (any letter case), or 401 / 4010. */
export function authenticate(core: SandboxCore) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = request.headers['x-api-key'];
    const account = typeof key === 'string' ? core.exchange.accountByApiKey(key) : undefined;
    if (!account) throw new SandboxError(ErrorCode.unauthorized, 'unauthorized');
    request.accountId = account.id;
  };
}

/**
 * The HTTP shell: the guard first (exact Host, no browser pages, the admin token on
 * `/sandbox/*`), JSON bodies (an empty body allowed on DELETE), the real error shape for every
 * refusal, the plain-text 404, rate limiting, and 5001 once the sandbox is closing.
 */
export function createServer(
  options: ServerOptions,
  isClosing: () => boolean,
  failures: InjectedFailures,
): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    bodyLimit: 1_048_576,
  });
  app.decorateRequest('accountId', '');
  app.addHook('onRequest', async (request) => {
    const refused = refusal(
      options.guard,
      request.headers,
      isAdminPath(request.url, request.routeOptions.url),
    );
    if (refused) throw refused;
    // Every parameter is one string: a repeated one (an array) is refused, not half-read.
    for (const [name, value] of Object.entries(request.query as object)) {
      if (typeof value !== 'string') {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          `query parameter ${name} must be given once`,
        );
      }
    }
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new SandboxError(ErrorCode.invalidRequest, 'request body is not valid JSON'), undefined);
    }
  });
  app.addHook('onRequest', async () => {
    if (isClosing()) {
      throw new SandboxError(
        ErrorCode.unavailable,
        'temporarily unavailable: the sandbox is stopping',
      );
    }
  });
  if (options.rateLimit) limitRequestRate(app, options.rateLimit);
  app.addHook('onRequest', async (request) => {
    if (failures.remaining > 0 && !isAdminPath(request.url, request.routeOptions.url)) {
      failures.remaining--;
      const messages = {
        5000: 'internal error (injected)',
        5001: 'temporarily unavailable (injected)',
        5002: 'trading locked, retry later (injected)',
      };
      throw new SandboxError(failures.code, messages[failures.code]);
    }
  });

  app.setErrorHandler((error: FastifyError | SandboxError, request, reply) => {
    if (error instanceof SandboxError) {
      return reply.status(error.httpStatus).send({ error: error.message, code: error.code });
    }
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      return reply.status(400).send({
        error: `invalid request data: ${where}${error.message.replace(/^[a-z]+/, '')}`,
        code: 4000,
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status === 413 ? 413 : 400).send({
        error: `invalid request data: ${error.message}`,
        code: ErrorCode.invalidRequest,
      });
    }
    if (options.logger) request.log.error(error);
    else
      process.stderr.write(
        `sandbox: ${request.method} ${request.url}: ${error.stack ?? error.message}\n`,
      );
    return reply.status(500).send({ error: 'internal error', code: ErrorCode.internal });
  });
  app.setNotFoundHandler((_request, reply) => {
    return reply.status(404).type('text/plain; charset=utf-8').send('404 page not found');
  });
  return app;
}
