import { randomUUID } from 'node:crypto';
import type {
  EmitEvent,
  OperationKind,
  OperationResult,
  OperationStep,
  PendingOperation,
  PreparedOperation,
  TransactionSummary,
} from '../../../src-shared/contract';
import type { Order } from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { ExchangeError, type ExchangeClient } from '../../exchange';
import type { Logger } from '../../log';
import { diskProblem } from '../../store/disk-problem';
import {
  readSignedFile,
  transactionEnvelope,
  type CancelOrderIntent,
  type DepositIntent,
  type ExchangeProfile,
  type PlaceOrderIntent,
  type Medium,
  type SignedFile,
  type SignedTransaction,
  type TransactionSigner,
  type WithdrawalIntent,
} from '../../signing';
import type { SaveFile } from '../files';
import type { JournalEntry, OperationJournal } from '../../store/journal';
import type { Connection, NetworkService } from '../network/service';
import { checkOf, summarise } from './summary';

type TradeIntent = PlaceOrderIntent | CancelOrderIntent;
type FundsIntent = DepositIntent | WithdrawalIntent;

/** What an area hands over once the exchange has built a transaction and the signer read it. */
export interface Built {
  kind: OperationKind;
  title: string;
  connection: Connection;
  txHex: string;
  intent: TradeIntent | FundsIntent;
  profile: ExchangeProfile;
  summary: TransactionSummary;
  report: { differences: string[]; warnings: string[] };
  offline: boolean;
  orderId: string | null;
  cancelsOrderId: string | null;
  expiresAt: number | null;
}

/** A transaction the exchange built, to be read by the signer and held for the trader's answer. */
export interface ToReview {
  kind: OperationKind;
  title: string;
  connection: Connection;
  txHex: string;
  intent: TradeIntent | FundsIntent;
  profile: ExchangeProfile;
  /** The wallet's keys, named in the dialog's list of signers. */
  keys: { operationKeyHash: string; paymentKeyHash: string | null };
  /** The trader's order, shown beside what the transaction's order request says. */
  orderTerms?: NonNullable<TransactionSummary['orderTerms']>;
  offline: boolean;
  orderId: string | null;
  cancelsOrderId: string | null;
  /** How long the exchange keeps this build valid. */
  ttlSeconds: number;
  /** When it stops being valid, for one built earlier (instead of `ttlSeconds` from now). */
  expiresAt?: number;
}

interface Prepared extends Built {
  id: string;
  /**
   * An order's or a cancel's entry in the journal, recorded unsigned when it was built (while the
   * signer reads it): resolves once it is on the disk, or rejects with why it could not be.
   */
  recorded?: { entry: JournalEntry; written: Promise<void> } | undefined;
  /** A watch-only wallet's fund movement saved to be signed on its offline device. */
  exported?: boolean;
}

/**
 * Nothing leaves for the exchange before it is in the journal: when the journal cannot be
 * written (a full disk, a folder it may not write to), the operation stops and the trader is told
 * why, what became of it (`outcome`) and what to do.
 */
const unjournaled = (error: unknown, outcome: string): AppError => {
  const disk = diskProblem(error);
  return new AppError(
    ErrorCode.Internal,
    `Countersign could not write this operation to its journal of pending operations on this computer (${disk?.reason ?? 'the write failed'}), and it sends nothing it has not written down first: ${outcome}. ${disk?.advice ?? 'Try again; if it keeps happening, restart the app.'}`,
    { cause: error },
  );
};

/** Why an order or a cancel recorded when it was built, and never signed, cannot be sent. */
const NOTHING_SIGNED =
  'Countersign stopped before this was signed, so there is nothing of it to send. Check your open orders, and place it again if it is not there.';

/**
 * How many prepared operations wait for the trader's answer at most. The app shows one dialog at
 * a time, so only abandoned ones or a burst from a script come near it.
 */
const MAX_WAITING = 100;

/** The exchange's answer to a transaction it already has. */
const ALREADY_SUBMITTED = 4302;

/** Orders and cancels: the exchange's order record says whether they took effect. */
const isTrade = (kind: OperationKind): boolean => kind === 'place-order' || kind === 'cancel-order';

