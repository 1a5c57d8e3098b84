import type { Api } from '../../../../src-shared/contract';
import {
  OperationProgress as OperationProgressSchema,
  MAX_TRANSACTION_FILE_CHARS,
  PreparedOperation as PreparedOperationSchema,
  type OperationKind,
  type OperationResult,
  type OperationStep,
  type PreparedOperation,
  type TransferMedium,
} from '../../../../src-shared/contract/operations';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { z } from 'zod';
import { ErrorCode } from '../../../../src-shared/errors';
import type { Result } from '../../../../src-shared/result';
import { ApiError, messageOf, unwrap } from '../api';
import { orderTopic, transactionTopic, type Notices } from '../shell/notices.svelte';
import type { RunOperation } from './context';

export type Phase = 'preparing' | 'review' | 'running' | 'failed';

/** The steps a trader sees, in order, and which of main's steps belong to each. */
export const VISIBLE_STEPS = [
  { id: 'building', label: 'Building', from: ['checking-limits', 'building'] },
  { id: 'checking', label: 'Checking', from: ['checking', 'awaiting-confirmation'] },
  { id: 'signing', label: 'Signing', from: ['signing', 'journaled'] },
  { id: 'submitting', label: 'Submitting', from: ['submitting', 'verifying'] },
  { id: 'done', label: 'Done', from: ['done'] },
] as const satisfies ReadonlyArray<{ id: string; label: string; from: readonly OperationStep[] }>;

export type VisibleStep = (typeof VISIBLE_STEPS)[number]['id'];

/** Where a main step sits among the visible ones (failed and discarded stay where they were). */
export const visibleIndexOf = (step: OperationStep): number =>
  VISIBLE_STEPS.findIndex((v) => (v.from as readonly OperationStep[]).includes(step));

/** The operation on screen in the confirmation dialog. */
export interface DialogState {
  phase: Phase;
  prepared: PreparedOperation | null;
  /** Index into VISIBLE_STEPS of the step reached. */
  reached: number;
  /** Under the password field: a wrong password keeps the dialog open to try again. */
  passwordError: string | null;
  /**
   * Under the signed-file field (a watch-only wallet's fund movement): a file that cannot be used
   * keeps the dialog open to choose another.
   */
  fileError: string | null;
  /** What went wrong, in words, when the operation failed. */
  error: string | null;
}

/** An order confirmed without the dialog, shown as a line of progress until it ends. */
export interface BackgroundOperation {
  operationId: string;
  title: string;
  reached: number;
}

type Decision =
  | { kind: 'confirm'; password?: string; acceptedWarnings: string[] }
  | { kind: 'submit-signed'; signed: SignedContent; acceptedWarnings: string[] }
  | { kind: 'cancel' }
  | { kind: 'keep' }
  | { kind: 'rebuild' };

const ORDER_KINDS: readonly OperationKind[] = ['place-order', 'cancel-order'];

/** Main's answer to saving a transaction for the offline device. */
const SavedFile = z.object({ fileName: z.string().min(1).max(500) }).nullable();
/** Main's answer to handing it out as text (for QR codes). */
const Unsigned = z.object({ envelope: z.string().min(1).max(MAX_TRANSACTION_FILE_CHARS) });

/** What the offline device signed, as it came back: a file's text, or a QR code's. */
export interface SignedContent {
  text: string;
  medium: TransferMedium;
}

const UNREADABLE_ANSWER =
  'The main process answered something Countersign cannot read. Restart the app and try again.';

/** The dialog showing a freshly prepared operation, with nothing typed or chosen yet. */
const reviewOf = (prepared: PreparedOperation): DialogState => ({
  phase: 'review',
  prepared,
  reached: visibleIndexOf('checking'),
  passwordError: null,
  fileError: null,
  error: null,
});

const DONE_TITLES: Record<OperationKind, string> = {
  'place-order': 'Order placed',
  'cancel-order': 'Order cancelled',
  deposit: 'Deposit submitted',
  withdrawal: 'Withdrawal submitted',
};

const FAILED_TITLES: Record<OperationKind, string> = {
  'place-order': 'Order not placed',
  'cancel-order': 'Order not cancelled',
  deposit: 'Deposit not made',
  withdrawal: 'Withdrawal not made',
};

export interface RunnerDeps {
  api: Api;
  notices: Notices;
  /** The trader's setting: orders may skip the dialog (never the check). */
  skipOrderConfirmation: () => boolean;
  /**
   * Asks the trader to unlock (the unlock dialog), for a signed file loaded after the session
   * locked: true once unlocked. Without it, the dialog says to unlock.
   */
  requestUnlock?: () => Promise<boolean>;
}

/**
 * Runs every state change the same way: main prepares it (builds, decodes, checks it against the
 * intent), the trader reviews it in the one confirmation dialog (with the spending password when
 * funds move), main signs and submits it, and every step and the outcome are reported. The dialog
 * is skipped only for orders, only when the trader chose so, and never when the check found a
 * difference, a warning, or needs anything from the trader.
 */
