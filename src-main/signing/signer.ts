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
  type AssetInfo,
  type DecodedTransaction,
  type KnownOutput,
  type OwnWallet,
} from './decode';
import {
  checkIntentTime,
  checkIntentTimeless,
  type CancelOrderIntent,
  type DepositIntent,
  type IntentReport,
  type PlaceOrderIntent,
  type SigningIntent,
  type WithdrawalIntent,
} from './intent';
import type {
  ActiveWallet,
  CoinLookup,
  PasswordThrottle,
  TradingKeySource,
  WalletKeySource,
} from './key-source';
import { intentPolicyOf } from './intents/shared';
import type { ExchangeProfile } from './profile';
import { MEDIUM_WORDS, type SignedFile } from './text-envelope';
import {
  addVkeyWitnesses,
  keyHashOf,
  transactionIdOf,
  witnessVerifies,
  type VkeyWitness,
} from './transaction-bytes';

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

export interface ReviewOptions {
  /** Outputs the wallet knows (its UTxOs), by `txId#index`, to show and check what is spent. */
  knownOutputs?: ReadonlyMap<string, KnownOutput>;
  /**
   * The chain, asked what every input of a deposit or withdrawal holds and where: the wallet
   * key's signature spends any input payable to it, so each must be accounted for. Without it
   * (or when it cannot answer) a fund movement is not signed.
   */
  coins?: CoinLookup;
}

export interface SignOptions extends ReviewOptions {
  /** Warnings (from `review`) the trader saw and confirmed. */
  acceptedWarnings?: readonly string[];
}

/** Outputs of transactions this signer signed that pay one of our keys, kept this long. */
const OWN_OUTPUT_MEMORY_MS = 6 * 60 * 60_000;
const OWN_OUTPUT_MEMORY_SIZE = 500;

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

/** A trade transaction as `review` read it, and what it was read against (by identity). */
interface ReadTrade {
  decoded: DecodedTransaction;
  /** What the check found apart from the clock's part (which is checked again each time). */
  timeless: IntentReport;
  own: OwnWallet;
  intent: SigningIntent;
  profile: ExchangeProfile;
  knownOutputs: ReviewOptions['knownOutputs'];
  signedOwnVersion: number;
}

/**
 * Orders and cancels whose reading is kept for their signature: the app signs one soon after the
 * dialog (or without it); an older one is simply read again.
 */
const REVIEWED_TRADES_KEPT = 20;

/**
 * What the confirmation dialog calls each asset: the exchange's assets by name, and its request
 * token (the intent policy's token with no name, which an order or a withdrawal sends to the
 * exchange's request address to mark the request).
 */
const assetsShown = (profile: ExchangeProfile): ReadonlyMap<string, AssetInfo> => {
  const assets = new Map(profile.assets ?? []);
  const token = intentPolicyOf(profile);
  if (token && !assets.has(token)) assets.set(token, { name: 'request token', decimals: 0 });
  return assets;
};

