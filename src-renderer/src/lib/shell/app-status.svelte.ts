import type {
  Api,
  AppInfo,
  ConnectionState,
  SessionStatus,
  Settings,
  WalletList,
  WalletSummary,
} from '../../../../src-shared/contract';
import type { Serialized } from '../../../../src-shared/domain/amount';
import {
  NETWORK_LABELS,
  networkKeyOf,
  type NetworkChoice,
  type NetworkName,
} from '../../../../src-shared/network';
import { isMainLost, messageOf, onMainConnection, unwrap } from '../api';
import { mayPlaceOrdersWithoutDialog } from '../operations/skip-policy';
import { MarketList } from './markets.svelte';

export type SettingsValue = Serialized<Settings>;

/**
 * The one truth every screen reads: which app and exchange this is, the active wallet and whether
 * its trading session is locked, the trader's settings, the live state of the exchange
 * connection and the exchange's markets. Loaded once, then kept current by main's events;
 * nothing here is guessed locally.
 */
export class AppStatus {
  info = $state<AppInfo | null>(null);
  session = $state<SessionStatus | null>(null);
  settings = $state<SettingsValue | null>(null);
  /** Why the settings could not be read (the rest of the app still works). */
  settingsError = $state<string | null>(null);
  connection = $state<ConnectionState | null>(null);
  wallets = $state<WalletSummary[]>([]);
  /** Set when main cannot be reached at all: the whole window says so. */
  mainLost = $state<string | null>(null);
  /** A failure to load the frame itself. */
  error = $state<string | null>(null);
  loading = $state(true);

  /** The exchange in use: the trader's setting once read, else what the app started on. */
  readonly network: NetworkName | null = $derived(
    this.settings?.network.name ?? this.info?.network ?? null,
  );
  readonly networkLabel: string = $derived(this.network ? NETWORK_LABELS[this.network] : '…');
  /** Orders may go without the confirmation dialog now: the trader's setting, on the sandbox. */
  readonly ordersSkipDialog: boolean = $derived(
    mayPlaceOrdersWithoutDialog(this.settings?.skipOrderConfirmation, this.network),
  );
  readonly activeWallet: WalletSummary | null = $derived(
    this.wallets.find((w) => w.active) ??
      this.wallets.find((w) => w.id === this.session?.walletId) ??
      null,
  );
  readonly lockState = $derived(this.session?.state ?? null);
  readonly unlocked: boolean = $derived(this.session?.state === 'unlocked');
  readonly watchOnly: boolean = $derived(
    (this.session?.walletKind ?? this.activeWallet?.kind) === 'watch-only',
  );
  /** Repair notices the trader has closed in this window. */
  dismissedRepairs = $state<string[]>([]);
  /**
   * What main had to repair in its data during this run (a damaged file moved aside, the
   * practice exchange started afresh), in plain words with what to do, until the trader closes it.
   */
  readonly repairs: string[] = $derived(
    (this.session?.notices ?? []).filter((notice) => !this.dismissedRepairs.includes(notice)),
  );

  /** The exchange's markets (read when a screen first needs them; see MarketList). */
  readonly markets: MarketList;

  private stops: Array<() => void> = [];

  constructor(private readonly api: Api) {
    this.markets = new MarketList(api);
  }

  /** Takes main's settings; on another exchange, its markets replace the list (MarketList.forget). */
  private takeSettings(settings: SettingsValue): void {
    const before = this.settings ? networkKeyOf(this.settings.network) : this.info?.network;
    if (before && before !== networkKeyOf(settings.network)) this.markets.forget();
    this.settings = settings;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    if (this.stops.length === 0) this.listen();
    try {
      const [info, session] = await Promise.all([
        unwrap(this.api.app.info()),
        unwrap(this.api.session.status()),
      ]);
      this.info = info;
      this.session = session;
      this.mainLost = null;
    } catch (error) {
      this.error = messageOf(error);
      if (isMainLost(error)) this.mainLost = this.error;
      this.loading = false;
      return;
    }
    await Promise.all([this.loadSettings(), this.loadConnection(), this.loadWallets()]);
    this.loading = false;
  }

  private listen(): void {
    this.stops.push(
      onMainConnection((message) => {
        this.mainLost = message;
      }),
      this.api.on('session:changed', (status) => {
        this.session = status;
        void this.loadWallets();
      }),
      this.api.on('settings:changed', (settings) => {
        this.takeSettings(settings);
        this.settingsError = null;
      }),
      this.api.on('exchange:connection', (connection) => {
        this.connection = connection;
      }),
    );
  }

  async loadSettings(): Promise<void> {
    try {
      this.takeSettings(await unwrap(this.api.settings.get()));
      this.settingsError = null;
    } catch (error) {
      this.settingsError = messageOf(error);
    }
  }

  async loadConnection(): Promise<void> {
    try {
      this.connection = await unwrap(this.api.settings.connection());
    } catch {
      // Until main reports one, the status bar says it does not know yet.
    }
  }

  async loadWallets(): Promise<void> {
    try {
      const list: WalletList = await unwrap(this.api.wallet.list());
      this.wallets = list.wallets;
    } catch {
      // The session status still names the wallet; the list fills in on the next change.
    }
  }

  /** Saves part of the settings; main answers the whole, which becomes the truth. */
  async updateSettings(patch: Parameters<Api['settings']['update']>[0]): Promise<SettingsValue> {
    const settings = await unwrap(this.api.settings.update(patch));
    this.takeSettings(settings);
    return settings;
  }

  async setNetwork(network: NetworkChoice): Promise<SettingsValue> {
    const settings = await unwrap(this.api.settings.setNetwork({ network }));
    this.takeSettings(settings);
    await Promise.all([this.loadConnection(), this.loadWallets(), this.refreshSession()]);
    return settings;
  }

  async refreshSession(): Promise<void> {
    try {
      this.session = await unwrap(this.api.session.status());
    } catch (error) {
      if (isMainLost(error)) this.mainLost = messageOf(error);
    }
  }

  async lock(): Promise<void> {
    this.session = await unwrap(this.api.session.lock());
  }

  async unlock(password: string): Promise<SessionStatus> {
    const status = await unwrap(this.api.session.unlock({ password }));
    this.session = status;
    return status;
  }

  /** Closes the repair notices shown now; one that comes later shows again. */
  dismissRepairs(): void {
    this.dismissedRepairs = [...this.dismissedRepairs, ...this.repairs];
  }

  dispose(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }
}
