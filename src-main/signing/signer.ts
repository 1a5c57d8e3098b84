import { AppError, ErrorCode } from '../../src-shared/errors';
import {
  addressesOf,
  cryptoIsReady,
  parseAccountPublicKey,
  type SigningKey,
  type WalletRecord,
} from '../wallet';
import {
  decodeTransaction,
  type DecodedTransaction,
  type KnownOutput,
  type OwnWallet,
} from './decode';
import {
  checkIntent,
  type CancelOrderIntent,
  type DepositIntent,
  type IntentReport,
  type PlaceOrderIntent,
  type SigningIntent,
  type WithdrawalIntent,
} from './intent';
import type {
  ActiveWallet,
  PasswordThrottle,
  TradingKeySource,
  WalletKeySource,
} from './key-source';
import type { ExchangeProfile } from './profile';
import { addVkeyWitnesses } from './transaction-bytes';

/**
 * The only place a transaction gets signed. It decodes the exchange's transaction, checks it
 * against what the trader asked for, and signs only when nothing differs: orders and cancels with
 * the unlocked session's operation key; deposits and withdrawals with the wallet key, opened with
 * the password for this one signature and wiped right after. Witnesses are added without
 * re-encoding the body, so the exchange's transaction id stays valid.
 */
export interface SignedTransaction {
  txId: string;
  signedTxHex: string;
  decoded: DecodedTransaction;
  /** Warnings the trader accepted. */
  warnings: string[];
}

export interface Review {
  decoded: DecodedTransaction;
  report: IntentReport;
}

export interface SignOptions {
  /** Warnings (from `review`) the trader saw and confirmed. */
  acceptedWarnings?: readonly string[];
  /** Outputs the wallet knows (its UTxOs), by `txId#index`, to show and check what is spent. */
  knownOutputs?: ReadonlyMap<string, KnownOutput>;
}

export interface SignerDeps {
  /** The operation key for trades (the session service). */
  session: TradingKeySource;
  /** The wallet key for deposits and withdrawals (the wallet secrets). */
  secrets: WalletKeySource;
  book: ActiveWallet;
  attempts: PasswordThrottle;
  /** This computer's time in ms, for validity intervals (default `Date.now`). */
  now?: () => number;
}

export class TransactionSigner {
  readonly #own = new Map<string, OwnWallet>();

  constructor(private readonly deps: SignerDeps) {}

  async #activeWallet(): Promise<WalletRecord> {
    const wallet = await this.deps.book.active();
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'There is no wallet yet. Create or restore one first.',
      );
    }
    return wallet;
  }

  #ownWallet(wallet: WalletRecord, networkId: 0 | 1): OwnWallet {
    const cacheKey = `${wallet.id}/${wallet.accountPublicKey}/${networkId}`;
    let own = this.#own.get(cacheKey);
    if (!own) {
      const a = addressesOf(parseAccountPublicKey(wallet.accountPublicKey), networkId);
      own = {
        addresses: [a.baseAddress],
        paymentKeyHash: a.paymentKeyHash,
        stakeKeyHash: a.stakeKeyHash,
        otherKeyHashes: [wallet.operationKeyHash],
      };
      this.#own.set(cacheKey, own);
    }
    return own;
  }

  #review(
    wallet: WalletRecord,
    txHex: string,
    intent: SigningIntent,
    profile: ExchangeProfile,
    knownOutputs?: ReadonlyMap<string, KnownOutput>,
  ): Review {
    const known = new Map(knownOutputs ?? []);
    if (intent.kind === 'deposit') for (const [id, out] of intent.inputs) known.set(id, out);
    if (intent.kind === 'withdrawal') {
      for (const [id, out] of intent.exchangeUtxos ?? []) known.set(id, out);
    }
    const decoded = decodeTransaction(txHex, {
      networkId: profile.networkId,
      own: this.#ownWallet(wallet, profile.networkId),
      exchange: profile.addresses,
      knownOutputs: known,
      ...(profile.assets ? { assets: profile.assets } : {}),
    });
    const report = checkIntent(decoded, intent, profile, { now: (this.deps.now ?? Date.now)() });
    if (
      (intent.kind === 'place-order' || intent.kind === 'cancel-order') &&
      profile.operationKeyHash !== wallet.operationKeyHash
    ) {
      report.differences.push(
        'It is meant for another trading key than this wallet’s (what you typed is what gets signed).',
      );
    }
    return { decoded, report };
  }

  /** Decodes and checks without signing: what the trader is shown before confirming. */
  async review(
    txHex: string,
    intent: SigningIntent,
    profile: ExchangeProfile,
    knownOutputs?: ReadonlyMap<string, KnownOutput>,
  ): Promise<Review> {
    await cryptoIsReady();
    return this.#review(await this.#activeWallet(), txHex, intent, profile, knownOutputs);
  }

  #refuseUnlessClean(review: Review, options: SignOptions): string[] {
    const { differences, warnings } = review.report;
    if (differences.length) {
      throw new AppError(
        ErrorCode.IntentMismatch,
        `The exchange’s transaction is not what you asked for: ${differences.join(' ')} Nothing was signed.`,
      );
    }
    const accepted = new Set(options.acceptedWarnings ?? []);
    const open = warnings.filter((w) => !accepted.has(w));
    if (open.length) {
      throw new AppError(
        ErrorCode.IntentMismatch,
        `Confirm before signing: ${open.join(' ')} Nothing was signed.`,
      );
    }
    return warnings;
  }

  #sign(review: Review, key: SigningKey, warnings: string[]): SignedTransaction {
    const signature = key.sign(Buffer.from(review.decoded.id, 'hex'));
    const signedTxHex = addVkeyWitnesses(review.decoded.bytes, [
      { vkey: key.publicKey, signature },
    ]);
    return { txId: review.decoded.id, signedTxHex, decoded: review.decoded, warnings };
  }

  /** Signs an order or a cancel with the unlocked session's operation key. */
  async signTrade(
    txHex: string,
    intent: PlaceOrderIntent | CancelOrderIntent,
    profile: ExchangeProfile,
    options: SignOptions = {},
  ): Promise<SignedTransaction> {
    await cryptoIsReady();
    const wallet = await this.#activeWallet();
    const review = this.#review(wallet, txHex, intent, profile, options.knownOutputs);
    const warnings = this.#refuseUnlessClean(review, options);
    return this.deps.session.withOperationKey((key) => this.#sign(review, key, warnings));
  }

  /**
   * Signs a deposit or a withdrawal with the wallet key, opened with the password for this
   * signature only and wiped right after. Wrong passwords count towards the same throttle as
   * unlocking.
   */
  async signFunds(
    txHex: string,
    intent: DepositIntent | WithdrawalIntent,
    profile: ExchangeProfile,
    password: string,
    options: SignOptions = {},
  ): Promise<SignedTransaction> {
    await cryptoIsReady();
    const wallet = await this.#activeWallet();
    if (wallet.kind === 'watch-only') {
      throw new AppError(
        ErrorCode.WatchOnly,
        'This is a watch-only wallet: its key is not on this computer. Sign deposits and withdrawals offline with the wallet that holds the key.',
      );
    }
    const review = this.#review(wallet, txHex, intent, profile, options.knownOutputs);
    const warnings = this.#refuseUnlessClean(review, options);
    const key = await this.deps.attempts.guard(() =>
      this.deps.secrets.openPaymentKey(wallet.id, password),
    );
    try {
      return this.#sign(review, key, warnings);
    } finally {
      key.wipe();
    }
  }
}
