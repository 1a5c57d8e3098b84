import { join } from 'node:path';
import { z } from 'zod';
import { AutoLock, DEFAULT_AUTO_LOCK } from '../../src-shared/contract/session';
import { loadJsonFile, updateJsonFile, type Damage } from '../store/atomic-file';

/** The auto-lock setting, kept in `<dataDir>/wallet/session.json`. */
const SessionFile = z.object({ autoLock: AutoLock });

export class SessionSettings {
  readonly #path: string;
  #autoLock: AutoLock | undefined;
  #loading: Promise<AutoLock> | undefined;
  #damage: Damage | undefined;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'wallet', 'session.json');
  }

  async autoLock(): Promise<AutoLock> {
    if (this.#autoLock !== undefined) return this.#autoLock;
    this.#loading ??= loadJsonFile(this.#path, SessionFile).then((read) => {
      if (read.kind === 'damaged') this.#damage = read.damage;
      return read.kind === 'ok' ? read.value.autoLock : DEFAULT_AUTO_LOCK;
    });
    try {
      const value = await this.#loading;
      this.#autoLock ??= value;
      return this.#autoLock;
    } finally {
      this.#loading = undefined;
    }
  }

  /** Saves the setting; concurrent changes land one after the other, the last one asked wins. */
  async setAutoLock(autoLock: AutoLock): Promise<void> {
    await this.autoLock();
    await updateJsonFile(
      this.#path,
      SessionFile,
      (_current, damage) => {
        if (damage) this.#damage = damage;
        return { autoLock };
      },
      { committed: (next) => (this.#autoLock = next.autoLock) },
    );
  }

  /** A plain-words note when the settings file was damaged during this run, else null. */
  notice(): string | null {
    const damage = this.#damage;
    if (!damage) return null;
    return (
      `The auto-lock setting (${damage.file}) could not be read (${damage.reason}). It was moved ` +
      `aside as ${damage.movedTo} and the default (${DEFAULT_AUTO_LOCK} minutes) applies until ` +
      'you choose again in Settings.'
    );
  }
}
