import type { EmitEvent, Handlers } from '../../src-shared/contract';
import type { NetworkName } from '../../src-shared/network';
import { AppInfoService } from './app-info';
import { createDispatcher, type Dispatch } from './dispatcher';
import type { Logger } from './logger';
import {
  KeychainSecretStore,
  SessionSettings,
  UnlockAttempts,
  WalletBook,
  WalletSecrets,
  type ScryptCost,
  type SecretStore,
} from '../wallet';
import { TransactionSigner } from '../signing';
import { startEmbeddedSandbox, type EmbeddedSandbox, type SandboxProgram } from '../exchange';
import { join } from 'node:path';
import { SandboxChain } from '../chain';
import { SessionService } from './session';
import { WalletService } from './wallet';
import { InFlight, UpdateService, updatesHandlers, type UpdateSource } from './updates';

export interface AppConfig {
  name: string;
  version: string;
  dataDir: string;
  runtime: 'electron' | 'harness';
  network: NetworkName;
  logger: Logger;
  /** Pushes an event to the renderer (Electron: webContents.send; harness: WebSocket). */
  emit: EmitEvent;
  /** Where sealed secrets are kept; the OS keychain unless a test or the harness gives another. */
  secretStore?: SecretStore;
  /** scrypt cost of the vault; production cost unless a test lowers it. */
  vaultCost?: ScryptCost;
  /**
   * How to run the embedded sandbox exchange. On the sandbox network it is started with the
   * app, with its data in `<dataDir>/sandbox`, and stopped with it.
   */
  sandbox?: SandboxProgram;
  /** Where updates come from; only the installed app has them (its Electron glue says how). */
  updates?: UpdateSource;
}

export interface AppServices {
  handlers: Handlers;
  dispatch: Dispatch;
  /** The trading session: `lockNow(reason)` for suspend and screen lock. */
  session: SessionService;
  wallet: WalletService;
  /** Signs exchange transactions after checking them against the trader's intent. */
  signer: TransactionSigner;
  /** The embedded sandbox once it listens; null when this network does not use it. */
  sandbox: Promise<EmbeddedSandbox> | null;
  updates: UpdateService;
  dispose(): Promise<void>;
}

/**
 * The composition of every service behind the contract. Electron's main and the browser harness
 * both call this, so what the harness tests is what the app runs.
 */
export const createAppServices = async (config: AppConfig): Promise<AppServices> => {
  const appInfo = new AppInfoService({
    name: config.name,
    version: config.version,
    dataDir: config.dataDir,
    runtime: config.runtime,
    network: () => config.network,
  });
  const book = new WalletBook(config.dataDir);
  const secrets = new WalletSecrets(
    config.secretStore ?? new KeychainSecretStore(),
    config.vaultCost,
  );
  const attempts = new UnlockAttempts(config.dataDir);
  const session = new SessionService({
    book,
    secrets,
    attempts,
    settings: new SessionSettings(config.dataDir),
    emit: config.emit,
    network: () => config.network,
  });
  const sandbox =
    config.network === 'sandbox' && config.sandbox
      ? startEmbeddedSandbox({
          ...config.sandbox,
          dataDir: join(config.dataDir, 'sandbox'),
          logger: config.logger,
        })
      : null;
  // A failed start is reported to whoever uses the exchange; it must not crash the app.
  sandbox?.catch((error: unknown) => config.logger.error('embedded sandbox did not start', error));

  const wallet = new WalletService({
    book,
    secrets,
    session,
    attempts,
    network: () => config.network,
    ...(sandbox
      ? {
          sandboxUrl: async () => (await sandbox).url,
          chain: new SandboxChain(async () => (await sandbox).url),
        }
      : {}),
  });
  const signer = new TransactionSigner({ book, secrets, session, attempts });
  const inFlight = new InFlight();
  const updates = new UpdateService({
    currentVersion: config.version,
    source: config.updates ?? {
      disabled:
        'This copy of Countersign runs from its sources; only an installed release updates itself.',
    },
    inFlight,
    emit: config.emit,
    logger: config.logger,
  });

  const handlers: Handlers = {
    app: { info: async () => appInfo.info() },
    session: {
      status: () => session.status(),
      unlock: ({ password }) => session.unlock(password),
      lock: () => session.lock('user'),
      setAutoLock: ({ autoLock }) => session.setAutoLock(autoLock),
      touch: async () => {
        session.touch();
        return null;
      },
    },
    wallet: {
      list: () => wallet.list(),
      create: (request) => wallet.create(request),
      confirmCreate: (request) => wallet.confirmCreate(request),
      restore: (request) => wallet.restore(request),
      importWatchOnly: (request) => wallet.importWatchOnly(request),
      select: (request) => wallet.select(request),
      rename: (request) => wallet.rename(request),
      remove: (request) => wallet.remove(request),
      setApiKey: (request) => wallet.setApiKey(request),
      addresses: (request) => wallet.addresses(request),
      joinExchange: (request) => wallet.joinExchange(request),
      balance: (request) => wallet.balance(request),
    },
    updates: updatesHandlers(updates),
  };

  return {
    handlers,
    // Requests in flight hold back an agreed update's restart (updates' own calls do not).
    dispatch: inFlight.wrap(createDispatcher(handlers, config.logger), (channel) =>
      channel.startsWith('updates:'),
    ),
    session,
    wallet,
    signer,
    sandbox,
    updates,
    dispose: async () => {
      updates.stop();
      session.lockNow('shutdown');
      await sandbox?.then(
        (running) => running.stop(),
        () => undefined,
      );
    },
  };
};

export { createDispatcher, type Dispatch } from './dispatcher';
export { consoleLogger, silentLogger, redact, type Logger } from './logger';
