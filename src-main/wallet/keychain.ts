import type * as KeytarModule from 'keytar';
import { keychainUnavailable, type SecretStore } from './secret-store';

type Keytar = typeof KeytarModule;

/**
 * The OS keychain through keytar (Keychain on macOS, Credential Vault on Windows, Secret Service
 * on Linux). keytar is loaded on first use, so a machine without it fails with a clear error at
 * the moment a secret is needed rather than at start-up. Every failure of the keychain itself
 * becomes `KEYCHAIN_UNAVAILABLE`.
 */
export class KeychainSecretStore implements SecretStore {
  #keytar: Promise<Keytar> | undefined;

  constructor(private readonly service = 'Countersign') {}

  async #call<T>(use: (keytar: Keytar) => Promise<T>): Promise<T> {
    try {
      this.#keytar ??= import('keytar').then((m) => (m as { default?: Keytar }).default ?? m);
      return await use(await this.#keytar);
    } catch (error) {
      this.#keytar = undefined;
      throw keychainUnavailable(error);
    }
  }

  read(entry: string): Promise<string | null> {
    return this.#call((k) => k.getPassword(this.service, entry));
  }

  write(entry: string, value: string): Promise<void> {
    return this.#call((k) => k.setPassword(this.service, entry, value));
  }

  remove(entry: string): Promise<boolean> {
    return this.#call((k) => k.deletePassword(this.service, entry));
  }
}
