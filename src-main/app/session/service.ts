import type { EmitEvent, SessionStatus } from '../../../src-shared/contract';
import type { AutoLock, LockReason } from '../../../src-shared/contract/session';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import type { NetworkName } from '../../../src-shared/network';
import type {
  SessionSettings,
  SigningKey,
  UnlockAttempts,
  WalletBook,
  WalletRecord,
  WalletSecrets,
} from '../../wallet';

export interface SessionDeps {
  book: WalletBook;
  secrets: WalletSecrets;
  attempts: UnlockAttempts;
  settings: SessionSettings;
  emit: EmitEvent;
  /** The exchange the app talks to: its API key is opened with the trading key. */
  network: () => NetworkName;
  /** What the app's other data files (settings, journal) had to repair, in plain words. */
  notices?: () => Array<string | null>;
}

/**
 * The trading session of the active wallet. `unlock` opens the operation key with the spending
 * password and keeps it in memory; it locks again on demand, after the idle timeout, on system
 * suspend or screen lock (`lockNow`, wired by the Electron glue), and when the wallet changes.
 * Locking wipes the key bytes. Each change is pushed as `session:changed`.
 */
export class SessionService {
  #key: SigningKey | null = null;
  #apiKey: string | null = null;
  #blockfrost: string | null = null;
  #walletId: string | null = null;
  #lockReason: LockReason = 'start';
  /** Bumped by every lock and change of wallet: an unlock that straddles one is void. */
  #generation = 0;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: SessionDeps) {}

  get isUnlocked(): boolean {
    return this.#key !== null;
  }

