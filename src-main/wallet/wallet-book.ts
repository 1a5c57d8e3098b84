import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { loadJsonFile, updateJsonFile, type Damage } from '../store/atomic-file';

/**
 * The trader's wallets as listed on disk (`<dataDir>/wallet/wallets.json`): names, kinds, account
 * public keys and operation-key hashes. Nothing here is secret; the secrets are vault blobs in
 * the keychain, under entries named after the wallet's id.
 */
export const WalletRecord = z.object({
  id: z.string().uuid(),
  name: z.string().min(1).max(60),
  kind: z.enum(['full', 'watch-only']),
  /** Account public key m/1852'/1815'/0', hex (public key + chain code). */
  accountPublicKey: z.string().regex(/^[0-9a-f]{128}$/),
  /** Key hash of the trading (operation) key; its private half is in the keychain. */
  operationKeyHash: z.string().regex(/^[0-9a-f]{56}$/),
  createdAt: z.string(),
  /** Masked API key per network (`••••…ab12`); the key itself is sealed in the keychain. */
  apiKeys: z.record(z.string(), z.string()).optional(),
  /** Masked Blockfrost project id per network, when L1 is read through Blockfrost. */
  blockfrost: z.record(z.string(), z.string()).optional(),
  /** The exchange's account id of this wallet, per network, once it has joined. */
  exchangeAccounts: z.record(z.string(), z.string()).optional(),
  /**
   * Being added: listed before its keys are written, so a crash in between leaves a line to
   * clean up rather than keys nobody lists. Hidden from everyone until committed.
   */
  pending: z.literal(true).optional(),
});
export type WalletRecord = z.infer<typeof WalletRecord>;

const WalletFile = z.object({
  version: z.literal(1),
  activeWalletId: z.string().nullable(),
  wallets: z.array(WalletRecord),
});
type WalletFile = z.infer<typeof WalletFile>;

export const MAX_WALLET_NAME = 60;

export const cleanWalletName = (name: string): string => {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (!clean || clean.length > MAX_WALLET_NAME) {
    throw new AppError(
      ErrorCode.InvalidInput,
      `A wallet name has 1 to ${MAX_WALLET_NAME} characters. Choose another name.`,
    );
  }
  return clean;
};

export const walletEntry = (
  walletId: string,
  secret: 'root' | 'operation-key' | `api-key/${string}` | `blockfrost/${string}`,
): string => `wallet/${walletId}/${secret}`;

/** What a response may show of an API key: its last four characters. */
export const maskApiKey = (apiKey: string): string => `••••${apiKey.slice(-4)}`;

export const newWalletId = (): string => randomUUID();

const EMPTY: WalletFile = { version: 1, activeWalletId: null, wallets: [] };

/**
 * Keeps what can be kept of a damaged wallet list: every record that still reads as one. The
 * damaged file itself stays next to it, untouched.
 */
const salvage = (json: unknown): WalletFile => {
  const raw =
    json && typeof json === 'object' && 'wallets' in json && Array.isArray(json.wallets)
      ? (json.wallets as unknown[])
      : [];
  const wallets: WalletRecord[] = [];
  for (const item of raw) {
    const record = WalletRecord.safeParse(item);
    if (
      record.success &&
      !wallets.some(
        (w) =>
          w.id === record.data.id ||
          w.name.toLowerCase() === record.data.name.toLowerCase() ||
          w.accountPublicKey === record.data.accountPublicKey,
      )
    ) {
      wallets.push(record.data);
    }
  }
  const active =
    json && typeof json === 'object' && 'activeWalletId' in json ? json.activeWalletId : null;
  const activeWalletId = wallets.some((w) => w.id === active && !w.pending)
    ? (active as string)
    : (wallets.find((w) => !w.pending)?.id ?? null);
  return { version: 1, activeWalletId, wallets };
};

const notFound = (): AppError =>
  new AppError(ErrorCode.WalletNotFound, 'That wallet no longer exists. Pick one from the list.');

const nameTaken = (name: string): AppError =>
  new AppError(
    ErrorCode.InvalidInput,
    `A wallet named "${name}" already exists. Choose another name.`,
  );

/**
 * The wallet list. Every change is a read-modify-write in the file's turn (`updateJsonFile`), so
 * concurrent changes all land, in some order; the in-memory copy follows the file in that order.
 */
