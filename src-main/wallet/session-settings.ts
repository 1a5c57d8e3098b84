import { join } from 'node:path';
import { z } from 'zod';
import { AutoLock, DEFAULT_AUTO_LOCK } from '../../src-shared/contract/session';
import { readJsonFile, writeJsonFile } from '../store/atomic-file';

/** The auto-lock setting, kept in `<dataDir>/wallet/session.json`. */
const SessionFile = z.object({ autoLock: AutoLock });

export class SessionSettings {
  readonly #path: string;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'wallet', 'session.json');
  }

  async autoLock(): Promise<AutoLock> {
    const read = await readJsonFile(this.#path, SessionFile);
    return read.kind === 'ok' ? read.value.autoLock : DEFAULT_AUTO_LOCK;
  }

  async setAutoLock(autoLock: AutoLock): Promise<void> {
    await writeJsonFile(this.#path, { autoLock });
  }
}
