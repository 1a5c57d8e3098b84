/*
 * Offline signing, the computer that holds the wallet key: it reads a transaction file the online
 * Countersign saved (a cardano-cli text envelope), shows what it does and signs it. The online
 * half (saving the transaction, loading the signature back) is in `operations`.
 */
import { z } from 'zod';
import { operation } from './define';
import {
  MAX_TRANSACTION_FILE_CHARS,
  ShownAmount,
  TransactionSummary,
  TransferMedium,
} from './operations';

/**
 * A transaction file (cardano-cli text envelope) read on the offline computer that holds the
 * wallet key, before it signs: what the transaction does as far as a computer without the chain
 * can tell. Its id and fee are in `summary`.
 */
export const TransactionFileReading = z.object({
  summary: TransactionSummary,
  /** The Cardano network it is for, in words (mainnet or a test network). */
  network: z.string(),
  /** Per asset, what goes to addresses that are not this wallet's. */
  leaves: z.array(ShownAmount),
  /** Per asset, what comes back to this wallet. */
  returns: z.array(ShownAmount),
  /** Why Countersign will not sign it, in words; empty when it can be signed. */
  refusals: z.array(z.string()),
  /** What the trader must know before signing, in words. */
  warnings: z.array(z.string()),
});
export type TransactionFileReading = z.infer<typeof TransactionFileReading>;

const password = z.string().min(1).max(1024);
/** A transaction text envelope's content. */
const file = z.string().min(1).max(MAX_TRANSACTION_FILE_CHARS);

export const offline = {
  /**
   * What a transaction file saved by the online Countersign does, for the active wallet (which
   * must hold its key). The file's text travels, never a path.
   */
  readTransactionFile: operation<TransactionFileReading>().request(
    z.object({ file, medium: TransferMedium.optional() }),
  ),
  /**
   * Signs that file's transaction with the wallet key (opened with the spending password) and
   * saves the signature as a key-witness file through the save dialog; null if not saved.
   */
  signTransactionFile: operation<{ fileName: string } | null>().request(
    z.object({ file, password }),
  ),
  /**
   * Signs it the same way and hands the signature back as text (a key-witness text envelope),
   * for the renderer to show as a QR code; `medium` names what the transaction came in.
   */
  signTransaction: operation<{ witness: string }>().request(
    z.object({ file, password, medium: TransferMedium.optional() }),
  ),
} as const;
