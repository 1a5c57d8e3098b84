import { z } from 'zod';
import { event, operation } from './define';
import { Order, Timestamp } from '../domain';

/**
 * Every state change is build (exchange) → inspect and sign (main) → submit (exchange). An area
 * `prepare…`s an operation: main asks the exchange to build it, decodes the transaction and checks
 * it against what the trader asked for, and answers what it found. The trader then confirms it
 * here (with the spending password when funds move) or discards it. Nothing is signed before.
 */
export const OperationKind = z.enum(['place-order', 'cancel-order', 'deposit', 'withdrawal']);
export type OperationKind = z.infer<typeof OperationKind>;

export const OperationStep = z.enum([
  'checking-limits',
  'building',
  'checking',
  'awaiting-confirmation',
  'signing',
  'journaled',
  'submitting',
  'verifying',
  'done',
  'failed',
  'discarded',
]);
export type OperationStep = z.infer<typeof OperationStep>;

/** An amount as the confirmation dialog shows it: exact in both forms. */
export const ShownAmount = z.object({
  unit: z.string(),
  name: z.string(),
  /** Smallest units, integer string. */
  quantity: z.string(),
  /** Human units, decimal string. */
  amount: z.string(),
});
export type ShownAmount = z.infer<typeof ShownAmount>;

/**
 * Who an address belongs to, as far as main can tell. `own-other`: another address of the
 * wallet's keys, which its balance does not show; `not-on-chain` (inputs only): the chain knows
 * no such coin, so it is the exchange's own and none of the wallet's.
 */
export const Party = z.enum([
  'own',
  'own-other',
  'not-on-chain',
  'exchange-account',
  'exchange-order',
  'exchange-deposit',
  'exchange-treasury',
  'exchange-intent',
  'unknown',
]);
export type Party = z.infer<typeof Party>;

/** The main process's reading of the transaction it was asked to sign. */
export const TransactionSummary = z.object({
  txId: z.string(),
  networkId: z.number().int().nullable(),
  /** What is spent: `txId#index`, with its content and owner when known. */
  inputs: z.array(
    z.object({ id: z.string(), party: Party, amounts: z.array(ShownAmount).nullable() }),
  ),
  outputs: z.array(
    z.object({
      index: z.number().int(),
      address: z.string(),
      party: Party,
      amounts: z.array(ShownAmount),
      hasDatum: z.boolean(),
    }),
  ),
  fee: ShownAmount,
  /** Key hashes that must sign, with whose keys they are. */
  signers: z.array(z.object({ keyHash: z.string(), whose: z.string() })),
  /** Valid until (ISO), when the transaction says. */
  validUntil: Timestamp.nullable(),
  /** The order's terms as read from its datum (orders only), in words. */
  orderTerms: z
    .object({
      side: z.enum(['buy', 'sell']),
      price: z.string().nullable(),
      quantity: z.string(),
      orderId: z.string().nullable(),
    })
    .nullable(),
});
export type TransactionSummary = z.infer<typeof TransactionSummary>;

/** The outcome of the intent check: any difference refuses the signature. */
export const IntentCheck = z.object({
  matches: z.boolean(),
  differences: z.array(z.string()),
  /** Things that could not be verified on this network; the trader must accept each. */
  warnings: z.array(z.string()),
});
export type IntentCheck = z.infer<typeof IntentCheck>;

export const PreparedOperation = z.object({
  operationId: z.string().uuid(),
  kind: OperationKind,
  /** One line in the trader's words: "Buy 100 ADA at 0.4512 USDM". */
  title: z.string(),
  /** Which key signs: the trading key (orders, cancels) or the wallet key (deposits, withdrawals). */
  signer: z.enum(['operation-key', 'wallet-key']),
  /**
   * The wallet key lives elsewhere (watch-only): the transaction is saved to be signed on the
   * offline device, and its signed file loaded back (`exportUnsigned`, `submitSigned`).
   */
  offline: z.boolean(),
  /** An offline one already saved to be signed: the trader may close the dialog and come back. */
  saved: z.boolean(),
  needsPassword: z.boolean(),
  summary: TransactionSummary,
  check: IntentCheck,
  /** After this the exchange will refuse it (4300): build again. */
  expiresAt: Timestamp.nullable(),
});
export type PreparedOperation = z.infer<typeof PreparedOperation>;

