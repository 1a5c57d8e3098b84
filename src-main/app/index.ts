import { join } from 'node:path';
import type { EmitEvent, Handlers, SendEvent } from '../../src-shared/contract';
import type { OperationProgress, SessionStatus } from '../../src-shared/contract';
import { serialize } from '../../src-shared/domain/amount';
import type { Market, Order } from '../../src-shared/domain';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { DEFAULT_NETWORK, networkIdOf, type NetworkChoice } from '../../src-shared/network';
import { createDispatcher, type Dispatch } from '../dispatch';
import { startEmbeddedSandbox, type EmbeddedSandbox, type SandboxProgram } from '../exchange';
import type { Logger } from '../log';
import { TransactionSigner } from '../signing';
import { writeFileAtomic } from '../store/atomic-file';
import { OperationJournal } from '../store/journal';
import { SettingsStore } from '../store/settings';
import {
  KeychainSecretStore,
  SessionSettings,
  UnlockAttempts,
  WalletBook,
  WalletSecrets,
  type ScryptCost,
  type SecretStore,
} from '../wallet';
import { aboutHandlers } from './about/handlers';
import { AppInfoService } from './about/service';
import { fundsHandlers } from './funds/handlers';
import { FundsService } from './funds/service';
import { PendingFundsStore } from './funds/pending-store';
import { marketHandlers } from './market/handlers';
import { MarketService } from './market/service';
import { NetworkService, type Connection } from './network/service';
import { inUnits, marketOf } from './network/rules';
import { offlineHandlers } from './offline/handlers';
import { OfflineSigningService } from './offline/service';
import { operationsHandlers } from './operations/handlers';
import { OperationsService } from './operations/service';
import { AccountFeed } from './orders/account-feed';
import { ordersHandlers } from './orders/handlers';
import type { SaveFile } from './files';
import { OrdersService } from './orders/service';
import { sessionHandlers } from './session/handlers';
import { SessionService } from './session/service';
import { settingsHandlers } from './settings/handlers';
import { SettingsService } from './settings/service';
import { tradingHandlers } from './trading/handlers';
import { TradingService } from './trading/service';
import { InFlight, UpdateService, updatesHandlers, type UpdateSource } from './updates';
import { walletHandlers } from './wallet/handlers';
import { WalletService } from './wallet/service';

export interface AppConfig {
  name: string;
  version: string;
  dataDir: string;
  runtime: 'electron' | 'harness';
  /** The network of a new install (no settings yet); the embedded sandbox unless a test says. */
  network?: NetworkChoice;
  logger: Logger;
  /** Pushes an event to the renderer (Electron: webContents.send; harness: WebSocket). */
  send: SendEvent;
  /** Where sealed secrets are kept; the OS keychain unless a test or the harness gives another. */
  secretStore?: SecretStore;
  /** scrypt cost of the vault; production cost unless a test lowers it. */
  vaultCost?: ScryptCost;
  /**
   * How to run the embedded sandbox exchange. On the sandbox network it is started with the
   * app, with its data in `<dataDir>/sandbox`, and stopped with it (or when leaving it). Tests
   * that kill the app may attach to one already running instead (`{ url, adminToken }`).
   * A command runs it as a Node child process; Electron passes its utility-process launcher.
   */
  sandbox?: SandboxProgram | { url: string; adminToken?: string };
  /** Where updates come from; only the installed app has them (its Electron glue says how). */
  updates?: UpdateSource;
  /** The save dialog (Electron); by default files go to `<dataDir>/exports`. */
  saveFile?: SaveFile;
  /** A desktop notification (Electron: only while the window is not focused). */
  notify?: (title: string, body: string) => void;
  /** How often live data is read while a stream is down (tests shorten it). */
  pollEveryMs?: number;
  /** The clock the funds service follows deposits and withdrawals by (tests move it on). */
  now?: () => number;
}

export interface AppServices {
  handlers: Handlers;
  dispatch: Dispatch;
  /** The trading session: `lockNow(reason)` for suspend and screen lock. */
  session: SessionService;
  wallet: WalletService;
  network: NetworkService;
  operations: OperationsService;
  trading: TradingService;
  funds: FundsService;
  orders: OrdersService;
  /** Signs exchange transactions after checking them against the trader's intent. */
  signer: TransactionSigner;
  /** The embedded sandbox once it listens; null when this network does not use it. */
  readonly sandbox: Promise<EmbeddedSandbox> | null;
  updates: UpdateService;
  dispose(): Promise<void>;
}

const exportsFolder =
  (dataDir: string): SaveFile =>
  async (name, content) => {
    await writeFileAtomic(join(dataDir, 'exports', name), content);
    return { fileName: name };
  };

/** What to do after the practice exchange started afresh from damaged data. */
const FRESH_SANDBOX_ADVICE =
  'To trade on it again, reset the practice exchange in Settings › Practice exchange with your ' +
  'spending password: your wallet opens a new practice account there and is given practice coins ' +
  'again. Your wallets and keys on this computer are not affected.';

