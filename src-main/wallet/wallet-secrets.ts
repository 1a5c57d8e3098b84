import { AppError, ErrorCode } from '../../src-shared/errors';
import { NETWORKS } from '../../src-shared/network';
import { KeyedMutex } from '../store/atomic-file';
import { accountKeyOf, paymentSigningKeyOf, rootKeyFromEntropy } from './derivation';
import type { SecretStore } from './secret-store';
import { SigningKey } from './signing-key';
import { openSecret, PRODUCTION_SCRYPT_COST, sealSecret, type ScryptCost } from './vault';
import { walletEntry } from './wallet-book';

/**
 * A wallet's secrets in the keychain, each sealed with the spending password: the recovery
 * phrase's entropy (full wallets only) and the operation key. Opening one gives a key the caller
 * must wipe.
 */
export interface SealedSecrets {
  readonly entries: ReadonlyArray<readonly [entry: string, blob: string]>;
}

/** Keys a wallet keeps per network: the exchange's API key, the Blockfrost project id. */
export const NETWORK_SECRETS = ['api-key', 'blockfrost'] as const;
export type NetworkSecret = (typeof NETWORK_SECRETS)[number];
const NETWORK_SECRET_NAMES: Readonly<Record<NetworkSecret, string>> = {
  'api-key': 'API key',
  blockfrost: 'Blockfrost project id',
};

const missing = (what: string): AppError =>
  new AppError(
    ErrorCode.VaultCorrupted,
    `The ${what} of this wallet was not found in the system keychain. If your keychain is ` +
      'locked, unlock it (or log out and back in) and try again; otherwise restore the wallet ' +
      'from its recovery phrase. Nothing was changed.',
  );

export class WalletSecrets {
  readonly #turns = new KeyedMutex();

  constructor(
    private readonly store: SecretStore,
    private readonly cost: ScryptCost = PRODUCTION_SCRYPT_COST,
  ) {}

  /**
   * Runs `task` in the wallet's turn. Whatever changes a wallet's entries (operation key, API
   * key, removal), or must see them together with the wallet's record (unlock), takes turns, so
   * no one reads a key replaced halfway or writes into a wallet being removed. Never nest.
   */
  inTurn<T>(walletId: string, task: () => Promise<T>): Promise<T> {
    return this.#turns.run(walletId, task);
  }

  /** Seals a new wallet's secrets without writing them (nothing reaches the keychain yet). */
  async seal(
    walletId: string,
    password: string,
    secrets: { entropy?: Uint8Array; operationKey: Uint8Array },
  ): Promise<SealedSecrets> {
    const entries: Array<readonly [string, string]> = [];
    if (secrets.entropy) {
      const entry = walletEntry(walletId, 'root');
      entries.push([entry, await sealSecret(secrets.entropy, password, entry, this.cost)]);
    }
    const entry = walletEntry(walletId, 'operation-key');
    entries.push([entry, await sealSecret(secrets.operationKey, password, entry, this.cost)]);
    return { entries };
  }

  /** Writes sealed secrets; refuses to overwrite anything already stored under those names. */
  async write(sealed: SealedSecrets): Promise<void> {
    for (const [entry] of sealed.entries) {
      if ((await this.store.read(entry)) !== null) {
        throw new AppError(
          ErrorCode.Internal,
          'A key is already stored under this wallet id; nothing was overwritten. Try again.',
        );
      }
    }
    const written: string[] = [];
    try {
      for (const [entry, blob] of sealed.entries) {
        await this.store.write(entry, blob);
        written.push(entry);
      }
    } catch (error) {
      for (const entry of written) await this.store.remove(entry).catch(() => false);
      throw error;
    }
  }

