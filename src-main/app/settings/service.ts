import type { EmitEvent, Settings, WalletSummary } from '../../../src-shared/contract';
import type { ConnectionState } from '../../../src-shared/contract/market';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import type { NetworkChoice } from '../../../src-shared/network';
import type { SettingsStore } from '../../store/settings';
import type { NetworkService } from '../network/service';
import type { SessionService } from '../session/service';
import type { WalletService } from '../wallet/service';

export interface SettingsDeps {
  store: SettingsStore;
  network: NetworkService;
  session: SessionService;
  wallet: WalletService;
  emit: EmitEvent;
  /** Checks the spending password (throttled like every other check). */
  checkPassword: (password: string) => Promise<void>;
}

type Editable = Partial<
  Pick<Settings, 'theme' | 'limits' | 'skipOrderConfirmation' | 'notifyFills' | 'unverifiedOrders'>
>;

/** The trader's settings: one truth, pushed to every screen when it changes. */
export class SettingsService {
  constructor(private readonly deps: SettingsDeps) {}

  async get(): Promise<Settings> {
    const stored = await this.deps.store.read();
    const { autoLock } = await this.deps.session.status();
    return { ...stored, autoLock: autoLock ?? 15 };
  }

  async #changed(): Promise<Settings> {
    const settings = await this.get();
    this.deps.emit('settings:changed', settings);
    return settings;
  }

  async update(change: Editable): Promise<Settings> {
    await this.deps.store.update((current) => ({ ...current, ...change }));
    return this.#changed();
  }

  /**
   * Switches the exchange. API keys are kept per network, so the trading session locks: the
   * next unlock opens this network's key.
   */
  async setNetwork(choice: NetworkChoice): Promise<Settings> {
    await this.deps.network.switchTo(choice);
    return this.#changed();
  }

  connection(): ConnectionState {
    return this.deps.network.state();
  }

  /**
   * Staging and production keep the account's operation key encrypted on the exchange: fetch it,
   * open it with the trading password the exchange gave, seal it with the spending password.
   */
  async importOperationKey(request: {
    walletId: string;
    tradingPassword: string;
    password: string;
  }): Promise<WalletSummary> {
    const connection = await this.deps.network.connection();
    if (connection.isSandbox) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'The practice exchange uses the trading key Countersign made for this wallet; there is nothing to import.',
      );
    }
    const client = await connection.client(this.deps.session.apiKey());
    const { encryptedOperationKey, operationKeyHash } = await client.operationKey();
    return this.deps.wallet.importExchangeOperationKey({
      walletId: request.walletId,
      encryptedOperationKey,
      operationKeyHash,
      tradingPassword: request.tradingPassword,
      spendingPassword: request.password,
    });
  }

  /**
   * Wipes the embedded sandbox (every account, order and coin), after the spending password;
   * then the active wallet joins it again and is funded afresh.
   */
  async resetSandbox(password: string): Promise<null> {
    const connection = await this.deps.network.connection();
    const admin = await connection.sandboxAdmin();
    if (!admin) {
      throw new AppError(ErrorCode.InvalidInput, 'Only the practice exchange can be reset.');
    }
    await this.deps.checkPassword(password);
    await admin.reset();
    const { activeWalletId } = await this.deps.wallet.list();
    if (activeWalletId) {
      await this.deps.wallet.joinExchange({ walletId: activeWalletId, password });
    }
    return null;
  }
}