export class TransactionSigner {
  readonly #own = new Map<string, OwnWallet>();
  /**
   * Outputs paying our keys in transactions signed here, until the chain shows them: a later
   * transaction that spends one (say, a deposit's change not yet confirmed) spends our coin.
   */
  readonly #signedOwn = new Map<string, KnownOutput & { at: number }>();
  /** Bumped whenever `#signedOwn` changes: a transaction read before then is read again. */
  #signedOwnVersion = 0;
  /**
   * Orders and cancels read by `review`, by their exact hex, with what they were read against:
   * signing the same bytes for the same wallet, intent and profile does not decode them again
   * (the intent is still checked again, at signing time). Only the newest few are kept.
   */
  readonly #reviewedTrades = new Map<string, ReadTrade>();

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

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  async #review(
    wallet: WalletRecord,
    txHex: string,
    intent: SigningIntent,
    profile: ExchangeProfile,
    options: ReviewOptions,
  ): Promise<Review> {
    const now = this.#now();
    for (const [id, out] of this.#signedOwn) {
      if (now - out.at < OWN_OUTPUT_MEMORY_MS) continue;
      this.#signedOwn.delete(id);
      this.#signedOwnVersion++;
    }
    const own = this.#ownWallet(wallet, profile.networkId);
    const context = {
      networkId: profile.networkId,
      own,
      exchange: profile.addresses,
      assets: assetsShown(profile),
    };
    const funds = intent.kind === 'deposit' || intent.kind === 'withdrawal';
    const read = funds ? undefined : this.#reviewedTrades.get(txHex);
    if (
      read &&
      read.own === own &&
      read.intent === intent &&
      read.profile === profile &&
      read.knownOutputs === options.knownOutputs &&
      read.signedOwnVersion === this.#signedOwnVersion
    ) {
      // The same bytes, read against the same things: only the clock's part can differ now.
      return {
        decoded: read.decoded,
        report: this.#withTime(read.decoded, intent, profile, read.timeless),
      };
    }
    const known = new Map(options.knownOutputs ?? []);
    for (const [id, out] of this.#signedOwn) known.set(id, out);
    if (intent.kind === 'deposit') for (const [id, out] of intent.inputs) known.set(id, out);
    if (intent.kind === 'withdrawal') {
      for (const [id, out] of intent.exchangeUtxos ?? []) known.set(id, out);
    }
    let decoded = decodeTransaction(txHex, { ...context, knownOutputs: known });
    const unaccounted = decoded.inputs.filter((i) => i.known === null).map((i) => i.id);
    let lookupProblem: string | null = null;
    if (funds && unaccounted.length) {
      // The wallet key's signature spends every input payable to it, listed by the app or not:
      // the chain says whose each one is. An output it does not know is no coin of ours on L1.
      const absent = new Set<string>();
      if (!options.coins) {
        lookupProblem = 'no chain service was given to look them up';
      } else {
        try {
          const found = await options.coins.resolve(unaccounted);
          for (const id of unaccounted) {
            const out = found.get(id);
            if (out) known.set(id, out);
            else absent.add(id);
          }
        } catch (error) {
          throw new AppError(
            ErrorCode.Network,
            `Countersign could not look up the coins this ${intent.kind} spends, so it cannot prove that none of them is yours. ${error instanceof AppError ? error.message : 'The chain service did not answer.'} Nothing was signed; try again in a moment.`,
            { cause: error },
          );
        }
      }
      decoded = decodeTransaction(txHex, {
        ...context,
        knownOutputs: known,
        absentOutputs: absent,
      });
    }
    const timeless = checkIntentTimeless(decoded, intent, profile);
    if (lookupProblem !== null) {
      timeless.differences.push(
        `Countersign could not check whose coins ${unaccounted.join(', ')} are (${lookupProblem}); it signs deposits and withdrawals only when every coin they spend is accounted for.`,
      );
    }
    if (
      (intent.kind === 'place-order' || intent.kind === 'cancel-order') &&
      profile.operationKeyHash !== wallet.operationKeyHash
    ) {
      timeless.differences.push(
        'It is meant for another trading key than this wallet’s (what you typed is what gets signed).',
      );
    }
    if (!funds) {
      this.#reviewedTrades.delete(txHex);
      this.#reviewedTrades.set(txHex, {
        decoded,
        timeless,
        own,
        intent,
        profile,
        knownOutputs: options.knownOutputs,
        signedOwnVersion: this.#signedOwnVersion,
      });
      for (const oldest of this.#reviewedTrades.keys()) {
        if (this.#reviewedTrades.size <= REVIEWED_TRADES_KEPT) break;
        this.#reviewedTrades.delete(oldest);
      }
    }
    const report = this.#withTime(decoded, intent, profile, timeless);
    return { decoded, report };
  }

  /** The clock's findings now, before the rest of a check (as `checkIntent` orders them). */
  #withTime(
    decoded: DecodedTransaction,
    intent: SigningIntent,
    profile: ExchangeProfile,
    timeless: IntentReport,
  ): IntentReport {
    const timed = checkIntentTime(decoded, intent, profile, { now: this.#now() });
    return {
      differences: [...timed.differences, ...timeless.differences],
      warnings: [...timed.warnings, ...timeless.warnings],
    };
  }

  /** Decodes and checks without signing: what the trader is shown before confirming. */
  async review(
    txHex: string,
    intent: SigningIntent,
    profile: ExchangeProfile,
    options: ReviewOptions = {},
  ): Promise<Review> {
    await cryptoIsReady();
    return this.#review(await this.#activeWallet(), txHex, intent, profile, options);
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
    return this.#witnessed(review, { vkey: key.publicKey, signature }, warnings);
  }

  /** The checked transaction with the wallet's witness added (its body bytes untouched). */
  #witnessed(review: Review, witness: VkeyWitness, warnings: string[]): SignedTransaction {
    const { decoded } = review;
    const signedTxHex = addVkeyWitnesses(decoded.bytes, [witness]);
    const at = this.#now();
    for (const o of decoded.outputs) {
      if (o.party !== 'own' && o.party !== 'own-other') continue;
      this.#signedOwn.set(`${decoded.id}#${o.index}`, {
        address: o.address,
        amounts: o.amounts,
        at,
      });
      this.#signedOwnVersion++;
    }
    while (this.#signedOwn.size > OWN_OUTPUT_MEMORY_SIZE) {
      const oldest = this.#signedOwn.keys().next().value;
      if (oldest === undefined) break;
      this.#signedOwn.delete(oldest);
      this.#signedOwnVersion++;
    }
    return { txId: decoded.id, signedTxHex, decoded, warnings };
  }

  /**
   * The active wallet's reading of a transaction, refused unless it is what was asked for (and,
   * with `keyHere`, unless the wallet's own key is on this computer): the warnings accepted.
   */
  async #checked(
    txHex: string,
    intent: SigningIntent,
    profile: ExchangeProfile,
    options: SignOptions,
    { keyHere = false } = {},
  ): Promise<{ wallet: WalletRecord; review: Review; warnings: string[] }> {
    await cryptoIsReady();
    const wallet = await this.#activeWallet();
    if (keyHere && wallet.kind === 'watch-only') {
      throw new AppError(
        ErrorCode.WatchOnly,
        'This is a watch-only wallet: its key is not on this computer. Sign deposits and withdrawals offline with the wallet that holds the key.',
      );
    }
    const review = await this.#review(wallet, txHex, intent, profile, options);
    return { wallet, review, warnings: this.#refuseUnlessClean(review, options) };
  }

  /** Signs an order or a cancel with the unlocked session's operation key. */
  async signTrade(
    txHex: string,
    intent: PlaceOrderIntent | CancelOrderIntent,
    profile: ExchangeProfile,
    options: SignOptions = {},
  ): Promise<SignedTransaction> {
    const { review, warnings } = await this.#checked(txHex, intent, profile, options);
    // Read once for the dialog and once more here at most: a second signature reads it again.
    this.#reviewedTrades.delete(txHex);
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
    const { wallet, review, warnings } = await this.#checked(txHex, intent, profile, options, {
      keyHere: true,
    });
    const key = await this.deps.attempts.guard(() =>
      this.deps.secrets.openPaymentKey(wallet.id, password),
    );
    try {
      return this.#sign(review, key, warnings);
    } finally {
      key.wipe();
    }
  }

  /**
   * A deposit or withdrawal of a watch-only wallet, signed on the offline device that holds its
   * key: the transaction is checked against the intent again, exactly as if it were signed here,
   * and the file must carry a valid signature of this wallet's payment key over this very
   * transaction's id. Only that witness is added, to the bytes read and checked here: nothing
   * else of the file (a body, other witnesses, metadata) is ever sent.
   */
  async attachOfflineSignature(
    txHex: string,
    intent: DepositIntent | WithdrawalIntent,
    profile: ExchangeProfile,
    file: SignedFile,
    options: SignOptions = {},
  ): Promise<SignedTransaction> {
    const { wallet, review, warnings } = await this.#checked(txHex, intent, profile, options);
    const { decoded } = review;
    const short = (id: string) => `${id.slice(0, 10)}…${id.slice(-6)}`;
    const words = MEDIUM_WORDS[file.medium];
    const handedOut = file.medium === 'qr' ? 'shown as QR codes' : 'saved';
    if (file.kind === 'transaction') {
      const fileId = transactionIdOf(file.tx.body);
      if (fileId !== decoded.id) {
        throw new AppError(
          ErrorCode.SignedFile,
          `${words.this} holds another transaction (ID ${short(fileId)}) than the one waiting here (ID ${short(decoded.id)}). Nothing was sent. ${words.again} the transaction ${handedOut} for this ${intent.kind}.`,
        );
      }
    }
    const paymentKeyHash = this.#ownWallet(wallet, profile.networkId).paymentKeyHash ?? '';
    const ours = file.witnesses.filter((w) => keyHashOf(w.vkey) === paymentKeyHash);
    if (ours.length === 0) {
      throw new AppError(
        ErrorCode.SignedFile,
        `${words.this} is not signed by the key of “${wallet.name}” (key hash ${short(paymentKeyHash)}): it was signed with another wallet’s key. Nothing was sent. Sign the transaction ${handedOut} here on the device that holds this wallet’s recovery phrase.`,
      );
    }
    const txId = Buffer.from(decoded.id, 'hex');
    const valid = ours.find((w) => witnessVerifies(w, txId));
    if (!valid) {
      throw new AppError(
        ErrorCode.SignedFile,
        `The signature in ${words.the} is not a valid signature of this transaction (ID ${short(decoded.id)}): it was made for another transaction or ${words.the} was altered. Nothing was sent. Sign the transaction ${handedOut} here again, and ${file.medium === 'qr' ? 'scan the new code' : 'choose the new file'}.`,
      );
    }
    return this.#witnessed(review, valid, warnings);
  }
}