export class OperationRunner {
  dialog = $state<DialogState | null>(null);
  background = $state<BackgroundOperation[]>([]);

  private decide: ((decision: Decision) => void) | null = null;
  private slot: Promise<unknown> = Promise.resolve();
  private readonly stopProgress: () => void;

  constructor(private readonly deps: RunnerDeps) {
    this.stopProgress = deps.api.on('operations:progress', (payload) => {
      const parsed = OperationProgressSchema.safeParse(payload);
      if (parsed.success) this.progress(parsed.data.operationId, parsed.data.step);
    });
  }

  readonly run: RunOperation = async (prepare) => {
    const prepared = await this.prepare(prepare);
    if (!prepared) return null;
    if (this.maySkip(prepared)) {
      return this.runInBackground(prepared);
    }
    // One dialog at a time: a second operation waits for the first to be decided.
    const turn = this.slot.then(() => this.runInDialog(prepare, prepared));
    this.slot = turn.catch(() => undefined);
    return turn;
  };

  /** Whether the trader may go on without seeing the dialog. */
  maySkip(prepared: PreparedOperation): boolean {
    return (
      this.deps.skipOrderConfirmation() &&
      ORDER_KINDS.includes(prepared.kind) &&
      prepared.check.matches &&
      prepared.check.differences.length === 0 &&
      prepared.check.warnings.length === 0 &&
      !prepared.needsPassword &&
      !prepared.offline
    );
  }

  /** The dialog's buttons call these. */
  confirm(password: string | undefined, acceptedWarnings: string[]): void {
    this.decide?.({
      kind: 'confirm',
      ...(password === undefined ? {} : { password }),
      acceptedWarnings,
    });
  }

  /** A watch-only wallet's operation: sends it with the offline device's signature. */
  submitSigned(signed: SignedContent, acceptedWarnings: string[]): void {
    this.decide?.({ kind: 'submit-signed', signed, acceptedWarnings });
  }

  /**
   * Saves the operation in the dialog for the offline device to sign (main's save dialog): the
   * file's name, null if the trader closed the dialog, or what went wrong.
   */
  async saveForOfflineSigning(): Promise<
    { ok: true; fileName: string | null } | { ok: false; message: string }
  > {
    const prepared = this.dialog?.prepared;
    if (!prepared) return { ok: false, message: 'There is no operation to save.' };
    const saved = await this.deps.api.operations.exportUnsigned({
      operationId: prepared.operationId,
    });
    if (!saved.ok) return { ok: false, message: saved.error.message };
    const parsed = SavedFile.safeParse(saved.value);
    return parsed.success
      ? { ok: true, fileName: parsed.data?.fileName ?? null }
      : { ok: false, message: UNREADABLE_ANSWER };
  }

  /**
   * The operation in the dialog as a text envelope, to show as QR codes for the offline device
   * to scan; or what went wrong.
   */
  async showForOfflineSigning(): Promise<
    { ok: true; envelope: string } | { ok: false; message: string }
  > {
    const prepared = this.dialog?.prepared;
    if (!prepared) return { ok: false, message: 'There is no operation to show.' };
    const answer = await this.deps.api.operations.unsignedTransaction({
      operationId: prepared.operationId,
    });
    if (!answer.ok) return { ok: false, message: answer.error.message };
    const parsed = Unsigned.safeParse(answer.value);
    return parsed.success
      ? { ok: true, envelope: parsed.data.envelope }
      : { ok: false, message: UNREADABLE_ANSWER };
  }

  cancel(): void {
    this.decide?.({ kind: 'cancel' });
  }

  /**
   * Closes the dialog of a watch-only wallet's operation saved for its offline device without
   * discarding it: it waits in Funds for its signed file.
   */
  keepForLater(): void {
    this.decide?.({ kind: 'keep' });
  }

  rebuild(): void {
    this.decide?.({ kind: 'rebuild' });
  }

  private async prepare(
    prepare: () => Promise<Result<Serialized<PreparedOperation>>>,
  ): Promise<PreparedOperation | null> {
    let value: unknown;
    try {
      value = await unwrap(prepare());
    } catch (error) {
      const refused = error instanceof ApiError && error.code === ErrorCode.IntentMismatch;
      this.deps.notices.error(
        refused ? 'Refused: not what you asked for' : 'Could not prepare it',
        refused ? `${messageOf(error)} Nothing was signed.` : messageOf(error),
      );
      return null;
    }
    const parsed = PreparedOperationSchema.safeParse(value);
    if (!parsed.success) {
      this.deps.notices.error(
        'Could not show this operation',
        'The main process answered something Countersign cannot read, so nothing was signed. Restart the app and try again.',
      );
      return null;
    }
    return parsed.data;
  }

  private async runInBackground(
    prepared: PreparedOperation,
  ): Promise<Serialized<OperationResult> | null> {
    this.background = [
      ...this.background,
      {
        operationId: prepared.operationId,
        title: prepared.title,
        reached: visibleIndexOf('checking'),
      },
    ];
    try {
      const result = await unwrap(
        this.deps.api.operations.confirm({ operationId: prepared.operationId }),
      );
      this.#done(prepared, result);
      return result;
    } catch (error) {
      this.deps.notices.error(
        FAILED_TITLES[prepared.kind],
        `${prepared.title}: ${messageOf(error)}`,
      );
      return null;
    } finally {
      this.background = this.background.filter((b) => b.operationId !== prepared.operationId);
    }
  }