export class WalletBook {
  readonly #path: string;
  #file: WalletFile | undefined;
  #loading: Promise<WalletFile> | undefined;
  #notice: string | null = null;
  /** Pending wallets found on disk at start: a previous run was stopped while adding them. */
  #leftPending: WalletRecord[] = [];
  #loaded = false;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'wallet', 'wallets.json');
  }

  #damaged(damage: Damage): WalletFile {
    const kept = salvage(damage.json);
    const count = kept.wallets.length;
    this.#notice =
      `The wallet list (${damage.file}) was damaged (${damage.reason}). It was moved aside as ` +
      `${damage.movedTo}` +
      (count > 0
        ? `; ${count} wallet${count === 1 ? ' was' : 's were'} recovered from it. `
        : '; no wallet could be recovered from it. ') +
      'Your keys are still in the system keychain: restore any missing wallet from its recovery phrase.';
    return kept;
  }

  async #load(): Promise<WalletFile> {
    if (this.#file) return this.#file;
    this.#loading ??= (async () => {
      const read = await loadJsonFile(this.#path, WalletFile);
      if (read.kind === 'damaged') {
        const kept = this.#damaged(read.damage);
        // Keep what was recovered on disk at once, so a restart shows the same list.
        return kept.wallets.length ? this.#update(() => kept) : kept;
      }
      return read.kind === 'ok' ? read.value : EMPTY;
    })();
    try {
      const file = await this.#loading;
      this.#file ??= file;
      if (!this.#loaded) {
        this.#loaded = true;
        this.#leftPending = this.#file.wallets.filter((w) => w.pending);
      }
      return this.#file;
    } finally {
      this.#loading = undefined;
    }
  }

  /** One change of the list, in the file's turn; `change` throws to refuse (nothing written). */
  #update(change: (file: WalletFile) => WalletFile): Promise<WalletFile> {
    return updateJsonFile(
      this.#path,
      WalletFile,
      (current, damage) => {
        // Damaged since it was read: the last list this process wrote or read is the repair.
        const base = current ?? (damage ? (this.#file ?? this.#damaged(damage)) : EMPTY);
        return change(base);
      },
      { committed: (next) => (this.#file = next) },
    );
  }

  /** A plain-words note when the wallet list was damaged during this run, else null. */
  notice(): string | null {
    return this.#notice;
  }

  async list(): Promise<{ wallets: WalletRecord[]; activeWalletId: string | null }> {
    const file = await this.#load();
    return { wallets: file.wallets.filter((w) => !w.pending), activeWalletId: file.activeWalletId };
  }

  async active(): Promise<WalletRecord | null> {
    const file = await this.#load();
    return file.wallets.find((w) => w.id === file.activeWalletId && !w.pending) ?? null;
  }

  async get(walletId: string): Promise<WalletRecord> {
    return WalletBook.#find(await this.#load(), walletId);
  }

  /** Wallets a previous run left half-added (listed, keys maybe written, never committed). */
  async leftPending(): Promise<WalletRecord[]> {
    await this.#load();
    return [...this.#leftPending];
  }

  #checkNameFree(file: WalletFile, name: string, exceptId?: string): void {
    const taken = file.wallets.some(
      (w) => w.id !== exceptId && w.name.toLowerCase() === name.toLowerCase(),
    );
    if (taken) throw nameTaken(name);
  }

  /** Throws when the name is taken, before any secret is written. */
  async assertNameFree(name: string): Promise<void> {
    this.#checkNameFree(await this.#load(), name);
  }

  /** Throws when a wallet with this account key is already listed. */
  async assertNotPresent(accountPublicKey: string): Promise<void> {
    WalletBook.#checkNotPresent(await this.#load(), accountPublicKey);
  }

  static #checkNotPresent(file: WalletFile, accountPublicKey: string): void {
    const same = file.wallets.find((w) => w.accountPublicKey === accountPublicKey);
    if (same) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `This wallet is already here, as "${same.name}". Select it in the wallet list instead.`,
      );
    }
  }

  static #find(file: WalletFile, walletId: string): WalletRecord {
    const wallet = file.wallets.find((w) => w.id === walletId && !w.pending);
    if (!wallet) throw notFound();
    return wallet;
  }

  static #change(
    file: WalletFile,
    walletId: string,
    change: (wallet: WalletRecord) => WalletRecord,
  ): WalletFile {
    WalletBook.#find(file, walletId);
    return { ...file, wallets: file.wallets.map((w) => (w.id === walletId ? change(w) : w)) };
  }

  /**
   * First step of adding a wallet, before its keys are written: lists it as pending. Refuses, in
   * the same turn as the write, a name or an account key already listed (pending ones too), so
   * two restores of one wallet cannot both get as far as the keychain.
   */
  async addPending(wallet: WalletRecord): Promise<void> {
    await this.#load();
    await this.#update((file) => {
      this.#checkNameFree(file, wallet.name);
      WalletBook.#checkNotPresent(file, wallet.accountPublicKey);
      if (file.wallets.some((w) => w.id === wallet.id)) {
        throw new AppError(ErrorCode.InvalidInput, 'This wallet is already listed.');
      }
      return { ...file, wallets: [...file.wallets, { ...wallet, pending: true }] };
    });
  }

  /** Last step of adding a wallet, once its keys are written: shown, and made the active one. */
  async commitPending(walletId: string): Promise<void> {
    await this.#update((file) => {
      if (!file.wallets.some((w) => w.id === walletId && w.pending)) throw notFound();
      const wallets = file.wallets.map((w) => {
        if (w.id !== walletId) return w;
        const { pending: _pending, ...committed } = w;
        return committed;
      });
      return { ...file, wallets, activeWalletId: walletId };
    });
  }

  /** Forgets a wallet that was never committed (its keys must be gone first). */
  async dropPending(walletId: string): Promise<void> {
    await this.#update((file) => ({
      ...file,
      wallets: file.wallets.filter((w) => !(w.id === walletId && w.pending)),
    }));
    this.#leftPending = this.#leftPending.filter((w) => w.id !== walletId);
  }

  async select(walletId: string): Promise<WalletRecord> {
    await this.#load();
    const next = await this.#update((file) => {
      WalletBook.#find(file, walletId);
      return { ...file, activeWalletId: walletId };
    });
    return WalletBook.#find(next, walletId);
  }

  async rename(walletId: string, name: string): Promise<WalletRecord> {
    await this.#load();
    const next = await this.#update((file) => {
      this.#checkNameFree(file, name, walletId);
      return WalletBook.#change(file, walletId, (w) => ({ ...w, name }));
    });
    return WalletBook.#find(next, walletId);
  }

  async replaceOperationKeyHash(walletId: string, operationKeyHash: string): Promise<void> {
    await this.#load();
    await this.#update((file) =>
      WalletBook.#change(file, walletId, (w) => ({ ...w, operationKeyHash })),
    );
  }

  async setMaskedApiKey(walletId: string, network: string, masked: string): Promise<void> {
    await this.#load();
    await this.#update((file) =>
      WalletBook.#change(file, walletId, (w) => ({
        ...w,
        apiKeys: { ...w.apiKeys, [network]: masked },
      })),
    );
  }

  /** The masked Blockfrost project id of a network, or null to read L1 through Koios again. */
  async setMaskedBlockfrost(
    walletId: string,
    network: string,
    masked: string | null,
  ): Promise<void> {
    await this.#load();
    await this.#update((file) =>
      WalletBook.#change(file, walletId, (w) => {
        const { [network]: _old, ...others } = w.blockfrost ?? {};
        return { ...w, blockfrost: masked === null ? others : { ...others, [network]: masked } };
      }),
    );
  }

  async setExchangeAccount(walletId: string, network: string, accountId: string): Promise<void> {
    await this.#load();
    await this.#update((file) =>
      WalletBook.#change(file, walletId, (w) => ({
        ...w,
        exchangeAccounts: { ...w.exchangeAccounts, [network]: accountId },
      })),
    );
  }

  /** Removes a wallet; the next one (if any) becomes active when it was the active one. */
  async remove(walletId: string): Promise<void> {
    await this.#load();
    await this.#update((file) => {
      WalletBook.#find(file, walletId);
      const wallets = file.wallets.filter((w) => w.id !== walletId);
      const activeWalletId =
        file.activeWalletId === walletId
          ? (wallets.find((w) => !w.pending)?.id ?? null)
          : file.activeWalletId;
      return { ...file, wallets, activeWalletId };
    });
  }
}