  async #open(walletId: string, secret: 'root' | 'operation-key', password: string) {
    const entry = walletEntry(walletId, secret);
    const what = secret === 'root' ? 'wallet key' : 'trading key';
    const blob = await this.store.read(entry);
    if (blob === null) throw missing(what);
    return openSecret(blob, password, entry, what);
  }

  async openOperationKey(walletId: string, password: string): Promise<SigningKey> {
    return new SigningKey(await this.#open(walletId, 'operation-key', password));
  }

  /** The payment key m/1852'/1815'/0'/0/0 of a full wallet, for one deposit or withdrawal. */
  async openPaymentKey(walletId: string, password: string): Promise<SigningKey> {
    const entropy = await this.#open(walletId, 'root', password);
    const root = rootKeyFromEntropy(entropy);
    entropy.fill(0);
    const account = accountKeyOf(root);
    root.bytes().fill(0);
    const key = Buffer.from(paymentSigningKeyOf(account));
    account.bytes().fill(0);
    return new SigningKey(key);
  }

  /** Replaces the operation key after checking the password opens the current one. */
  async replaceOperationKey(walletId: string, password: string, key: Uint8Array): Promise<void> {
    (await this.openOperationKey(walletId, password)).wipe();
    const entry = walletEntry(walletId, 'operation-key');
    await this.store.write(entry, await sealSecret(key, password, entry, this.cost));
  }

  /**
   * Seals a per-network access key (the exchange's API key, a Blockfrost project id), after
   * checking the password opens this wallet's trading key.
   */
  async saveNetworkSecret(
    walletId: string,
    kind: NetworkSecret,
    network: string,
    text: string,
    password: string,
  ): Promise<void> {
    (await this.openOperationKey(walletId, password)).wipe();
    const entry = walletEntry(walletId, `${kind}/${network}`);
    await this.store.write(
      entry,
      await sealSecret(Buffer.from(text, 'utf8'), password, entry, this.cost),
    );
  }

  /** A per-network access key of the wallet, or null when none was saved. */
  async openNetworkSecret(
    walletId: string,
    kind: NetworkSecret,
    network: string,
    password: string,
  ): Promise<string | null> {
    const entry = walletEntry(walletId, `${kind}/${network}`);
    const blob = await this.store.read(entry);
    if (blob === null) return null;
    const bytes = await openSecret(blob, password, entry, NETWORK_SECRET_NAMES[kind]);
    const text = bytes.toString('utf8');
    bytes.fill(0);
    return text;
  }

  /** Forgets a per-network access key, after checking the password opens the trading key. */
  async removeNetworkSecret(
    walletId: string,
    kind: NetworkSecret,
    network: string,
    password: string,
  ): Promise<void> {
    (await this.openOperationKey(walletId, password)).wipe();
    await this.store.remove(walletEntry(walletId, `${kind}/${network}`));
  }

  /** Seals an exchange API key, after checking the password opens this wallet's trading key. */
  saveApiKey(walletId: string, network: string, apiKey: string, password: string): Promise<void> {
    return this.saveNetworkSecret(walletId, 'api-key', network, apiKey, password);
  }

  /** The wallet's API key for a network, or null when none was saved. */
  openApiKey(walletId: string, network: string, password: string): Promise<string | null> {
    return this.openNetworkSecret(walletId, 'api-key', network, password);
  }

  /** Whether any key of this wallet is in the keychain (a wallet listed without keys has none). */
  async hasKeys(walletId: string): Promise<boolean> {
    return (
      (await this.store.read(walletEntry(walletId, 'operation-key'))) !== null ||
      (await this.store.read(walletEntry(walletId, 'root'))) !== null
    );
  }

  /**
   * Removes every entry of a wallet: its keys and its API key on every network the app knows
   * (also one whose masked copy never reached the wallet list), plus any other network named.
   */
  async removeAll(walletId: string, networks: readonly string[] = []): Promise<void> {
    await this.store.remove(walletEntry(walletId, 'root'));
    await this.store.remove(walletEntry(walletId, 'operation-key'));
    for (const network of new Set([...NETWORKS, ...networks])) {
      for (const kind of NETWORK_SECRETS) {
        await this.store.remove(walletEntry(walletId, `${kind}/${network}`));
      }
    }
  }
}
