import type { EmitEvent, SessionStatus } from '../../../src-shared/contract';
import type { AutoLock, LockReason } from '../../../src-shared/contract/session';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import type { NetworkName } from '../../../src-shared/network';
import type {
  SessionSettings,
  SigningKey,
  UnlockAttempts,
  WalletBook,
  WalletSecrets,
} from '../../wallet';
import { FREE_ATTEMPTS } from '../../wallet';

export interface SessionDeps {
  book: WalletBook;
  secrets: WalletSecrets;
  attempts: UnlockAttempts;
  settings: SessionSettings;
  emit: EmitEvent;
  /** The exchange the app talks to: its API key is opened with the trading key. */
  network: () => NetworkName;
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
  #walletId: string | null = null;
  #lockReason: LockReason = 'start';
  #autoLock: AutoLock | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: SessionDeps) {}

  get isUnlocked(): boolean {
    return this.#key !== null;
  }

  async #autoLockSetting(): Promise<AutoLock> {
    return (this.#autoLock ??= await this.deps.settings.autoLock());
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
    };
  }

  async #changed(): Promise<SessionStatus> {
    const status = await this.status();
    this.deps.emit('session:changed', status);
    return status;
  }

  async unlock(password: string): Promise<SessionStatus> {
    const wallet = await this.deps.book.active();
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'There is no wallet to unlock yet. Create or restore one first.',
      );
    }
    if (this.#key && this.#walletId === wallet.id) return this.status();
    await this.deps.attempts.assertMayTry();
    let key: SigningKey;
    try {
      key = await this.deps.secrets.openOperationKey(wallet.id, password);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.WrongPassword) {
        const failures = await this.deps.attempts.recordFailure();
        const left = FREE_ATTEMPTS - failures;
        const next = await this.deps.attempts.nextAttemptAt();
        const hint =
          left > 0
            ? ` ${left} more ${left === 1 ? 'try' : 'tries'} before a wait is imposed.`
            : ` Wait ${Math.ceil(((next ?? Date.now()) - Date.now()) / 1000)} s before the next try.`;
        await this.#changed();
        throw new AppError(ErrorCode.WrongPassword, `${error.message}${hint}`);
      }
      throw error;
    }
    if (key.keyHash !== wallet.operationKeyHash) {
      key.wipe();
      throw new AppError(
        ErrorCode.VaultCorrupted,
        'The trading key in the keychain does not belong to this wallet. Nothing was changed; restore the wallet from its recovery phrase.',
      );
    }
    await this.deps.attempts.recordSuccess();
    let apiKey: string | null;
    try {
      apiKey = await this.deps.secrets.openApiKey(wallet.id, this.deps.network(), password);
    } catch (error) {
      key.wipe();
      throw error;
    }
    this.#wipe();
    this.#key = key;
    this.#apiKey = apiKey;
    this.#walletId = wallet.id;
    await this.#armIdleTimer();
    return this.#changed();
  }

  #wipe(): void {
    this.#key?.wipe();
    this.#key = null;
    this.#apiKey = null;
    this.#walletId = null;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  async lock(reason: LockReason = 'user'): Promise<SessionStatus> {
    this.#wipe();
    this.#lockReason = reason;
    return this.#changed();
  }

  /** Immediate, synchronous lock for power events (suspend, screen lock); the event follows. */
  lockNow(reason: LockReason): void {
    const wasUnlocked = this.#key !== null;
    this.#wipe();
    this.#lockReason = reason;
    if (wasUnlocked) void this.#changed().catch(() => undefined);
  }

  async setAutoLock(autoLock: AutoLock): Promise<SessionStatus> {
    await this.deps.settings.setAutoLock(autoLock);
    this.#autoLock = autoLock;
    if (this.#key) await this.#armIdleTimer();
    return this.#changed();
  }

  async #armIdleTimer(): Promise<void> {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const autoLock = await this.#autoLockSetting();
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
    if (this.#key && this.#walletId === walletId) this.#apiKey = apiKey;
  }

  /** Pushes the current status (e.g. after the active wallet was renamed). */
  refresh(): Promise<SessionStatus> {
    return this.#changed();
  }

  /** The active wallet changed (selected, added, removed): its keys are not this session's. */
  async walletChanged(): Promise<SessionStatus> {
    this.#wipe();
    this.#lockReason = 'wallet-changed';
    return this.#changed();
  }
}