  private waitForDecision(): Promise<Decision> {
    return new Promise((resolve) => {
      this.decide = (decision) => {
        this.decide = null;
        resolve(decision);
      };
    });
  }

  private async runInDialog(
    prepare: () => Promise<Result<Serialized<PreparedOperation>>>,
    first: PreparedOperation,
  ): Promise<Serialized<OperationResult> | null> {
    let prepared = first;
    this.dialog = reviewOf(prepared);
    /** A decision to carry out again, once the trader has unlocked. */
    let again: Decision | null = null;
    try {
      for (;;) {
        const decision: Decision = again ?? (await this.waitForDecision());
        again = null;
        if (decision.kind === 'cancel') {
          if (this.dialog?.phase !== 'failed') {
            await this.deps.api.operations.discard({ operationId: prepared.operationId });
            this.deps.notices.info('Cancelled: nothing was signed', prepared.title);
          }
          return null;
        }
        if (decision.kind === 'keep') {
          this.deps.notices.info(
            'Waiting for its signature',
            `${prepared.title}: once it is signed, load the signed file from Funds › Waiting for a signature.`,
          );
          return null;
        }
        if (decision.kind === 'rebuild') {
          await this.deps.api.operations.discard({ operationId: prepared.operationId });
          this.dialog = { ...this.dialog, phase: 'preparing', prepared: null, error: null };
          const again = await this.prepare(prepare);
          if (!again) return null;
          prepared = again;
          this.dialog = reviewOf(prepared);
          continue;
        }
        this.dialog = { ...this.dialog, phase: 'running', passwordError: null, fileError: null };
        const accepted = decision.acceptedWarnings.length
          ? { acceptedWarnings: decision.acceptedWarnings }
          : {};
        const outcome =
          decision.kind === 'submit-signed'
            ? await this.deps.api.operations.submitSigned({
                operationId: prepared.operationId,
                signedFile: decision.signed.text,
                medium: decision.signed.medium,
                ...accepted,
              })
            : await this.deps.api.operations.confirm({
                operationId: prepared.operationId,
                ...(decision.password === undefined ? {} : { password: decision.password }),
                ...accepted,
              });
        if (outcome.ok) {
          this.#done(prepared, outcome.value);
          return outcome.value;
        }
        const { code, message } = outcome.error;
        if (code === ErrorCode.WrongPassword || code === ErrorCode.TooManyAttempts) {
          this.dialog = { ...this.dialog, phase: 'review', passwordError: message };
          continue;
        }
        if (code === ErrorCode.SignedFile) {
          this.dialog = { ...this.dialog, phase: 'review', fileError: message };
          continue;
        }
        if (code === ErrorCode.Locked && decision.kind === 'submit-signed') {
          // Locked while the trader was at the offline computer (nothing was sent, the operation
          // still waits): unlock, then send the same file.
          this.dialog = { ...this.dialog, phase: 'review' };
          if (await this.deps.requestUnlock?.()) {
            again = decision;
            continue;
          }
          this.dialog = { ...this.dialog, fileError: message };
          continue;
        }
        this.dialog = { ...this.dialog, phase: 'failed', error: message };
        this.deps.notices.error(FAILED_TITLES[prepared.kind], `${prepared.title}: ${message}`);
        // The dialog shows what happened until the trader closes it.
        await this.waitForDecision();
        return null;
      }
    } finally {
      this.dialog = null;
      this.decide = null;
    }
  }

  /**
   * Tells that an operation went through. Its toast is about the order, or the deposit's or
   * withdrawal's transaction: what comes of it later (a fill, which may even be told first; the
   * funds landing) takes its place on screen.
   */
  #done(prepared: PreparedOperation, result: Serialized<OperationResult>): void {
    const orderId = result.order?.id ?? prepared.summary.orderTerms?.orderId ?? null;
    const topic =
      prepared.kind === 'deposit' || prepared.kind === 'withdrawal'
        ? result.txHash === null
          ? null
          : transactionTopic(result.txHash)
        : orderId === null
          ? null
          : orderTopic(orderId);
    this.deps.notices.success(DONE_TITLES[prepared.kind], prepared.title, {
      topic,
      earlierStep: prepared.kind !== 'cancel-order',
    });
  }

  private progress(operationId: string, step: OperationStep): void {
    const index = visibleIndexOf(step);
    if (index < 0) return;
    const dialog = this.dialog;
    if (dialog?.prepared?.operationId === operationId && index > dialog.reached) {
      this.dialog = { ...dialog, reached: index };
    }
    this.background = this.background.map((b) =>
      b.operationId === operationId && index > b.reached ? { ...b, reached: index } : b,
    );
  }

  dispose(): void {
    this.stopProgress();
  }
}
