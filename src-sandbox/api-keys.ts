import { createHash, randomBytes } from 'node:crypto';

/** A new API key: 32 hex characters, as the real service issues them. */
export function newApiKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * What the sandbox keeps of an API key: its SHA-256 (hex). A key is 128 random bits, so a plain
 * hash is enough to make the journal and snapshots useless for calling the exchange.
 */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey.toLowerCase(), 'utf8').digest('hex');
}
