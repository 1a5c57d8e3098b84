/**
 * The app's log. Messages are for developers; secrets must never reach it, so values are
 * passed through `redact` before they are written.
 */
export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

const SECRET_KEYS =
  /(password|mnemonic|secret|private|xprv|seed|api[-_]?key|token|signing[-_]?key|entropy)/i;

/** Replaces the values of secret-looking fields, recursively, before anything is logged. */
export const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 6) return '[…]';
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack };
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1),
      ]),
    );
  }
  return value;
};

export const consoleLogger = (prefix = 'countersign'): Logger => ({
  info: (m, d) => console.info(`[${prefix}] ${m}`, ...(d === undefined ? [] : [redact(d)])),
  warn: (m, d) => console.warn(`[${prefix}] ${m}`, ...(d === undefined ? [] : [redact(d)])),
  error: (m, d) => console.error(`[${prefix}] ${m}`, ...(d === undefined ? [] : [redact(d)])),
});

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
