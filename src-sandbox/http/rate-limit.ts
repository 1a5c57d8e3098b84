import type { FastifyInstance } from 'fastify';
import { ErrorCode, SandboxError } from '../errors.js';
import { isAdminPath } from './guard.js';

export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * Fixed-window rate limit per API key (per client address without one), announced in the
 * real service's `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` headers.
 * The sandbox-only endpoints are not limited.
 */
export function limitRequestRate(app: FastifyInstance, limit: RateLimit): void {
  const windows = new Map<string, { count: number; resetAt: number }>();
  app.addHook('onRequest', async (request, reply) => {
    if (isAdminPath(request.url, request.routeOptions.url)) return;
    const key = request.headers['x-api-key'];
    const client = typeof key === 'string' && key ? `key:${key.toLowerCase()}` : `ip:${request.ip}`;
    const now = Date.now();
    let window = windows.get(client);
    if (!window || window.resetAt <= now) {
      if (windows.size > 100_000) windows.clear();
      window = { count: 0, resetAt: now + limit.windowMs };
      windows.set(client, window);
    }
    window.count++;
    void reply.header('X-Ratelimit-Limit', String(limit.max));
    void reply.header('X-Ratelimit-Remaining', String(Math.max(0, limit.max - window.count)));
    void reply.header('X-Ratelimit-Reset', String(Math.ceil((window.resetAt - now) / 1000)));
    if (window.count > limit.max) {
      throw new SandboxError(ErrorCode.rateLimited, 'rate limit exceeded');
    }
  });
}
