import { randomUUID } from 'node:crypto';
import type {
  NewRecoveryPhrase,
  OneTransaction,
  WalletAddresses,
  WalletBalance,
  WalletList,
  WalletSummary,
} from '../../../src-shared/contract';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { NETWORK_LABELS, type NetworkName } from '../../../src-shared/network';
import { assetInfo, LOVELACE } from '../../../src-shared/assets';
import { smallestUnitText } from '../../../src-shared/money';
import { coinsCovering, lovelaceOf, totalOf, type ChainLookup, type InputUtxo } from '../../chain';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  addressesOf,
  checkRecoveryPhrase,
  cleanWalletName,
  cryptoIsReady,
  decryptExchangeOperationKey,
  generateOperationKey,
  maskApiKey,
  newRecoveryPhrase,
  newWalletId,
  parseAccountPublicKey,
  pickWordsToConfirm,
  recoveryPhraseEntropy,
  requireStrongPassword,
  rootKeyFromEntropy,
  SigningKey,
  type SealedSecrets,
  type UnlockAttempts,
  type WalletBook,
  type WalletRecord,
  type WalletSecrets,
} from '../../wallet';
import type { SandboxAdmin } from '../../exchange';
import type { SessionService } from '../session/service';

/**
 * The trader's wallets behind the `wallet:*` operations: create (24 words shown once, confirmed by
 * re-typing some), restore, watch-only import, select, rename, remove, addresses. Every new wallet
 * gets its own operation key, generated here and sealed with the spending password.
 */
export interface WalletServiceDeps {
  book: WalletBook;
  secrets: WalletSecrets;
  session: SessionService;
  /** The wrong-password throttle shared with unlock and signing. */
  attempts: UnlockAttempts;
  network: () => NetworkName;
  /** Cardano network id of the app's network (a custom network states its own). */
  networkId: () => 0 | 1;
  /** The embedded sandbox's own endpoints, when the app's network is the sandbox. */
  sandboxAdmin?: () => Promise<SandboxAdmin | null>;
  /** Where the wallet's L1 coins are read on the app's network. */
  chain?: () => ChainLookup;
  now?: () => number;
  /** What else this machine keeps of a wallet, forgotten once it is removed (its funds on their way). */
  removed?: (walletId: string) => Promise<void>;
}

interface PendingCreation {
  creationId: string;
  words: string[];
  confirmPositions: number[];
  record: WalletRecord;
  sealed: SealedSecrets;
  expiresAt: number;
}

/** How long a shown phrase waits for its confirmation. */
const CREATION_TTL_MS = 30 * 60_000;

export class WalletService {
  #pending: PendingCreation | null = null;
  #recovering: Promise<void> | undefined;

