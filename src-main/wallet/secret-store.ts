import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * Where encrypted secrets are kept: the OS keychain in the app, memory in tests and the harness.
 * Values are vault blobs (already password-encrypted); the store is storage, not protection.
 */
export interface SecretStore {
  read(entry: string): Promise<string | null>;
  write(entry: string, value: string): Promise<void>;
  /** Returns whether something was there. */
  remove(entry: string): Promise<boolean>;
}

export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>();

  async read(entry: string): Promise<string | null> {
    return this.entries.get(entry) ?? null;
  }

  async write(entry: string, value: string): Promise<void> {
    this.entries.set(entry, value);
  }

  async remove(entry: string): Promise<boolean> {
    return this.entries.delete(entry);
  }
}

export const keychainUnavailable = (cause: unknown): AppError =>
  new AppError(
    ErrorCode.KeychainUnavailable,
    "The system keychain is not available (it may be locked or not running). Unlock your system's " +
      'keyring or log in again, then retry; nothing was changed.',
    { cause },
  );