export interface OperationsDeps {
  network: NetworkService;
  signer: TransactionSigner;
  journal: OperationJournal;
  emit: EmitEvent;
  logger: Logger;
  /** The unlocked session's API key for the exchange. */
  apiKey: () => string;
  /** Saves a transaction to be signed elsewhere where the trader chooses (the save dialog). */
  saveFile: SaveFile;
  /** Called after an operation landed, so balances and orders refresh at once. */
  afterChange?: (result: OperationResult) => void;
  /**
   * A watch-only wallet's deposit or withdrawal was handed to its offline device (saved, or shown
   * as QR codes): kept on disk to wait for its signature after a restart too.
   */
  handedOut?: (
    operationId: string,
    waiting: { txHex: string; intent: FundsIntent; expiresAt: number },
  ) => Promise<void>;
  /** One handed out was discarded: it waits no more. */
  released?: (operationId: string) => Promise<void>;
  /** Brings back, checked again, what waited for its signature before a restart. */
  restoreWaiting?: () => Promise<void>;
  now?: () => number;
}

/**
 * Confirms prepared operations: sign (after the signer's intent check, again) → journal →
 * submit → done. A signed transaction is in the journal before it leaves, and leaves the journal
 * only once the exchange has it (or the trader discards it). An order or a cancel is journaled,
 * unsigned, as soon as it is built, so its disk flush is not on the way to the submit. An ambiguous failure is never re-sent
 * blindly: the exchange is asked first whether it took effect.
 */
export class OperationsService {
  readonly #prepared = new Map<string, Prepared>();
  /** Operations whose confirmation is under way: each is signed and sent at most once. */
  readonly #confirming = new Set<string>();
  /** Orders and cancels being signed and sent: the next one is built after they are done. */
  readonly #tradesInFlight = new Set<Promise<unknown>>();
  /**
   * Transactions signed to be sent during this run, by id, until they expire: the operation each
   * belongs to. The exchange builds the same transaction for two operations asked for the same
   * thing in the same second (two equal deposits, say); it can happen only once, so only the
   * first of them is sent and answered as done.
   */
  readonly #signed = new Map<string, { operationId: string; title: string; until: number }>();
  /** Journal entries being submitted or discarded: a second answer for one is refused. */
  readonly #resolving = new Set<string>();

  constructor(private readonly deps: OperationsDeps) {}

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  progress(
    operation: { id: string; kind: OperationKind; title: string },
    step: OperationStep,
    message: string | null = null,
  ): void {
    this.deps.emit('operations:progress', {
      operationId: operation.id,
      kind: operation.kind,
      title: operation.title,
      step,
      message,
      at: new Date(this.#now()).toISOString(),
    });
  }

  /** A new operation id, announced as being built. */
  begin<K extends OperationKind>(kind: K, title: string): { id: string; kind: K; title: string } {
    const operation = { id: randomUUID(), kind, title };
    this.progress(operation, 'building');
    return operation;
  }

  /** Keeps a built and checked operation until the trader confirms or discards it. */
  /**
   * The signer reads the transaction and checks it against the intent; the result is held for
   * the confirmation dialog. Every area's prepare step ends here.
   */
  async review(
    operation: { id: string; title: string },
    request: ToReview,
    options: {
      /** Brought back after a restart, handed out to the offline device before it. */
      handedOut?: boolean;
      /**
       * Asked each time the signer finds a difference: builds the operation again when something
       * the exchange counts from has moved since the build was asked for (a market order's best
       * price), or answers null (and the difference is shown). What it builds is read and
       * checked like the first.
       */
      rebuild?: () => Promise<ToReview | null>;
    } = {},
  ): Promise<PreparedOperation> {
    const { keys, orderTerms, ttlSeconds, expiresAt: until, ...built } = request;
    const expiresAt = until ?? this.#now() + ttlSeconds * 1000;
    const recorded = isTrade(request.kind)
      ? this.#recordBuilt(operation, request, expiresAt)
      : undefined;
    let review: Awaited<ReturnType<TransactionSigner['review']>>;
    try {
      review = await this.deps.signer.review(request.txHex, request.intent, request.profile, {
        coins: request.connection.chain(),
      });
    } catch (error) {
      void this.#unrecord(recorded);
      throw error;
    }
    // What differs from the trader's intent can never be signed: it leaves the journal at once.
    if (review.report.differences.length) {
      const cleared = this.#unrecord(recorded);
      const again = options.rebuild ? await options.rebuild() : null;
      if (again) {
        // The same operation's entry: the first one's removal goes to the journal before it.
        await cleared;
        return this.review(operation, again, {
          ...(options.handedOut ? { handedOut: true } : {}),
          rebuild: options.rebuild,
        });
      }
    }
    const carriesOrder = review.decoded.outputs.some((o) => o.party === 'exchange-intent');
    return this.register(
      operation,
      {
        ...built,
        summary: summarise(
          review.decoded,
          request.connection.networkId,
          keys,
          carriesOrder ? (orderTerms ?? null) : null,
        ),
        report: review.report,
        expiresAt,
      },
      review.report.differences.length ? undefined : recorded,
      options,
    );
  }

  /**
   * Starts recording an order or a cancel the exchange built, unsigned, so that the disk's flush
   * runs while the signer reads it and the trader confirms: once it is signed, only its signed
   * bytes remain to be written before they are sent.
   */
  #recordBuilt(
    operation: { id: string; title: string },
    request: ToReview,
    expiresAt: number,
  ): Prepared['recorded'] {
    const entry = this.#entryOf({ ...request, ...operation, expiresAt }, null);
    const written = this.deps.journal.record(entry);
    // Awaited before signing, where a failure is the trader's answer; never left unhandled.
    written.catch(() => undefined);
    return { entry, written };
  }

