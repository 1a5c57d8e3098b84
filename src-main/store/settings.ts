import { join } from 'node:path';
import { z } from 'zod';
import { Settings } from '../../src-shared/contract/settings';
import { DEFAULT_AUTO_LOCK } from '../../src-shared/contract/session';
import { DEFAULT_NETWORK, type NetworkChoice } from '../../src-shared/network';
import { loadJsonFile, updateJsonFile, type Damage } from './atomic-file';

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

type Stored = Omit<Settings, 'autoLock'>;

/**
 * The trader's settings on disk (`<dataDir>/settings.json`), through the app's one data-file
 * code (`atomic-file.ts`): one writer at a time per file, random temporary names, fsync, and a
 * damaged file moved aside in the file's turn and reported, never silently reset. Reads are
 * cached; each change is applied to the content of the file in its turn, so changes made at
 * once all land, as if taken one after another.
 */
export class SettingsStore {
  readonly #path: string;
  #current: Stored | undefined;
  #loading: Promise<Stored> | undefined;
  #problem: SettingsProblem | null = null;

  constructor(
    dataDir: string,
    /** The network of a new install (the embedded sandbox, unless a test says otherwise). */
    private readonly defaultNetwork: NetworkChoice = DEFAULT_NETWORK,
  ) {
    this.#path = join(dataDir, 'settings.json');
  }

  /** Set when the file on disk was found damaged (and moved aside) during this run. */
  get problem(): SettingsProblem | null {
    return this.#problem;
  }

  #defaults(): Stored {
    const { autoLock: _autoLock, ...defaults } = DEFAULT_SETTINGS;
    return { ...defaults, network: this.defaultNetwork };
  }

  #damaged(damage: Damage): void {
    this.#problem = {
      message:
        `Your settings file (${damage.file}) could not be read (${damage.reason}), so Countersign ` +
        `started with its default settings. The old file was kept as ${damage.movedTo}; choose ` +
        'your settings again in Settings.',
    };
  }

  async read(): Promise<Stored> {
    if (this.#current) return this.#current;
    this.#loading ??= loadJsonFile(this.#path, SettingsFile).then((read) => {
      if (read.kind === 'damaged') this.#damaged(read.damage);
      if (read.kind !== 'ok') return this.#defaults();
      const { version: _version, ...settings } = read.value;
      return settings;
    });
    try {
      const loaded = await this.#loading;
      this.#current ??= loaded;
      return this.#current;
    } finally {
      this.#loading = undefined;
    }
  }

  /** Applies `change` to the settings in the file's turn and writes them; changes never overlap. */
  async update(change: (current: Stored) => Stored): Promise<Stored> {
    await this.read();
    const written = await updateJsonFile(
      this.#path,
      SettingsFile,
      (current, damage) => {
        if (damage) this.#damaged(damage);
        const base = current ? withoutVersion(current) : (this.#current ?? this.#defaults());
        return { version: 1 as const, ...change(base) };
      },
      { committed: (next) => (this.#current = withoutVersion(next)) },
    );
    return withoutVersion(written);
  }
}

const withoutVersion = ({
  version: _version,
  ...settings
}: z.output<typeof SettingsFile>): Stored => settings;
