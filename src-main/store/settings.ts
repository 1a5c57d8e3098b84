import { rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { Settings } from '../../src-shared/contract/settings';
import { DEFAULT_AUTO_LOCK } from '../../src-shared/contract/session';
import { DEFAULT_NETWORK, type NetworkChoice } from '../../src-shared/network';
import { readJsonFile, writeJsonFile } from './atomic-file';

/** What a new install starts with: the embedded sandbox, orders confirmed only off the sandbox. */
export const DEFAULT_SETTINGS: Settings = {
  network: DEFAULT_NETWORK,
  autoLock: DEFAULT_AUTO_LOCK,
  theme: 'system',
  limits: { maxOrderValue: null, maxOpenOrders: null },
  skipOrderConfirmation: true,
  notifyFills: true,
  unverifiedOrders: { staging: 'warn', production: 'refuse', custom: 'refuse' },
};

/** The settings file; the auto-lock lives with the session and is merged in by the service. */
const SettingsFile = Settings.omit({ autoLock: true }).extend({ version: z.literal(1) });

export interface SettingsProblem {
  /** In words, with the name the damaged file was kept under (never a full path). */
  message: string;
}

/**
 * The trader's settings on disk (`<dataDir>/settings.json`), written atomically. Reads are
 * cached; writes go one at a time, so two changes at once both land. A damaged file is moved
 * aside and reported, never silently reset.
 */
export class SettingsStore {
  readonly #path: string;
  #current: Omit<Settings, 'autoLock'> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #problem: SettingsProblem | null = null;

  constructor(
    dataDir: string,
    /** The network of a new install (the embedded sandbox, unless a test says otherwise). */
    private readonly defaultNetwork: NetworkChoice = DEFAULT_NETWORK,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#path = join(dataDir, 'settings.json');
  }

  /** Set when the file on disk was damaged at start and moved aside. */
  get problem(): SettingsProblem | null {
    return this.#problem;
  }

  async read(): Promise<Omit<Settings, 'autoLock'>> {
    if (this.#current) return this.#current;
    const read = await readJsonFile(this.#path, SettingsFile);
    if (read.kind === 'ok') {
      const { version: _version, ...settings } = read.value;
      this.#current = settings;
    } else {
      if (read.kind === 'invalid') {
        const aside = `${this.#path}.damaged-${this.now()}`;
        await rename(this.#path, aside);
        this.#problem = {
          message: `Your settings file was damaged (${read.reason}), so Countersign started with its default settings. The old file was kept as ${basename(aside)}.`,
        };
      }
      const { autoLock: _autoLock, ...defaults } = DEFAULT_SETTINGS;
      this.#current = { ...defaults, network: this.defaultNetwork };
    }
    return this.#current;
  }

  /** Applies `change` to the latest settings and writes them; changes queue one behind another. */
  update(
    change: (current: Omit<Settings, 'autoLock'>) => Omit<Settings, 'autoLock'>,
  ): Promise<Omit<Settings, 'autoLock'>> {
    const next = this.#queue.then(async () => {
      const updated = change(await this.read());
      await writeJsonFile(this.#path, { version: 1, ...updated });
      this.#current = updated;
      return updated;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
