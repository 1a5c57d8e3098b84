import type { TransactionFileReading } from '../../../src-shared/contract/offline';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { witnessEnvelope, type Medium } from '../../signing';
import { cryptoIsReady, type WalletRecord, type WalletSecrets } from '../../wallet';
import type { SaveFile } from '../files';
import {
  readTransactionFile,
  refusalOf,
  witnessFileName,
  type OfflineTransaction,
} from './reading';

export interface OfflineSigningDeps {
  book: { active(): Promise<WalletRecord | null> };
  secrets: Pick<WalletSecrets, 'openPaymentKey'>;
  /** The wrong-password throttle shared with unlocking. */
  attempts: { guard<T>(attempt: () => Promise<T>): Promise<T> };
  /** Saves the signature where the trader chooses (the save dialog). */
  saveFile: SaveFile;
}

/**
 * The offline computer's half of offline signing, behind `offline:*`: the wallet restored there
 * from its recovery phrase reads a transaction file the online Countersign saved and, with the
 * spending password, signs it and saves the signature for the trader to carry back.
 */
export class OfflineSigningService {
  constructor(private readonly deps: OfflineSigningDeps) {}

  /** The active wallet's reading of a transaction file; it must hold its key. */
  async #read(
    file: string,
    medium: Medium = 'file',
  ): Promise<OfflineTransaction & { wallet: WalletRecord }> {
    await cryptoIsReady();
    const wallet = await this.deps.book.active();
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'There is no wallet yet. Restore the wallet from its recovery phrase on this computer first.',
      );
    }
    if (wallet.kind === 'watch-only') {
      throw new AppError(
        ErrorCode.WatchOnly,
        `“${wallet.name}” is watch-only: its key is not on this computer either. Sign on the offline computer where the wallet was restored from its recovery phrase, or switch to that wallet here.`,
      );
    }
    return { wallet, ...readTransactionFile(file, wallet, medium) };
  }

  /** What a transaction file saved by the online Countersign does, and whether it is signed here. */
  async readTransactionFile(request: {
    file: string;
    medium?: Medium | undefined;
  }): Promise<TransactionFileReading> {
    return (await this.#read(request.file, request.medium)).reading;
  }

  /**
   * Signs a transaction file with the wallet key, opened with the spending password (under the
   * wrong-password throttle) for this one signature and wiped right after: the signature as a
   * key-witness text envelope, and the transaction's id.
   */
  async #sign(request: {
    file: string;
    password: string;
    medium?: Medium | undefined;
  }): Promise<{ witness: string; txId: string }> {
    const { wallet, decoded, reading } = await this.#read(request.file, request.medium);
    const refused = refusalOf(reading);
    if (refused) throw refused;
    const key = await this.deps.attempts.guard(() =>
      this.deps.secrets.openPaymentKey(wallet.id, request.password),
    );
    try {
      return {
        witness: witnessEnvelope({
          vkey: key.publicKey,
          signature: key.sign(Buffer.from(decoded.id, 'hex')),
        }),
        txId: decoded.id,
      };
    } finally {
      key.wipe();
    }
  }

  /**
   * Signs it and saves the signature as a key-witness file for the online computer; null if the
   * trader did not save it.
   */
  async signTransactionFile(request: {
    file: string;
    password: string;
  }): Promise<{ fileName: string } | null> {
    const { witness, txId } = await this.#sign(request);
    return this.deps.saveFile(witnessFileName(txId), witness, 'transaction');
  }

  /**
   * Signs it and hands the signature back as text (a key-witness envelope, no secret in it), for
   * the renderer to show as a QR code the online computer scans.
   */
  async signTransaction(request: {
    file: string;
    password: string;
    medium?: Medium | undefined;
  }): Promise<{ witness: string }> {
    return { witness: (await this.#sign(request)).witness };
  }
}
