import type { EmitEvent, Handlers } from '../../src-shared/contract';
import type { NetworkName } from '../../src-shared/network';
import { AppInfoService } from './app-info';
import { createDispatcher, type Dispatch } from './dispatcher';
import type { Logger } from './logger';
import { noWalletYet, type SessionStatusSource } from './session';

export interface AppConfig {
  name: string;
  version: string;
  dataDir: string;
  runtime: 'electron' | 'harness';
  network: NetworkName;
  logger: Logger;
  /** Pushes an event to the renderer (Electron: webContents.send; harness: WebSocket). */
  emit: EmitEvent;
}

export interface AppServices {
  handlers: Handlers;
  dispatch: Dispatch;
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
  const session: SessionStatusSource = noWalletYet;

  const handlers: Handlers = {
    app: { info: async () => appInfo.info() },
    session: { status: async () => session.status() },
  };

  return {
    handlers,
    dispatch: createDispatcher(handlers, config.logger),
    dispose: async () => {},
  };
};

export { createDispatcher, type Dispatch } from './dispatcher';
export { consoleLogger, silentLogger, redact, type Logger } from './logger';
