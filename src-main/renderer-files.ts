import { extname, resolve, sep } from 'node:path';

/** The app's own origin: the UI is served from app://countersign/, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'countersign';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/`;

/**
 * The renderer's Content-Security-Policy. `connect-src 'none'`: the renderer has no network;
 * everything goes through window.api. Styles and scripts only from our own origin.
 */
export const buildCsp = (connectSrc = "'none'"): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
  ].join('; ');

export const RENDERER_CSP = buildCsp();

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export const contentTypeOf = (path: string): string =>
  CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/**
 * Maps a URL path to a file inside the renderer folder, or null when the path would leave it
 * (`..`, encoded `%2e%2e`, backslashes, absolute paths, NUL bytes). `/` serves index.html.
 */
export const resolveRendererFile = (rootDir: string, urlPath: string): string | null => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded.replace(/^\/+/, '') || 'index.html';
  if (relative.split('/').some((part) => part === '..')) return null;
  const root = resolve(rootDir);
  const file = resolve(root, relative);
  return file.startsWith(root + sep) ? file : null;
};