  #autoLockSetting(): Promise<AutoLock> {
    return this.deps.settings.autoLock();
  }

  /** What the app had to repair in its data files during this run, in plain words. */
  notices(): string[] {
    return [
      this.deps.book.notice(),
      this.deps.settings.notice(),
      this.deps.attempts.notice(),
      ...(this.deps.notices?.() ?? []),
    ].filter((n): n is string => n !== null);
  }

  async status(): Promise<SessionStatus> {
    const wallet = await this.deps.book.active();
    const autoLock = await this.#autoLockSetting();
    const nextUnlockAttemptAt = wallet ? await this.deps.attempts.nextAttemptAt() : null;
    const unlocked = this.#key !== null && wallet?.id === this.#walletId;
    return {
      state: !wallet ? 'no-wallet' : unlocked ? 'unlocked' : 'locked',
      walletName: wallet?.name ?? null,
      walletId: wallet?.id ?? null,
      walletKind: wallet?.kind ?? null,
      autoLock,
      lockReason: wallet && !unlocked ? this.#lockReason : null,
      nextUnlockAttemptAt,
      notices: this.notices(),
    };
  }

  async #changed(): Promise<SessionStatus> {
    const status = await this.status();
    this.deps.emit('session:changed', status);
    return status;
  }

  /**
   * Opens the trading session with the spending password. The password is always checked, also
   * while unlocked (a wrong one fails and counts), through the shared throttle. A lock or a
   * change of wallet while the password is being checked wins: the key is wiped, not kept.
   */
  async unlock(password: string): Promise<SessionStatus> {
    const generation = this.#generation;
    const wallet = await this.deps.book.active();
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'There is no wallet to unlock yet. Create or restore one first.',
      );
    }
    let opened: { key: SigningKey; apiKey: string | null; blockfrost: string | null };
    try {
      // In the wallet's turn: a key being replaced or removed is never read halfway.
      opened = await this.deps.secrets.inTurn(wallet.id, async () => {
        const record = await this.deps.book.get(wallet.id);
        return this.deps.attempts.guard(() => this.#open(record, password));
      });
    } catch (error) {
      if (
        error instanceof AppError &&
        (error.code === ErrorCode.WrongPassword || error.code === ErrorCode.TooManyAttempts)
      ) {
        await this.#changed();
      }
      throw error;
    }
    if (generation !== this.#generation || (await this.deps.book.active())?.id !== wallet.id) {
      opened.key.wipe();
      throw new AppError(
        ErrorCode.Locked,
        'The session was locked, or another wallet was chosen, while your password was being checked. Unlock again if you still want to trade.',
      );
    }
    this.#wipe();
    this.#key = opened.key;
    this.#apiKey = opened.apiKey;
    this.#blockfrost = opened.blockfrost;
    this.#walletId = wallet.id;
    await this.#armIdleTimer();
    return this.#changed();
  }

  /**
   * The password check of an unlock: the trading key, checked against the wallet, and its access
   * keys for this network (the exchange's API key, a Blockfrost project id).
   */
  async #open(
    wallet: WalletRecord,
    password: string,
  ): Promise<{ key: SigningKey; apiKey: string | null; blockfrost: string | null }> {
    const key = await this.deps.secrets.openOperationKey(wallet.id, password);
    try {
      if (key.keyHash !== wallet.operationKeyHash) {
        throw new AppError(
          ErrorCode.VaultCorrupted,
          'The trading key in the keychain does not belong to this wallet. Nothing was changed; restore the wallet from its recovery phrase.',
        );
      }
      const network = this.deps.network();
      const apiKey = await this.deps.secrets.openApiKey(wallet.id, network, password);
      const blockfrost = await this.deps.secrets.openNetworkSecret(
        wallet.id,
        'blockfrost',
        network,
        password,
      );
      return { key, apiKey, blockfrost };
    } catch (error) {
      key.wipe();
      throw error;
    }
  }

  #wipe(): void {
    this.#key?.wipe();
    this.#key = null;
    this.#apiKey = null;
    this.#blockfrost = null;
    this.#walletId = null;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  async lock(reason: LockReason = 'user'): Promise<SessionStatus> {
    this.#generation++;
    this.#wipe();
    this.#lockReason = reason;
    return this.#changed();
  }

  /** Immediate, synchronous lock for power events (suspend, screen lock); the event follows. */
  lockNow(reason: LockReason): void {
    const wasUnlocked = this.#key !== null;
    this.#generation++;
    this.#wipe();
    this.#lockReason = reason;
    if (wasUnlocked) void this.#changed().catch(() => undefined);
  }

  async setAutoLock(autoLock: AutoLock): Promise<SessionStatus> {
    await this.deps.settings.setAutoLock(autoLock);
    if (this.#key) await this.#armIdleTimer();
    return this.#changed();
  }

  async #armIdleTimer(): Promise<void> {
    const autoLock = await this.#autoLockSetting();
    // Cleared and set with no wait in between: two arms at once never leave two timers.
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (autoLock === 'never' || !this.#key) return;
    this.#idleTimer = setTimeout(
      () => void this.lock('idle').catch(() => undefined),
      autoLock * 60_000,
    );
    this.#idleTimer.unref?.();
  }

  /** The trader did something: the idle countdown starts again. */
  touch(): void {
    if (this.#key) void this.#armIdleTimer();
  }

  /**
   * Runs `use` with the unlocked operation key of the active wallet; `LOCKED` when there is none.
   * The key must not escape `use`.
   */
  withOperationKey<T>(use: (key: SigningKey) => T): T {
    if (!this.#key || this.#key.wiped) {
      throw new AppError(
        ErrorCode.Locked,
        'The trading session is locked. Unlock it with your spending password, then try again.',
      );
    }
    this.touch();
    return use(this.#key);
  }

  /**
   * The exchange API key of the unlocked wallet, for the exchange client's requests. `LOCKED`
   * while locked; `NOT_FOUND` when none was saved for this network.
   */
  apiKey(): string {
    if (!this.#key) {
      throw new AppError(
        ErrorCode.Locked,
        'The trading session is locked. Unlock it with your spending password, then try again.',
      );
    }
    if (this.#apiKey === null) {
      throw new AppError(
        ErrorCode.NotFound,
        'No API key is saved for this wallet on this exchange. Add it in the wallet settings.',
      );
    }
    return this.#apiKey;
  }

  /** A new API key was saved while unlocked: use it from now on. */
  apiKeyChanged(walletId: string, apiKey: string): void {
    if (this.#key && this.#walletId === walletId) {
      const changed = this.#apiKey !== apiKey;
      this.#apiKey = apiKey;
      // Whatever needs the unlocked session's key (the account's live feed) starts now, or starts
      // again with the new one: a replaced key (the practice exchange was reset) means the old
      // one is refused from now on.
      if (changed) void this.#changed().catch(() => undefined);
    }
  }

  /**
   * The unlocked wallet's Blockfrost project id for this network, or null (locked, or none saved:
   * L1 is then read through Koios).
   */
  blockfrost(): string | null {
    return this.#key ? this.#blockfrost : null;
  }

  /** A Blockfrost project id was saved (or forgotten: null) while unlocked: use it from now on. */
  blockfrostChanged(walletId: string, projectId: string | null): void {
    if (this.#key && this.#walletId === walletId) this.#blockfrost = projectId;
  }

  /** Pushes the current status (e.g. after the active wallet was renamed). */
  refresh(): Promise<SessionStatus> {
    return this.#changed();
  }

  /** The active wallet changed (selected, added, removed): its keys are not this session's. */
  /** Something was repaired after the start (the practice exchange's data): every screen hears. */
  noticesChanged(): Promise<SessionStatus> {
    return this.#changed();
  }

  async walletChanged(): Promise<SessionStatus> {
    this.#generation++;
    this.#wipe();
    this.#lockReason = 'wallet-changed';
    return this.#changed();
  }
}
