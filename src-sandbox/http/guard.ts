import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, SandboxError } from '../errors.js';

/** What a request must show to be served. */
export interface Guard {
  /** The only Host header served: `127.0.0.1:<port>` (set once the port is known). */
  host: string;
  /** The per-run admin token every `/sandbox/*` route needs in `x-sandbox-token`. */
  adminToken: string;
}

export const ADMIN_TOKEN_HEADER = 'x-sandbox-token';

/** True for the sandbox-only routes, however the path is spelled or routed. */
export function isAdminPath(url: string, route?: string): boolean {
  if (route?.startsWith('/sandbox/')) return true;
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded text: judged as it is.
  }
  return /^\/+sandbox(\/|$)/i.test(path);
}

/**
 * Why a request is not served, or nothing. The sandbox listens on loopback, where any web page
 * the user visits can send requests too: so it answers only requests addressed to exactly its
 * own host and port (a rebound DNS name carries another Host), none that a browser marks as sent
 * by a page (an `Origin`, or a `Sec-Fetch-Site` other than the user's own navigation), and its
 * admin routes only with the token it printed at start.
 */
export function refusal(
  guard: Guard,
  headers: IncomingHttpHeaders,
  admin: boolean,
): SandboxError | undefined {
  if (headers.host !== guard.host) {
    return new SandboxError(
      ErrorCode.forbidden,
      `this sandbox only answers requests addressed to http://${guard.host}`,
      403,
    );
  }
  const site = headers['sec-fetch-site'];
  if (headers.origin !== undefined || (site !== undefined && site !== 'none')) {
    return new SandboxError(
      ErrorCode.forbidden,
      'requests sent by web pages are refused: call the sandbox from a program, not a browser',
      403,
    );
  }
  if (admin && !sameSecret(headers[ADMIN_TOKEN_HEADER], guard.adminToken)) {
    return new SandboxError(
      ErrorCode.unauthorized,
      `the sandbox admin token is missing or wrong (header ${ADMIN_TOKEN_HEADER}, printed at start)`,
    );
  }
  return undefined;
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