  constructor(private readonly deps: WalletServiceDeps) {}

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  #summary(record: WalletRecord, activeWalletId: string | null): WalletSummary {
    return {
      id: record.id,
      name: record.name,
      kind: record.kind,
      active: record.id === activeWalletId,
      operationKeyHash: record.operationKeyHash,
      createdAt: record.createdAt,
      apiKey: record.apiKeys?.[this.deps.network()] ?? null,
      blockfrost: record.blockfrost?.[this.deps.network()] ?? null,
      exchangeAccountId: record.exchangeAccounts?.[this.deps.network()] ?? null,
    };
  }

  async #summaryOf(walletId: string): Promise<WalletSummary> {
    const { activeWalletId } = await this.deps.book.list();
    return this.#summary(await this.deps.book.get(walletId), activeWalletId);
  }

  async list(): Promise<WalletList> {
    await this.#recover();
    const { wallets, activeWalletId } = await this.deps.book.list();
    const notice = this.deps.book.notice();
    return {
      wallets: wallets.map((w) => this.#summary(w, activeWalletId)),
      activeWalletId,
      ...(notice ? { notices: [notice] } : {}),
    };
  }

  /**
   * The phrase of a wallet kept here watch-only: the trader restores it to move its funds (the
   * Funds screen says so), and is told the one step that comes first.
   */
  async #refuseOverWatchOnly(accountPublicKey: string): Promise<void> {
    const { wallets } = await this.deps.book.list();
    const watched = wallets.find(
      (w) => w.accountPublicKey === accountPublicKey && w.kind === 'watch-only',
    );
    if (!watched) return;
    throw new AppError(
      ErrorCode.InvalidInput,
      `This wallet is here already as the watch-only wallet “${watched.name}”. To restore it with its key, first remove “${watched.name}” in Settings › Wallets (its funds on the exchange and on Cardano are not touched), then restore it again. Nothing was changed.`,
    );
  }

  #assertNotPresent(accountPublicKey: string): Promise<void> {
    return this.deps.book.assertNotPresent(accountPublicKey);
  }

  /** Seals a new wallet's secrets and describes it; nothing is written yet. */
  async #prepare(
    name: string,
    password: string,
    kind: WalletRecord['kind'],
    accountPublicKey: string,
    entropy: Uint8Array | undefined,
  ): Promise<{ record: WalletRecord; sealed: SealedSecrets }> {
    const id = newWalletId();
    const operationKey = generateOperationKey();
    try {
      const operationKeyHash = new SigningKey(Buffer.from(operationKey)).keyHash;
      const sealed = await this.deps.secrets.seal(id, password, {
        operationKey,
        ...(entropy ? { entropy } : {}),
      });
      const record: WalletRecord = {
        id,
        name,
        kind,
        accountPublicKey,
        operationKeyHash,
        createdAt: new Date(this.#now()).toISOString(),
      };
      return { record, sealed };
    } finally {
      operationKey.fill(0);
    }
  }

  /**
   * Writes a new wallet in three steps that a crash at any point leaves recoverable: its line in
   * the list as pending (refused, in the list's own turn, when the name or the wallet is there
   * already: two restores of one wallet cannot both proceed), its keys, then the line committed.
   * What a stopped run left pending is removed, keys first, before the next use (`#recover`).
   */
  async #store(record: WalletRecord, sealed: SealedSecrets): Promise<WalletSummary> {
    await this.#recover();
    await this.deps.book.addPending(record);
    try {
      await this.deps.secrets.write(sealed);
      await this.deps.book.commitPending(record.id);
    } catch (error) {
      await this.deps.secrets.removeAll(record.id).catch(() => undefined);
      await this.deps.book.dropPending(record.id).catch(() => undefined);
      throw error;
    }
    await this.deps.session.walletChanged();
    return this.#summaryOf(record.id);
  }

  /**
   * Once per run, before the wallets are used: removes what a previous run left half-added
   * (its keys, then its line), so no keychain entry outlives the wallet list's knowledge of it.
   */
  #recover(): Promise<void> {
    this.#recovering ??= (async () => {
      for (const record of await this.deps.book.leftPending()) {
        await this.deps.secrets.removeAll(record.id);
        await this.deps.book.dropPending(record.id);
      }
    })().catch((error: unknown) => {
      this.#recovering = undefined;
      throw error;
    });
    return this.#recovering;
  }

  #accountKeyHex(entropy: Uint8Array): string {
    const root = rootKeyFromEntropy(entropy);
    const account = accountKeyOf(root);
    const hex = account.toPublic().hex();
    root.bytes().fill(0);
    account.bytes().fill(0);
    return hex;
  }

  async create(request: { name: string; password: string }): Promise<NewRecoveryPhrase> {
    await cryptoIsReady();
    const name = cleanWalletName(request.name);
    requireStrongPassword(request.password);
    await this.deps.book.assertNameFree(name);
    const words = newRecoveryPhrase();
    const entropy = recoveryPhraseEntropy(words);
    try {
      const { record, sealed } = await this.#prepare(
        name,
        request.password,
        'full',
        this.#accountKeyHex(entropy),
        entropy,
      );
      const confirmPositions = pickWordsToConfirm(words.length, 3);
      this.#pending = {
        creationId: randomUUID(),
        words,
        confirmPositions,
        record,
        sealed,
        expiresAt: this.#now() + CREATION_TTL_MS,
      };
      return { creationId: this.#pending.creationId, words: [...words], confirmPositions };
    } finally {
      entropy.fill(0);
    }
  }

  async confirmCreate(request: {
    creationId: string;
    words: Array<{ position: number; word: string }>;
  }): Promise<WalletSummary> {
    const pending = this.#pending;
    if (!pending || pending.creationId !== request.creationId || pending.expiresAt < this.#now()) {
      throw new AppError(
        ErrorCode.NotFound,
        'This recovery phrase is no longer waiting for confirmation. Start the wallet creation again.',
      );
    }
    for (const position of pending.confirmPositions) {
      const typed = request.words
        .find((w) => w.position === position)
        ?.word.trim()
        .toLowerCase();
      if (typed !== pending.words[position - 1]) {
        throw new AppError(
          ErrorCode.InvalidMnemonic,
          `Word ${position} does not match the phrase shown. Check your written copy and type it again.`,
        );
      }
    }
    this.#pending = null;
    pending.words.fill('');
    return this.#store(pending.record, pending.sealed);
  }

  async restore(request: {
    name: string;
    words: string | string[];
    password: string;
  }): Promise<WalletSummary> {
    await cryptoIsReady();
    const name = cleanWalletName(request.name);
    requireStrongPassword(request.password);
    const words = checkRecoveryPhrase(request.words);
    const entropy = recoveryPhraseEntropy(words);
    try {
      const accountPublicKey = this.#accountKeyHex(entropy);
      await this.#refuseOverWatchOnly(accountPublicKey);
      await this.#assertNotPresent(accountPublicKey);
      await this.deps.book.assertNameFree(name);
      const { record, sealed } = await this.#prepare(
        name,
        request.password,
        'full',
        accountPublicKey,
        entropy,
      );
      return await this.#store(record, sealed);
    } finally {
      entropy.fill(0);
    }
  }

  async importWatchOnly(request: {
    name: string;
    accountPublicKey: string;
    password: string;
  }): Promise<WalletSummary> {
    await cryptoIsReady();
    const name = cleanWalletName(request.name);
    requireStrongPassword(request.password);
    const accountPublicKey = parseAccountPublicKey(request.accountPublicKey).hex();
    await this.#assertNotPresent(accountPublicKey);
    await this.deps.book.assertNameFree(name);
    const { record, sealed } = await this.#prepare(
      name,
      request.password,
      'watch-only',
      accountPublicKey,
      undefined,
    );
    return this.#store(record, sealed);
  }

  async select(request: { walletId: string }): Promise<WalletSummary> {
    const before = (await this.deps.book.list()).activeWalletId;
    await this.deps.book.select(request.walletId);
    if (before !== request.walletId) await this.deps.session.walletChanged();
    return this.#summaryOf(request.walletId);
  }

  async rename(request: { walletId: string; name: string }): Promise<WalletSummary> {
    await this.deps.book.rename(request.walletId, cleanWalletName(request.name));
    const active = (await this.deps.book.list()).activeWalletId;
    if (active === request.walletId) await this.deps.session.refresh();
    return this.#summaryOf(request.walletId);
  }

  /**
   * Removes a wallet and its keys from this machine. Destroying needs proof: the trader re-types
   * the name and gives the spending password, checked under the wrong-password throttle. Only a
   * wallet whose keys are already gone from the keychain is removed on its name alone.
   */
  async remove(request: {
    walletId: string;
    confirmName: string;
    password: string;
  }): Promise<WalletList> {
    await this.deps.secrets.inTurn(request.walletId, async () => {
      const wallet = await this.deps.book.get(request.walletId);
      if (request.confirmName.trim().toLowerCase() !== wallet.name.toLowerCase()) {
        throw new AppError(
          ErrorCode.InvalidInput,
          `Type the wallet's name, "${wallet.name}", to confirm its removal. Nothing was removed.`,
        );
      }
      if (await this.deps.secrets.hasKeys(wallet.id)) {
        await this.deps.attempts.guard(async () =>
          (await this.deps.secrets.openOperationKey(wallet.id, request.password)).wipe(),
        );
      }
      const wasActive = (await this.deps.book.list()).activeWalletId === wallet.id;
      if (wasActive) await this.deps.session.lock('wallet-changed');
      await this.deps.secrets.removeAll(wallet.id, Object.keys(wallet.apiKeys ?? {}));
      await this.deps.book.remove(wallet.id);
      if (wasActive) await this.deps.session.walletChanged();
      await this.deps.removed?.(wallet.id);
    });
    return this.list();
  }

  /**
   * Reads L1 through Blockfrost on the app's (real) network with this project id, sealed with
   * the spending password like the API key; null forgets it (Koios again). Answered masked.
   */
  setBlockfrost(request: {
    walletId: string;
    projectId: string | null;
    password: string;
  }): Promise<WalletSummary> {
    return this.deps.secrets.inTurn(request.walletId, async () => {
      const wallet = await this.deps.book.get(request.walletId);
      const network = this.deps.network();
      const projectId = request.projectId?.trim() ?? null;
      if (network === 'sandbox') {
        throw new AppError(
          ErrorCode.InvalidInput,
          'The practice exchange keeps its own coins: Blockfrost is for staging, production or a custom exchange. Nothing was saved.',
        );
      }
      if (projectId !== null) checkBlockfrostShape(projectId, this.deps.networkId());
      await this.deps.attempts.guard(() =>
        projectId === null
          ? this.deps.secrets.removeNetworkSecret(
              wallet.id,
              'blockfrost',
              network,
              request.password,
            )
          : this.deps.secrets.saveNetworkSecret(
              wallet.id,
              'blockfrost',
              network,
              projectId,
              request.password,
            ),
      );
      await this.deps.book.setMaskedBlockfrost(
        wallet.id,
        network,
        projectId === null ? null : maskApiKey(projectId),
      );
      this.deps.session.blockfrostChanged(wallet.id, projectId);
      return this.#summaryOf(wallet.id);
    });
  }

  /** Seals the exchange API key of a wallet for the app's network; responses show it masked. */
  setApiKey(request: {
    walletId: string;
    apiKey: string;
    password: string;
  }): Promise<WalletSummary> {
    return this.deps.secrets.inTurn(request.walletId, () => this.#saveApiKey(request));
  }

  async #saveApiKey(request: {
    walletId: string;
    apiKey: string;
    password: string;
  }): Promise<WalletSummary> {
    const wallet = await this.deps.book.get(request.walletId);
    const network = this.deps.network();
    const apiKey = request.apiKey.trim();
    checkApiKeyShape(network, apiKey);
    await this.deps.attempts.guard(() =>
      this.deps.secrets.saveApiKey(wallet.id, network, apiKey, request.password),
    );
    await this.deps.book.setMaskedApiKey(wallet.id, network, maskApiKey(apiKey));
    this.deps.session.apiKeyChanged(wallet.id, apiKey);
    return this.#summaryOf(wallet.id);
  }

  /**
   * Opens the wallet's account on the embedded sandbox: registers its address and operation key
   * hash (so only that key can trade for it) and seals the API key it gets with the password.
   */
  joinExchange(request: { walletId: string; password: string }): Promise<WalletSummary> {
    return this.deps.secrets.inTurn(request.walletId, () => this.#join(request));
  }

  async #join(request: { walletId: string; password: string }): Promise<WalletSummary> {
    const network = this.deps.network();
    const admin = network === 'sandbox' ? await this.deps.sandboxAdmin?.() : null;
    if (!admin) {
      throw new AppError(
        ErrorCode.InvalidInput,
        'Only the built-in practice exchange opens accounts from Countersign. For staging or ' +
          'production, create an API key on the exchange and add it to this wallet.',
      );
    }
    const wallet = await this.deps.book.get(request.walletId);
    // Check the password before anything leaves this computer.
    await this.deps.attempts.guard(async () =>
      (await this.deps.secrets.openOperationKey(wallet.id, request.password)).wipe(),
    );
    const { baseAddress } = await this.addresses({ walletId: wallet.id });
    const account = await admin.openAccount({
      address: baseAddress,
      operationKeyHash: wallet.operationKeyHash,
    });
    // Practice funds in the wallet on L1, ready to deposit, once per new wallet.
    const coins = await this.deps
      .chain?.()
      .utxosAt(baseAddress)
      .catch(() => []);
    if (coins?.length === 0) await admin.faucet(baseAddress);
    await this.#saveApiKey({
      walletId: wallet.id,
      apiKey: account.apiKey,
      password: request.password,
    });
    await this.deps.book.setExchangeAccount(wallet.id, network, account.accountId);
    return this.#summaryOf(wallet.id);
  }

  /** The wallet's coins on L1 at its base address; a watch-only wallet sees its own too. */
  async balance(request: { walletId?: string | undefined }): Promise<WalletBalance> {
    const network = this.deps.network();
    const chain = this.deps.chain?.();
    if (!chain) {
      throw new AppError(
        ErrorCode.Network,
        `Countersign cannot read wallet coins on ${NETWORK_LABELS[network]} yet: it has no chain ` +
          'provider for it. Your coins are safe; a Cardano explorer shows them.',
      );
    }
    const { walletId, baseAddress } = await this.addresses(request);
    const utxos = await chain.utxosAt(baseAddress);
    const total = totalOf(utxos);
    total.set(LOVELACE, total.get(LOVELACE) ?? 0n);
    const assets = [...total]
      .map(([unit, quantity]) => {
        const info = assetInfo(network, unit);
        return {
          unit,
          name: info.name,
          quantity: quantity.toString(),
          amount: smallestUnitText(quantity, info.decimals),
        };
      })
      .sort((a, b) =>
        a.unit === LOVELACE ? -1 : b.unit === LOVELACE ? 1 : a.name.localeCompare(b.name),
      );
    const spending = (coins: readonly InputUtxo[]): OneTransaction => ({
      coins: coins.length,
      lovelace: coins.reduce((sum, utxo) => sum + lovelaceOf(utxo), 0n).toString(),
    });
    const withToken: Record<string, OneTransaction> = {};
    for (const { unit } of assets) {
      if (unit !== LOVELACE) withToken[unit] = spending(coinsCovering(utxos, new Set([unit])));
    }
    return {
      walletId,
      network,
      address: baseAddress,
      assets,
      utxoCount: utxos.length,
      oneTransaction: { ...spending(coinsCovering(utxos, new Set())), withToken },
    };
  }

  async #wallet(walletId: string | undefined): Promise<WalletRecord> {
    const wallet = walletId ? await this.deps.book.get(walletId) : await this.deps.book.active();
    if (!wallet) {
      throw new AppError(
        ErrorCode.WalletNotFound,
        'There is no wallet yet. Create or restore one first.',
      );
    }
    return wallet;
  }

  async addresses(request: { walletId?: string | undefined }): Promise<WalletAddresses> {
    await cryptoIsReady();
    const wallet = await this.#wallet(request.walletId);
    const network = this.deps.network();
    const account = parseAccountPublicKey(wallet.accountPublicKey);
    return {
      walletId: wallet.id,
      network,
      ...addressesOf(account, this.deps.networkId()),
      accountPublicKey: accountPublicKeyToBech32(account),
    };
  }

  /**
   * Replaces the active wallet's operation key with the exchange's copy (`GET
   * /accounts/operation-key` on a real deployment): decrypted with the trading password, checked
   * against the key hash the exchange states, sealed with the spending password.
   */
  importExchangeOperationKey(request: {
    walletId: string;
    encryptedOperationKey: string;
    operationKeyHash: string;
    tradingPassword: string;
    spendingPassword: string;
  }): Promise<WalletSummary> {
    return this.deps.secrets.inTurn(request.walletId, () => this.#importOperationKey(request));
  }

  async #importOperationKey(request: {
    walletId: string;
    encryptedOperationKey: string;
    operationKeyHash: string;
    tradingPassword: string;
    spendingPassword: string;
  }): Promise<WalletSummary> {
    await cryptoIsReady();
    const wallet = await this.deps.book.get(request.walletId);
    // Both passwords are checked in one turn of the throttle, counted before: a wrong trading
    // password costs a guess like a wrong spending password, and a right one cannot clear the
    // count of wrong spending passwords.
    await this.deps.attempts.guard(async () => {
      const raw = await decryptExchangeOperationKey(
        request.encryptedOperationKey,
        request.tradingPassword,
      );
      const key = new SigningKey(Buffer.from(raw));
      try {
        if (key.keyHash !== request.operationKeyHash.toLowerCase()) {
          throw new AppError(
            ErrorCode.VaultCorrupted,
            'The operation key from the exchange does not match the key hash it states. Nothing was changed; contact the exchange.',
          );
        }
        await this.deps.secrets.replaceOperationKey(wallet.id, request.spendingPassword, raw);
        await this.deps.book.replaceOperationKeyHash(wallet.id, key.keyHash);
      } finally {
        raw.fill(0);
        key.wipe();
      }
    });
    await this.deps.session.walletChanged();
    return this.#summaryOf(wallet.id);
  }
}

