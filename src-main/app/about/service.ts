import type { AppInfo } from '../../../src-shared/contract';
import type { NetworkName } from '../../../src-shared/network';

export interface AppInfoDeps {
  name: string;
  version: string;
  dataDir: string;
  runtime: AppInfo['runtime'];
  /** The network in force right now (settings may change it). */
  network: () => NetworkName;
}

/** Answers `app:info`: what this app is, where its data lives and which exchange it talks to. */
export class AppInfoService {
  constructor(private readonly deps: AppInfoDeps) {}

  info(): AppInfo {
    const { name, version, dataDir, runtime } = this.deps;
    return { name, version, dataDir, runtime, network: this.deps.network() };
  }
}