/**
 * A fill in the order's own words: "Bought 5 of 10 ADA at 0.6509 USDM." (by symbol if unknown),
 * its average price with the decimals the market's prices have, as the app's tables show it.
 */
const fillText = (order: Order, market: Market | undefined): string => {
  const price = order.executedPrice;
  const shown = price ? (market ? price.toFixed(market.priceDecimals) : price.toFixed()) : null;
  return `${order.side === 'buy' ? 'Bought' : 'Sold'} ${order.executedBaseQty.toFixed()} of ${inUnits(market, order.symbol, order.baseQty.toFixed(), shown)}.`;
};

/**
 * The composition of every service behind the contract. Electron's main, the browser harness and
 * the tests all call this, so what they exercise is what the app runs.
 */
export const createAppServices = async (config: AppConfig): Promise<AppServices> => {
  let onSession: (status: SessionStatus) => void = () => undefined;
  // What the trader has under way holds back an agreed update's restart.
  const inFlight = new InFlight();
  // Services emit domain values; what crosses to the renderer is their exact serialised form.
  const emit: EmitEvent = (name, payload) => {
    config.send(name, serialize(payload));
    if (name === 'session:changed') onSession(payload as SessionStatus);
    if (name === 'operations:progress') inFlight.observe(payload as OperationProgress);
  };

  const settingsStore = new SettingsStore(config.dataDir, config.network ?? DEFAULT_NETWORK);
  await settingsStore.read();
  if (settingsStore.problem) config.logger.warn(settingsStore.problem.message);

  const book = new WalletBook(config.dataDir);
  const secrets = new WalletSecrets(
    config.secretStore ?? new KeychainSecretStore(),
    config.vaultCost,
  );
  const attempts = new UnlockAttempts(config.dataDir);
  await attempts.load();
  const journal = new OperationJournal(config.dataDir);
  const pendingFunds = new PendingFundsStore(config.dataDir);
  const sandboxCommand = config.sandbox;
  let sandboxNotice: string | null = null;
  // Set once the session exists: the sandbox may announce its notice after the window has read
  // the session's status, so the status is pushed again.
  let announceNotices: () => void = () => undefined;

  const network = new NetworkService({
    settings: settingsStore,
    emit,
    logger: config.logger,
    ...(sandboxCommand
      ? {
          startSandbox: (onExit: () => void) =>
            'url' in sandboxCommand
              ? Promise.resolve({ ...sandboxCommand, pid: -1, stop: async () => undefined })
              : startEmbeddedSandbox({
                  ...sandboxCommand,
                  dataDir: join(config.dataDir, 'sandbox'),
                  logger: config.logger,
                  onExit,
                }).then((started) => {
                  // Its data was damaged and it started afresh: the trader is told what happened
                  // and what to do (the wallet's practice account is not in the fresh one).
                  if (started.notice) {
                    sandboxNotice = `${started.notice} ${FRESH_SANDBOX_ADVICE}`;
                    announceNotices();
                  }
                  return started;
                }),
        }
      : {}),
    chain: {
      blockfrost: (): string | null => session.blockfrost(),
      blockfrostSaved: async (): Promise<boolean> =>
        Boolean((await book.active())?.blockfrost?.[network.current.name]),
    },
    // API keys are per network: the session that opened this one's key locks.
    onSwitch: async () => {
      await session.lock('network-changed');
    },
  });
  await network.start();

  const appInfo = new AppInfoService({
    name: config.name,
    version: config.version,
    dataDir: config.dataDir,
    runtime: config.runtime,
    network: () => network.current.name,
  });
  const session = new SessionService({
    book,
    secrets,
    attempts,
    settings: new SessionSettings(config.dataDir),
    emit,
    network: () => network.current.name,
    notices: () => [
      settingsStore.problem?.message ?? null,
      journal.notice(),
      pendingFunds.notice(),
      sandboxNotice,
    ],
  });
  announceNotices = () => void session.noticesChanged().catch(() => undefined);
  const apiKey = () => session.apiKey();
  const apiKeyOrNull = () => {
    try {
      return session.apiKey();
    } catch {
      return null;
    }
  };

  const saveFile = config.saveFile ?? exportsFolder(config.dataDir);
  const wallet = new WalletService({
    book,
    secrets,
    session,
    attempts,
    network: () => network.current.name,
    networkId: () => networkIdOf(network.current),
    sandboxAdmin: async () => (await network.connection()).sandboxAdmin(),
    chain: () => connectionNow().chain(),
    removed: (walletId): Promise<void> => funds.forgetWallet(walletId),
  });
  const offline = new OfflineSigningService({ book, secrets, attempts, saveFile });
  let latest: Connection | undefined;
  const connectionNow = (): Connection => {
    if (!latest || latest.closed) throw new Error('no connection yet');
    return latest;
  };
  latest = await network.connection();
  network.onSwitch((next) => {
    latest = next;
  });

  const signer = new TransactionSigner({ book, secrets, session, attempts });
  const orders = new OrdersService({
    network,
    apiKey,
    emit,
    saveFile,
  });
  const operations: OperationsService = new OperationsService({
    network,
    signer,
    saveFile,
    journal,
    emit,
    logger: config.logger,
    apiKey,
    // What waits for an offline signature is kept with the deposits and withdrawals on their way.
    handedOut: (operationId, waiting): Promise<void> => funds.handedOut(operationId, waiting),
    released: (operationId): Promise<void> => funds.released(operationId),
    restoreWaiting: (): Promise<void> => funds.restoreWaiting(),
    afterChange: (result) => {
      orders.invalidate();
      if (result.txHash && (result.kind === 'deposit' || result.kind === 'withdrawal')) {
        void funds.submitted(result.operationId, result.txHash);
      }
      if (result.kind === 'place-order' && result.order) feed.placed(result.order);
      feed.refresh();
    },
  });
  const accountAddresses = new Map<string, string>();
  const trading = new TradingService({
    network,
    book,
    settings: settingsStore,
    signer,
    operations,
    apiKey,
    accountAddress: async (connection, account) => {
      if (!account.accountId) return undefined;
      const key = `${connection.key}|${account.accountId}`;
      const known = accountAddresses.get(key);
      if (known) return known;
      const admin = await connection.sandboxAdmin();
      const address = admin ? (await admin.account(account.accountId)).exchangeAddress : undefined;
      if (address) accountAddresses.set(key, address);
      return address;
    },
  });
  const funds: FundsService = new FundsService({
    network,
    book,
    signer,
    operations,
    emit,
    apiKey,
    walletBalance: () => wallet.balance({}),
    store: pendingFunds,
    logger: config.logger,
    ...(config.now ? { now: config.now } : {}),
  });
  const market = new MarketService({
    network,
    emit,
    logger: config.logger,
    ...(config.pollEveryMs ? { pollEveryMs: config.pollEveryMs } : {}),
  });
  const feed = new AccountFeed({
    network,
    emit,
    logger: config.logger,
    apiKey: apiKeyOrNull,
    balancesChanged: () => void funds.refresh(),
    ordersChanged: () => orders.historyChanged(),
    openOrdersRead: (key, open) => orders.openOrdersRead(key, open),
    notifyFill: (order) => {
      const rules = network
        .connection()
        .then((c) => c.rules())
        .catch(() => null);
      void Promise.all([settingsStore.read(), rules]).then(([s, known]) => {
        if (!s.notifyFills) return;
        config.notify?.(
          'Order filled',
          fillText(order, known ? marketOf(known, order.symbol) : undefined),
        );
      });
    },
    ...(config.pollEveryMs ? { pollEveryMs: config.pollEveryMs } : {}),
  });
  onSession = (status) => {
    if (status.state === 'unlocked') void feed.restart();
    else feed.stop();
  };
  const settings = new SettingsService({
    store: settingsStore,
    network,
    session,
    wallet,
    emit,
    checkPassword: async (password) => {
      const active = await book.active();
      if (!active) {
        throw new AppError(
          ErrorCode.WalletNotFound,
          'There is no wallet on this computer to check the spending password with. Add or restore a wallet first.',
        );
      }
      await attempts.guard(async () =>
        (await secrets.openOperationKey(active.id, password)).wipe(),
      );
    },
  });

  const updates = new UpdateService({
    currentVersion: config.version,
    source: config.updates ?? {
      disabled:
        'This copy of Countersign runs from its sources; only an installed release updates itself.',
    },
    inFlight,
    emit,
    logger: config.logger,
  });

  const handlers: Handlers = {
    app: aboutHandlers(appInfo),
    session: sessionHandlers(session),
    wallet: walletHandlers(wallet),
    offline: offlineHandlers(offline),
    settings: settingsHandlers(settings),
    market: marketHandlers(market),
    trading: tradingHandlers(trading),
    funds: fundsHandlers(funds),
    orders: ordersHandlers(orders),
    operations: operationsHandlers(operations),
    updates: updatesHandlers(updates),
  };
  // Signed operations an earlier run left unsent: the trader is asked what to do with them.
  void operations.recover();

  return {
    handlers,
    // Requests in flight hold back an agreed update's restart (updates' own calls do not).
    dispatch: inFlight.wrap(createDispatcher(handlers, config.logger), (channel) =>
      channel.startsWith('updates:'),
    ),
    session,
    wallet,
    network,
    operations,
    trading,
    funds: funds,
    orders,
    signer,
    get sandbox() {
      return network.sandbox;
    },
    updates,
    dispose: async () => {
      updates.stop();
      session.lockNow('shutdown');
      feed.stop();
      market.unwatch();
      await funds.flush();
      await network.dispose();
      await journal.close();
    },
  };
};