/** The real service's API keys: 32 hexadecimal characters (its dashboard shows them so). */
const REAL_API_KEY = /^[0-9a-fA-F]{32}$/;

/**
 * Refuses a key that cannot be one of the real service's before anything is sealed, so a
 * mistyped or truncated paste is caught here and not as a refusal on the first order.
 */
/** Blockfrost project ids start with the Cardano network they serve, then 32 letters and digits. */
const checkBlockfrostShape = (projectId: string, networkId: 0 | 1): void => {
  const wanted = networkId === 1 ? 'mainnet' : 'preprod';
  const read = /^(mainnet|preprod|preview)[A-Za-z0-9]{32}$/.exec(projectId);
  if (!read) {
    throw new AppError(
      ErrorCode.InvalidInput,
      `That is not a Blockfrost project id: it reads like ${wanted} followed by 32 letters and digits. Copy it again from your Blockfrost dashboard; nothing was saved.`,
    );
  }
  if (read[1] !== wanted) {
    throw new AppError(
      ErrorCode.InvalidInput,
      `That Blockfrost project is for ${read[1]}, but this exchange runs on ${wanted}. Use a ${wanted} project id; nothing was saved.`,
    );
  }
};

const checkApiKeyShape = (network: string, apiKey: string): void => {
  if ((network === 'staging' || network === 'production') && !REAL_API_KEY.test(apiKey)) {
    throw new AppError(
      ErrorCode.InvalidInput,
      `That is not a ${NETWORK_LABELS[network]} API key: it must be exactly 32 characters of 0-9 and a-f (you entered ${apiKey.length}). Copy it again from the exchange's API key page; nothing was saved.`,
    );
  }
};