export const OperationResult = z.object({
  operationId: z.string().uuid(),
  kind: OperationKind,
  title: z.string(),
  txHash: z.string().nullable(),
  /** The order as the exchange recorded it (orders), else null. */
  order: Order.nullable(),
});
export type OperationResult = z.output<typeof OperationResult>;

/**
 * A signed operation found in the journal after a crash or a failed submit: main has asked the
 * exchange what became of it; the trader decides.
 */
export const PendingOperation = z.object({
  id: z.string().uuid(),
  kind: OperationKind,
  title: z.string(),
  network: z.string(),
  signedAt: Timestamp,
  txId: z.string(),
  /** What the exchange says: it never arrived, it did land, or it cannot be submitted any more. */
  state: z.enum(['not-submitted', 'landed', 'expired', 'unknown']),
  explanation: z.string(),
});
export type PendingOperation = z.infer<typeof PendingOperation>;

export const OperationProgress = z.object({
  operationId: z.string().uuid(),
  kind: OperationKind,
  title: z.string(),
  step: OperationStep,
  /** For `failed`: what happened and what to do. */
  message: z.string().nullable(),
  at: Timestamp,
});
export type OperationProgress = z.infer<typeof OperationProgress>;

const operationId = z.string().uuid();

/**
 * The largest transaction file read (a cardano-cli text envelope): the ledger's 16 KiB limit is
 * 32 KiB as hex, so this leaves room for any real one and refuses anything else early.
 */
export const MAX_TRANSACTION_FILE_CHARS = 256 * 1024;

/**
 * How a transaction travels to and from the offline device: as a file, or as the QR codes of one
 * (the renderer shows and reads the codes; main always gets the file's text).
 */
export const TransferMedium = z.enum(['file', 'qr']);
export type TransferMedium = z.infer<typeof TransferMedium>;

export const operations = {
  /** Signs and submits a prepared operation the trader confirmed. */
  confirm: operation<OperationResult>().request(
    z.object({
      operationId,
      /** The spending password: required for deposits and withdrawals. */
      password: z.string().min(1).max(1024).optional(),
      /** The warnings the trader read and accepted, verbatim. */
      acceptedWarnings: z.array(z.string().max(2000)).max(50).optional(),
    }),
  ),
  /**
   * A watch-only wallet's deposit or withdrawal, saved (through main's save dialog) as a
   * cardano-cli text envelope for the offline device that holds the key; null if not saved.
   */
  exportUnsigned: operation<{ fileName: string } | null>().request(z.object({ operationId })),
  /**
   * The same, as the text envelope's content, for the renderer to show as QR codes the offline
   * device scans. From then on it waits for its signature as a saved one does.
   */
  unsignedTransaction: operation<{ envelope: string }>().request(z.object({ operationId })),
  /**
   * Sends it with the offline device's signature: the content of the file it wrote (the signed
   * transaction or its key witness). Main checks the transaction and the signature again first.
   */
  submitSigned: operation<OperationResult>().request(
    z.object({
      operationId,
      signedFile: z.string().min(1).max(MAX_TRANSACTION_FILE_CHARS),
      /** How it came (a refusal names a file or a QR code); a file when not said. */
      medium: TransferMedium.optional(),
      acceptedWarnings: z.array(z.string().max(2000)).max(50).optional(),
    }),
  ),
  /**
   * The watch-only wallet's deposits and withdrawals saved for the offline device and waiting for
   * their signature (the dialog may have been closed meanwhile), oldest first.
   */
  awaitingSignature: operation<PreparedOperation[]>().request(z.undefined()),
  discard: operation<null>().request(z.object({ operationId })),
  /** Signed operations left from an earlier run, with what the exchange says about each. */
  pending: operation<PendingOperation[]>().request(z.undefined()),
  /** Submit a pending one (only if the exchange does not have it) or discard it. */
  resolve: operation<PendingOperation[]>().request(
    z.object({ id: z.string().uuid(), action: z.enum(['submit', 'discard']) }),
  ),
} as const;

export const operationEvents = {
  'operations:progress': event(OperationProgress),
  'operations:pending': event(z.array(PendingOperation)),
} as const;
