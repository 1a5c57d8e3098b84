import { z } from 'zod';
import { operation } from './define';
import type { NetworkName } from '../network';

export interface AppInfo {
  name: string;
  version: string;
  /** The exchange this app talks to. */
  network: NetworkName;
  /** Where settings, wallets' public data and the journal live. */
  dataDir: string;
  /** Electron, or the Node test harness that stands in for it on machines without Electron. */
  runtime: 'electron' | 'harness';
}

export const app = {
  info: operation<AppInfo>().request(z.undefined()),
} as const;
