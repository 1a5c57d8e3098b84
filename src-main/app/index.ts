import type { EmitEvent, Handlers, SendEvent } from '../../src-shared/contract';
import { serialize } from '../../src-shared/domain/amount';
import { NETWORK_IDS, type NetworkName } from '../../src-shared/network';
import { AppInfoService } from './about/service';
import { aboutHandlers } from './about/handlers';
import { createDispatcher, type Dispatch } from '../dispatch';
import type { Logger } from '../log';
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
import { startEmbeddedSandbox, type EmbeddedSandbox, type SandboxCommand } from '../exchange';
import { join } from 'node:path';
import { SandboxChain } from '../chain';
import { SessionService } from './session/service';
import { sessionHandlers } from './session/handlers';
import { WalletService } from './wallet/service';
import { walletHandlers } from './wallet/handlers';
import { notYetHandlers } from './not-yet';

export interface AppConfig {
  name: string;
  version: string;
  dataDir: string;
  runtime: 'electron' | 'harness';
  network: NetworkName;
  logger: Logger;
  /** Pushes an event to the renderer (Electron: webContents.send; harness: WebSocket). */
  send: SendEvent;
  /** Where sealed secrets are kept; the OS keychain unless a test or the harness gives another. */
  secretStore?: SecretStore;
  /** scrypt cost of the vault; production cost unless a test lowers it. */
  vaultCost?: ScryptCost;
  /**
   * How to run the embedded sandbox exchange. On the sandbox network it is started with the
   * app, with its data in `<dataDir>/sandbox`, and stopped with it.
   */
  sandbox?: SandboxCommand;
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
  dispose(): Promise<void>;
}

/**
 * The composition of every service behind the contract. Electron's main and the browser harness
 * both call this, so what the harness tests is what the app runs.
 */
export const createAppServices = async (config: AppConfig): Promise<AppServices> => {
  // Services emit domain values; what crosses to the renderer is their exact serialised form.
  const emit: EmitEvent = (name, payload) => config.send(name, serialize(payload));
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
    emit,
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
    networkId: () => (config.network === 'custom' ? 0 : NETWORK_IDS[config.network]),
    ...(sandbox
      ? {
          sandboxUrl: async () => (await sandbox).url,
          chain: new SandboxChain(async () => (await sandbox).url),
        }
      : {}),
  });
  const signer = new TransactionSigner({ book, secrets, session, attempts });

  const handlers: Handlers = {
    app: aboutHandlers(appInfo),
    session: sessionHandlers(session),
    wallet: walletHandlers(wallet),
    ...notYetHandlers(),
  };

  return {
    handlers,
    dispatch: createDispatcher(handlers, config.logger),
    session,
    wallet,
    signer,
    sandbox,
    dispose: async () => {
      session.lockNow('shutdown');
      await sandbox?.then(
        (running) => running.stop(),
        () => undefined,
      );
    },
  };
};