  /** The journal's entry for an operation, recorded now: unsigned (null) or with its signature. */
  #entryOf(
    operation: Pick<
      Prepared,
      'id' | 'kind' | 'title' | 'connection' | 'orderId' | 'cancelsOrderId' | 'expiresAt'
    >,
    signed: Pick<SignedTransaction, 'txId' | 'signedTxHex'> | null,
  ): JournalEntry {
    return {
      id: operation.id,
      kind: operation.kind,
      title: operation.title,
      network: operation.connection.key,
      signedAt: new Date(this.#now()).toISOString(),
      txId: signed?.txId ?? null,
      signedTxHex: signed?.signedTxHex ?? null,
      orderId: operation.orderId,
      cancelsOrderId: operation.cancelsOrderId,
      expiresAt: operation.expiresAt,
      submitStartedAt: null,
    };
  }

  /** An unsigned entry whose operation ends here (discarded, refused, replaced) leaves the journal. */
  #unrecord(recorded: Prepared['recorded']): Promise<void> {
    if (!recorded) return Promise.resolve();
    return recorded.written.then(
      () =>
        this.deps.journal.remove(recorded.entry).catch((error: unknown) => {
          // Left behind, it is looked up and cleared on the next start.
          this.deps.logger.warn('could not clear an unsigned entry from the journal', error);
        }),
      // Never written: there is nothing to clear (the confirmation said why it stopped).
      () => undefined,
    );
  }

  /** Forgets a prepared operation that will not be signed. */
  #forget(prepared: Prepared): void {
    this.#prepared.delete(prepared.id);
    void this.#unrecord(prepared.recorded);
    this.#release(prepared);
  }

  /** One handed to the offline device waits no more (discarded, failed, or signed: see the journal). */
  #release(prepared: Prepared): void {
    if (prepared.exported) void this.deps.released?.(prepared.id);
  }

  register(
    operation: { id: string },
    built: Built,
    recorded?: Prepared['recorded'],
    options: { handedOut?: boolean } = {},
  ): PreparedOperation {
    const prepared: Prepared = {
      ...built,
      id: operation.id,
      recorded,
      ...(options.handedOut ? { exported: true } : {}),
    };
    // An abandoned dialog (a window reloaded while it was open) does not keep its transaction
    // forever: what has expired goes first, and past MAX_WAITING the oldest. Never one just
    // prepared and about to be confirmed, as a fixed handful would in a burst of operations.
    const now = this.#now();
    for (const waiting of [...this.#prepared.values()]) {
      if (
        waiting.expiresAt !== null &&
        waiting.expiresAt <= now &&
        !this.#confirming.has(waiting.id)
      )
        this.#forget(waiting);
    }
    if (this.#prepared.size >= MAX_WAITING) {
      const oldest = this.#prepared.values().next().value;
      // One being confirmed keeps its entry: its own confirmation decides what becomes of it.
      if (oldest && this.#confirming.has(oldest.id)) this.#prepared.delete(oldest.id);
      else if (oldest) this.#forget(oldest);
    }
    this.#prepared.set(prepared.id, prepared);
    // One brought back after a restart waits quietly in Funds, as it did before.
    if (!options.handedOut) this.progress(prepared, 'awaiting-confirmation');
    return this.#shown(prepared);
  }

  /** A prepared operation as the confirmation dialog shows it. */
  #shown(prepared: Prepared): PreparedOperation {
    const funds = prepared.kind === 'deposit' || prepared.kind === 'withdrawal';
    return {
      operationId: prepared.id,
      kind: prepared.kind,
      title: prepared.title,
      signer: funds ? 'wallet-key' : 'operation-key',
      offline: prepared.offline,
      saved: prepared.exported === true,
      needsPassword: funds && !prepared.offline,
      summary: prepared.summary,
      check: checkOf(prepared.report),
      expiresAt: prepared.expiresAt === null ? null : new Date(prepared.expiresAt).toISOString(),
    };
  }

  /**
   * A watch-only wallet's deposits and withdrawals saved for the offline device and not sent yet,
   * still valid, oldest first: the trader may close the dialog meanwhile and come back to each.
   */
  async awaitingSignature(): Promise<PreparedOperation[]> {
    await this.#restoreWaiting();
    const now = this.#now();
    return [...this.#prepared.values()]
      .filter((p) => p.exported && (p.expiresAt === null || p.expiresAt > now))
      .map((p) => this.#shown(p));
  }

  /**
   * The wallet coins (`txId#index`) that deposits handed to the offline device spend, with the
   * title of the one holding each: a second deposit built on one of them would be refused once
   * the first is sent (or the first, if the second went first). Held until sent, discarded or
   * expired.
   */
  heldCoins(connection: Connection): Map<string, string> {
    const now = this.#now();
    const held = new Map<string, string>();
    for (const p of this.#prepared.values()) {
      if (!p.exported || p.intent.kind !== 'deposit' || p.connection.key !== connection.key)
        continue;
      if (p.expiresAt !== null && p.expiresAt <= now) continue;
      for (const coin of p.intent.inputs.keys()) held.set(coin, p.title);
    }
    return held;
  }

  /** Whether an operation is prepared and held here. */
  has(operationId: string): boolean {
    return this.#prepared.has(operationId);
  }

  /** What waited for its signature before a restart; a failure to read it is logged, not thrown. */
  async #restoreWaiting(): Promise<void> {
    await this.deps.restoreWaiting?.().catch((error: unknown) => {
      this.deps.logger.warn('could not bring back what waits for an offline signature', error);
    });
  }

  /** Marks a watch-only wallet's operation handed to its offline device, and keeps it on disk. */
  async #handOut(prepared: Prepared): Promise<void> {
    if (prepared.exported) return;
    prepared.exported = true;
    if (prepared.intent.kind !== 'deposit' && prepared.intent.kind !== 'withdrawal') return;
    await this.deps
      .handedOut?.(prepared.id, {
        txHex: prepared.txHex,
        intent: prepared.intent,
        expiresAt: prepared.expiresAt ?? this.#now() + 3 * 3_600_000,
      })
      .catch((error: unknown) => {
        // It still waits in this run; only a restart would lose it.
        this.deps.logger.warn('could not keep on disk what waits for an offline signature', error);
      });
  }

  discard(operationId: string): null {
    const prepared = this.#prepared.get(operationId);
    if (prepared) {
      this.#forget(prepared);
      this.progress(prepared, 'discarded');
    }
    return null;
  }

  async #client(connection: Connection): Promise<ExchangeClient> {
    return connection.client(this.deps.apiKey());
  }

  async confirm(request: {
    operationId: string;
    password?: string | undefined;
    acceptedWarnings?: string[] | undefined;
  }): Promise<OperationResult> {
    return this.#confirm(request, null);
  }

  /**
   * A watch-only wallet's deposit or withdrawal, as built and checked, as a cardano-cli text
   * envelope for its offline device to sign; refused when it expired or is not what was asked.
   */
  #unsigned(operationId: string): { prepared: Prepared; envelope: string } {
    const prepared = this.#offlineOperation(operationId);
    if (prepared.expiresAt !== null && prepared.expiresAt <= this.#now()) {
      throw new AppError(
        ErrorCode.Exchange,
        'The exchange’s transaction has expired, so it is not worth signing any more. Close this and start it again.',
      );
    }
    if (prepared.report.differences.length) {
      throw new AppError(
        ErrorCode.IntentMismatch,
        'This transaction is not what you asked for, so Countersign will not hand it out to be signed. Discard it.',
      );
    }
    return { prepared, envelope: transactionEnvelope(prepared.txHex) };
  }

  /**
   * Saves it through the save dialog for the offline device to sign. Null when the trader closed
   * the dialog without saving.
   */
  async exportUnsigned(operationId: string): Promise<{ fileName: string } | null> {
    const { prepared, envelope } = this.#unsigned(operationId);
    const saved = await this.deps.saveFile(
      `countersign-${prepared.kind}-${prepared.summary.txId.slice(0, 8)}.unsigned.json`,
      envelope,
      'transaction',
    );
    if (saved) await this.#handOut(prepared);
    return saved;
  }

  /**
   * Hands it out as text, for the renderer to show as QR codes that the offline device scans:
   * from then on it waits for its signature as a saved one does.
   */
  async unsignedTransaction(operationId: string): Promise<{ envelope: string }> {
    const { prepared, envelope } = this.#unsigned(operationId);
    await this.#handOut(prepared);
    return { envelope };
  }

  /**
   * Sends a watch-only wallet's deposit or withdrawal with the signature its offline device
   * made: the file's content, as the trader chose it. A file that cannot be used leaves the
   * operation waiting for another.
   */
  async submitSigned(request: {
    operationId: string;
    signedFile: string;
    /** How it came: a file, or the QR code of one (for the words of a refusal). */
    medium?: Medium | undefined;
    acceptedWarnings?: string[] | undefined;
  }): Promise<OperationResult> {
    if (!this.#prepared.has(request.operationId)) await this.#restoreWaiting();
    this.#offlineOperation(request.operationId);
    return this.#confirm(request, readSignedFile(request.signedFile, request.medium));
  }

  /** A prepared fund movement of a watch-only wallet, or a refusal that says why not. */
  #offlineOperation(operationId: string): Prepared {
    const prepared = this.#prepared.get(operationId);
    if (!prepared) {
      throw new AppError(
        ErrorCode.NotFound,
        'This operation is no longer waiting (it was sent, discarded, replaced, or it expired). Start it again.',
      );
    }
    if (!prepared.offline || (prepared.kind !== 'deposit' && prepared.kind !== 'withdrawal')) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'Only a watch-only wallet’s deposits and withdrawals are signed on another device; confirm this one here.',
      );
    }
    return prepared;
  }

  async #confirm(
    request: {
      operationId: string;
      password?: string | undefined;
      acceptedWarnings?: string[] | undefined;
    },
    signedFile: SignedFile | null,
  ): Promise<OperationResult> {
    const prepared = this.#prepared.get(request.operationId);
    if (!prepared) {
      throw new AppError(
        ErrorCode.NotFound,
        'This operation is no longer waiting (it was confirmed, discarded or replaced). Start it again.',
      );
    }
    // Taken before the first await: a second confirm of the same operation (a double click, a
    // script) is refused instead of signing and submitting it twice.
    if (this.#confirming.has(prepared.id)) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'This operation is already being signed and sent. Wait for it to finish; it will not be sent twice.',
      );
    }
    this.#confirming.add(prepared.id);
    const running = this.#confirmTaken(prepared, request, signedFile);
    const trade = isTrade(prepared.kind) ? running.catch(() => undefined) : null;
    if (trade) this.#tradesInFlight.add(trade);
    try {
      return await running;
    } finally {
      this.#confirming.delete(prepared.id);
      if (trade) this.#tradesInFlight.delete(trade);
    }
  }

  /**
   * Resolves once the orders and cancels being signed and sent now are done. Each spends the
   * account's current exchange UTxO, so one built before the last has landed would spend the
   * same coin and be refused (4301): the trading area builds the next after this. True when it
   * had to wait (what was read of the market before may have moved meanwhile).
   */
  async tradesSettled(): Promise<boolean> {
    let waited = false;
    while (this.#tradesInFlight.size) {
      waited = true;
      await Promise.all([...this.#tradesInFlight]);
    }
    return waited;
  }

  async #confirmTaken(
    prepared: Prepared,
    request: { password?: string | undefined; acceptedWarnings?: string[] | undefined },
    signedFile: SignedFile | null,
  ): Promise<OperationResult> {
    const current = await this.deps.network.connection();
    if (current !== prepared.connection || prepared.connection.closed) {
      this.#forget(prepared);
      throw new AppError(
        ErrorCode.InvalidInput,
        'The network changed after this was prepared. Nothing was signed; start it again.',
      );
    }
    if (prepared.expiresAt !== null && prepared.expiresAt <= this.#now()) {
      this.#forget(prepared);
      throw new AppError(
        ErrorCode.Exchange,
        'The exchange’s transaction expired before it was confirmed. Nothing was signed; start it again.',
      );
    }
    const funds = prepared.kind === 'deposit' || prepared.kind === 'withdrawal';
    if (funds && prepared.offline && !signedFile) {
      throw new AppError(
        ErrorCode.WatchOnly,
        'This wallet is watch-only: the key that moves its funds is not on this computer. Save the transaction, sign it on the device that holds the key, and load the signed file here.',
      );
    }
    // Sending needs the session's API key: a session that locked while the trader was at the
    // offline computer (the idle timer) is unlocked first, with the operation still waiting,
    // rather than signed and then stopped before it leaves.
    if (signedFile) this.deps.apiKey();
    if (funds && !prepared.offline && !request.password) {
      throw new AppError(
        ErrorCode.WrongPassword,
        'Type your spending password to sign this: it moves funds from your wallet key.',
      );
    }
    this.progress(prepared, 'signing');
    let signed: SignedTransaction;
    try {
      // Its unsigned entry is on the disk before anything is signed.
      await prepared.recorded?.written.catch((error: unknown) => {
        throw unjournaled(error, 'nothing was signed or sent');
      });
      const options = {
        acceptedWarnings: request.acceptedWarnings ?? [],
        coins: prepared.connection.chain(),
      };
      signed = signedFile
        ? await this.deps.signer.attachOfflineSignature(
            prepared.txHex,
            prepared.intent as FundsIntent,
            prepared.profile,
            signedFile,
            options,
          )
        : funds
          ? await this.deps.signer.signFunds(
              prepared.txHex,
              prepared.intent as FundsIntent,
              prepared.profile,
              request.password ?? '',
              options,
            )
          : await this.deps.signer.signTrade(
              prepared.txHex,
              prepared.intent as TradeIntent,
              prepared.profile,
              options,
            );
    } catch (error) {
      // A wrong password may be typed again (after the wait, if there were too many); anything
      // else ends this operation.
      const retryable =
        error instanceof AppError &&
        (error.code === ErrorCode.WrongPassword ||
          error.code === ErrorCode.TooManyAttempts ||
          error.code === ErrorCode.SignedFile);
      if (!retryable) this.#forget(prepared);
      this.#failed(prepared, error);
      throw error;
    }
    // Signed: from here the journal answers for it (and a crash brings it back as pending).
    this.#prepared.delete(prepared.id);
    this.#release(prepared);
    try {
      this.#claim(signed.txId, prepared);
    } catch (error) {
      void this.#unrecord(prepared.recorded);
      throw error;
    }

    let entry = this.#entryOf(prepared, signed);
    try {
      if (isTrade(prepared.kind)) {
        // After a crash, a trade's fate is read from the exchange's order record whether or not
        // its submit had begun. Its entry has been on the disk since it was built, so its signed
        // bytes need only be written before they leave (a crash of the app cannot undo that) and
        // are flushed while the submit is on its way: a disk flush was most of an order's cost.
        entry = { ...entry, submitStartedAt: entry.signedAt };
        await this.deps.journal.record(entry, { flush: prepared.recorded ? 'soon' : 'now' });
        this.progress(prepared, 'journaled');
      } else {
        // A fund movement's L1 transaction cannot be looked up the same way: the journal must
        // tell "never sent" from "maybe sent".
        await this.deps.journal.record(entry);
        this.progress(prepared, 'journaled');
        entry = await this.deps.journal.update(entry, {
          submitStartedAt: new Date(this.#now()).toISOString(),
        });
      }
    } catch (error) {
      const failure = unjournaled(error, 'it was signed, but nothing was sent');
      void this.#unrecord(prepared.recorded);
      // Never sent: the same transaction, built again, may be confirmed again.
      if (this.#signed.get(signed.txId)?.operationId === prepared.id)
        this.#signed.delete(signed.txId);
      this.#failed(prepared, failure);
      throw failure;
    }
    this.progress(prepared, 'submitting');
    try {
      const result = await this.#submit(prepared.connection, entry);
      await this.deps.journal.remove(entry);
      this.progress(prepared, 'done');
      this.deps.afterChange?.(result);
      return result;
    } catch (error) {
      const settled = await this.#settleAfterFailure(prepared.connection, entry, error);
      if (settled) {
        this.progress(prepared, 'done');
        this.deps.afterChange?.(settled);
        return settled;
      }
      this.#failed(prepared, error);
      throw error;
    }
  }

  /** Takes a signed transaction for this operation, or refuses if another operation has it. */
  #claim(txId: string, prepared: Prepared): void {
    const now = this.#now();
    for (const [id, claim] of this.#signed) if (claim.until < now) this.#signed.delete(id);
    const other = this.#signed.get(txId);
    if (other && other.operationId !== prepared.id) {
      const error = new AppError(
        ErrorCode.InvalidInput,
        `The exchange built exactly the same transaction for “${other.title}”, confirmed a moment ago, and a transaction can happen only once. This one was not sent and nothing more moved. Check your balances and orders, then start it again if you still want it.`,
      );
      this.#failed(prepared, error);
      throw error;
    }
    this.#signed.set(txId, {
      operationId: prepared.id,
      title: prepared.title,
      until: prepared.expiresAt ?? now + 60 * 60_000,
    });
  }

  #failed(operation: { id: string; kind: OperationKind; title: string }, error: unknown): void {
    const message =
      error instanceof AppError
        ? error.message
        : 'Something went wrong inside Countersign. Nothing was sent; try again.';
    this.progress(operation, 'failed', message);
  }

  async #submit(connection: Connection, entry: JournalEntry): Promise<OperationResult> {
    const { signedTxHex } = entry;
    if (signedTxHex === null) throw new AppError(ErrorCode.InvalidInput, NOTHING_SIGNED);
    const client = await this.#client(connection);
    const base = { operationId: entry.id, kind: entry.kind, title: entry.title };
    switch (entry.kind) {
      case 'place-order': {
        const order = await client.submitOrder({
          orderId: entry.orderId ?? '',
          signedTx: signedTxHex,
        });
        return { ...base, txHash: entry.txId, order };
      }
      case 'cancel-order': {
        const { txHash } = await client.submitCancel(signedTxHex);
        return { ...base, txHash: txHash ?? entry.txId, order: null };
      }
      case 'deposit': {
        const { txHash } = await client.submitDeposit(signedTxHex);
        return { ...base, txHash, order: null };
      }
      case 'withdrawal': {
        const { txHash } = await client.submitWithdrawal(signedTxHex);
        return { ...base, txHash, order: null };
      }
    }
  }

  /**
   * After a failed submit: did it take effect anyway? Definite refusals leave the journal (nothing
   * happened); an "already submitted" means it landed; an ambiguous failure stays in the journal
   * as pending, to be resolved with what the exchange says.
   */
  async #settleAfterFailure(
    connection: Connection,
    entry: JournalEntry,
    error: unknown,
  ): Promise<OperationResult | null> {
    if (error instanceof ExchangeError && !error.ambiguous) {
      if (error.exchangeCode === ALREADY_SUBMITTED) {
        await this.deps.journal.remove(entry);
        return this.#landedResult(connection, entry);
      }
      await this.deps.journal.remove(entry);
      return null;
    }
    const state = await this.#stateOf(connection, entry);
    if (state.state === 'landed') {
      await this.deps.journal.remove(entry);
      return this.#landedResult(connection, entry);
    }
    if (state.state === 'expired') await this.deps.journal.remove(entry);
    else await this.#announcePending(connection);
    return null;
  }

  async #landedResult(connection: Connection, entry: JournalEntry): Promise<OperationResult> {
    let order: Order | null = null;
    if (entry.kind === 'place-order' && entry.orderId) {
      order = await (await this.#client(connection)).order(entry.orderId).catch(() => null);
    }
    return {
      operationId: entry.id,
      kind: entry.kind,
      title: entry.title,
      txHash: entry.txId,
      order,
    };
  }

  /** Asks the exchange what became of a journaled operation. */
  async #stateOf(
    connection: Connection,
    entry: JournalEntry,
  ): Promise<Pick<PendingOperation, 'state' | 'explanation'>> {
    const expired = entry.expiresAt !== null && entry.expiresAt <= this.#now();
    try {
      // Only an order or a cancel is looked up (a fund movement's fate is in the journal), so
      // the session's API key is needed only for those.
      if (entry.kind === 'place-order' && entry.orderId) {
        const client = await this.#client(connection);
        const order = await client.order(entry.orderId).catch((error: unknown) => {
          if (error instanceof ExchangeError && !error.ambiguous) return null;
          throw error;
        });
        if (order && order.status !== 'building') {
          return {
            state: 'landed',
            explanation: `The exchange has this order (${order.status.replace('_', ' ')}).`,
          };
        }
      }
      if (entry.kind === 'cancel-order' && entry.cancelsOrderId) {
        const client = await this.#client(connection);
        const order = await client.order(entry.cancelsOrderId);
        if (order.status === 'cancelled' || order.status === 'partially_cancelled') {
          return { state: 'landed', explanation: 'The exchange shows the order as cancelled.' };
        }
        if (order.status !== 'open' && order.status !== 'partially_filled') {
          return {
            state: 'expired',
            explanation: `The order is ${order.status.replace('_', ' ')} now, so there is nothing to cancel.`,
          };
        }
      }
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.Locked) {
        return {
          state: 'unknown',
          explanation:
            'Your wallet is locked: unlock it, and Countersign asks the exchange whether it already has this before you decide.',
        };
      }
      return {
        state: 'unknown',
        explanation: `The exchange could not be asked (${error instanceof AppError ? error.message : 'no answer'}). Try again when it is reachable.`,
      };
    }
    if (expired) {
      return {
        state: 'expired',
        explanation:
          'It was not submitted in time and the exchange would refuse it now. Discard it and start again.',
      };
    }
    if (entry.kind === 'deposit' || entry.kind === 'withdrawal') {
      return {
        state: entry.submitStartedAt ? 'unknown' : 'not-submitted',
        explanation: entry.submitStartedAt
          ? 'It may or may not have reached the exchange. Submitting again is safe: the exchange refuses a transaction it already has, and nothing is paid twice.'
          : 'It was signed but never sent. You can submit it or discard it.',
      };
    }
    return {
      state: 'not-submitted',
      explanation: 'The exchange does not have it. You can submit it now or discard it.',
    };
  }

  /**
   * An order or a cancel recorded when it was built and never signed in this journal: nothing of
   * it can be sent, so it is never the trader's to decide. Once the exchange has been asked, it
   * leaves the journal (if the signed bytes were lost to a power cut after it was sent, it is in
   * the exchange's orders like any other); when the exchange cannot be asked, it stays, to be
   * asked again. One being prepared in this run (its dialog may be open) is left alone.
   */
  async #settleUnsigned(connection: Connection, entry: JournalEntry): Promise<void> {
    if (this.#prepared.has(entry.id) || this.#confirming.has(entry.id)) return;
    const { state } = await this.#stateOf(connection, entry);
    if (state !== 'unknown') await this.deps.journal.remove(entry);
  }

  async pending(): Promise<PendingOperation[]> {
    const connection = await this.deps.network.connection();
    const entries = await this.deps.journal.list(connection.key);
    const out: PendingOperation[] = [];
    for (const entry of entries) {
      const { txId } = entry;
      if (txId === null || entry.signedTxHex === null) {
        await this.#settleUnsigned(connection, entry);
        continue;
      }
      const state = await this.#stateOf(connection, entry);
      out.push({
        id: entry.id,
        kind: entry.kind,
        title: entry.title,
        network: connection.label,
        signedAt: entry.signedAt,
        txId,
        ...state,
      });
    }
    return out;
  }

  async #announcePending(connection: Connection): Promise<void> {
    if ((await this.deps.network.connection()) !== connection) return;
    this.deps.emit('operations:pending', await this.pending());
  }

  /** On start: what an earlier run left signed and unsent, announced to the trader. */
  async recover(): Promise<void> {
    try {
      const connection = await this.deps.network.connection();
      const entries = await this.deps.journal.list(connection.key);
      if (!entries.length) return;
      const pending = await this.pending();
      if (pending.length && (await this.deps.network.connection()) === connection) {
        this.deps.emit('operations:pending', pending);
      }
    } catch (error) {
      this.deps.logger.warn('could not check the journal of pending operations', error);
    }
  }

  async resolve(request: {
    id: string;
    action: 'submit' | 'discard';
  }): Promise<PendingOperation[]> {
    // Taken before the first await: a double click sends it once, not twice.
    if (this.#resolving.has(request.id)) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'This operation is already being sent or discarded. Wait for it to finish; it will not be sent twice.',
      );
    }
    this.#resolving.add(request.id);
    try {
      return await this.#resolve(request);
    } finally {
      this.#resolving.delete(request.id);
    }
  }

  async #resolve(request: {
    id: string;
    action: 'submit' | 'discard';
  }): Promise<PendingOperation[]> {
    const connection = await this.deps.network.connection();
    const entry = (await this.deps.journal.list(connection.key)).find((e) => e.id === request.id);
    if (!entry) {
      throw new AppError(
        ErrorCode.NotFound,
        'That pending operation is not in the journal any more.',
      );
    }
    const operation = { id: entry.id, kind: entry.kind, title: entry.title };
    if (request.action === 'submit' && entry.signedTxHex === null) {
      await this.#settleUnsigned(connection, entry);
      throw new AppError(ErrorCode.InvalidInput, NOTHING_SIGNED);
    }
    if (request.action === 'discard') {
      await this.deps.journal.remove(entry);
      this.progress(operation, 'discarded');
    } else {
      const state = await this.#stateOf(connection, entry);
      if (state.state === 'landed') {
        await this.deps.journal.remove(entry);
        this.progress(operation, 'done');
      } else if (state.state === 'expired') {
        await this.deps.journal.remove(entry);
        throw new AppError(
          ErrorCode.Exchange,
          `${state.explanation} It was removed from the list.`,
        );
      } else {
        this.progress(operation, 'submitting');
        const started = await this.deps.journal.update(entry, {
          submitStartedAt: new Date(this.#now()).toISOString(),
        });
        try {
          const result = await this.#submit(connection, started);
          await this.deps.journal.remove(started);
          this.progress(operation, 'done');
          this.deps.afterChange?.(result);
        } catch (error) {
          const settled = await this.#settleAfterFailure(connection, started, error);
          if (!settled) {
            this.#failed(operation, error);
            throw error;
          }
          this.progress(operation, 'done');
          this.deps.afterChange?.(settled);
        }
      }
    }
    const left = await this.pending();
    this.deps.emit('operations:pending', left);
    return left;
  }
}
