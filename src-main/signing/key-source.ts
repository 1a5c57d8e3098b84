import type { SigningKey, WalletRecord } from '../wallet';
import type { KnownOutput } from './decode';

/**
 * What the signer needs from the rest of the app, as seams it does not own: the key that signs
 * trades (the unlocked session's operation key today; an offline export later), the wallet key
 * opened with the password for one deposit or withdrawal, the active wallet, and the password
 * throttle. The session and wallet services implement them as they are; nothing here imports the
 * services.
 */

/** The key that signs orders and cancels. */
export interface TradingKeySource {
  /**
   * Runs `use` with the operation key of the active wallet, which must not escape `use`; throws
   * `LOCKED` (with a message for the trader) when no key is available.
   */
  withOperationKey<T>(use: (key: SigningKey) => T): T;
}

/** Opens the wallet (payment) key with the spending password, for one signature. */
export interface WalletKeySource {
  /** Throws `WRONG_PASSWORD` for a wrong password. */
  openPaymentKey(walletId: string, password: string): Promise<SigningKey>;
}

/** The wallet whose keys sign. */
export interface ActiveWallet {
  active(): Promise<WalletRecord | null>;
}

/** Every check of the spending password goes through the same throttle. */
export interface PasswordThrottle {
  guard<T>(check: () => Promise<T>): Promise<T>;
}

/**
 * What the chain says the outputs a transaction spends hold, and at which address: null for an
 * output it does not know. The signer asks before moving funds with the wallet key, because its
 * signature spends every input payable to that key, whatever the app's own lists say.
 */
export interface CoinLookup {
  resolve(refs: readonly string[]): Promise<ReadonlyMap<string, KnownOutput | null>>;
}
