import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { readJsonFile, writeJsonFile } from '../store/atomic-file';

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
  /** The exchange's account id of this wallet, per network, once it has joined. */
  exchangeAccounts: z.record(z.string(), z.string()).optional(),
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
  secret: 'root' | 'operation-key' | `api-key/${string}`,
): string => `wallet/${walletId}/${secret}`;

/** What a response may show of an API key: its last four characters. */
export const maskApiKey = (apiKey: string): string => `••••${apiKey.slice(-4)}`;

export const newWalletId = (): string => randomUUID();

export class WalletBook {
  readonly #path: string;
  #file: WalletFile | undefined;

  constructor(dataDir: string) {
    this.#path = join(dataDir, 'wallet', 'wallets.json');
  }

  async #load(): Promise<WalletFile> {
    if (this.#file) return this.#file;
    const read = await readJsonFile(this.#path, WalletFile);
    if (read.kind === 'invalid') {
      throw new AppError(
        ErrorCode.VaultCorrupted,
        `The wallet list (${this.#path}) cannot be read: ${read.reason}. It was left untouched; ` +
          'restore it from a backup or move it away and restore your wallets from their recovery phrases.',
      );
    }
    this.#file =
      read.kind === 'ok' ? read.value : { version: 1, activeWalletId: null, wallets: [] };
    return this.#file;
  }

  async #save(next: WalletFile): Promise<void> {
    await writeJsonFile(this.#path, next);
    this.#file = next;
  }

  async list(): Promise<{ wallets: WalletRecord[]; activeWalletId: string | null }> {
    const file = await this.#load();
    return { wallets: [...file.wallets], activeWalletId: file.activeWalletId };
  }

  async active(): Promise<WalletRecord | null> {
    const file = await this.#load();
    return file.wallets.find((w) => w.id === file.activeWalletId) ?? null;
  }

  async get(walletId: string): Promise<WalletRecord> {
    const wallet = (await this.#load()).wallets.find((w) => w.id === walletId);
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'That wallet no longer exists. Pick one from the list.',
      );
    }
    return wallet;
  }

  #checkNameFree(file: WalletFile, name: string, exceptId?: string): void {
    const taken = file.wallets.some(
      (w) => w.id !== exceptId && w.name.toLowerCase() === name.toLowerCase(),
    );
    if (taken) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `A wallet named "${name}" already exists. Choose another name.`,
      );
    }
  }

  /** Throws when the name is taken, before any secret is written. */
  async assertNameFree(name: string): Promise<void> {
    this.#checkNameFree(await this.#load(), name);
  }

  /** Adds a wallet and makes it the active one. */
  async add(wallet: WalletRecord): Promise<void> {
    const file = await this.#load();
    this.#checkNameFree(file, wallet.name);
    await this.#save({ ...file, wallets: [...file.wallets, wallet], activeWalletId: wallet.id });
  }

  async select(walletId: string): Promise<WalletRecord> {
    const wallet = await this.get(walletId);
    const file = await this.#load();
    await this.#save({ ...file, activeWalletId: walletId });
    return wallet;
  }

  async rename(walletId: string, name: string): Promise<WalletRecord> {
    const file = await this.#load();
    await this.get(walletId);
    this.#checkNameFree(file, name, walletId);
    const wallets = file.wallets.map((w) => (w.id === walletId ? { ...w, name } : w));
    await this.#save({ ...file, wallets });
    return this.get(walletId);
  }

  async replaceOperationKeyHash(walletId: string, operationKeyHash: string): Promise<void> {
    const file = await this.#load();
    await this.get(walletId);
    const wallets = file.wallets.map((w) => (w.id === walletId ? { ...w, operationKeyHash } : w));
    await this.#save({ ...file, wallets });
  }

  async setMaskedApiKey(walletId: string, network: string, masked: string): Promise<void> {
    const file = await this.#load();
    await this.get(walletId);
    const wallets = file.wallets.map((w) =>
      w.id === walletId ? { ...w, apiKeys: { ...w.apiKeys, [network]: masked } } : w,
    );
    await this.#save({ ...file, wallets });
  }

  async setExchangeAccount(walletId: string, network: string, accountId: string): Promise<void> {
    const file = await this.#load();
    await this.get(walletId);
    const wallets = file.wallets.map((w) =>
      w.id === walletId
        ? { ...w, exchangeAccounts: { ...w.exchangeAccounts, [network]: accountId } }
        : w,
    );
    await this.#save({ ...file, wallets });
  }

  /** Removes a wallet; the next one (if any) becomes active when it was the active one. */
  async remove(walletId: string): Promise<void> {
    const file = await this.#load();
    await this.get(walletId);
    const wallets = file.wallets.filter((w) => w.id !== walletId);
    const activeWalletId =
      file.activeWalletId === walletId ? (wallets[0]?.id ?? null) : file.activeWalletId;
    await this.#save({ ...file, wallets, activeWalletId });
  }
}
