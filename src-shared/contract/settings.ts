import { z } from 'zod';
import { event, operation } from './define';
import { DecimalText } from '../domain';
import { NetworkChoice } from '../network';
import { AutoLock } from './session';
import type { ConnectionState } from './market';
import type { WalletSummary } from './wallet';

/** What the trader has chosen; kept on disk by main, one truth for every screen. */
export const Settings = z.object({
  network: NetworkChoice,
  autoLock: AutoLock,
  theme: z.enum(['system', 'light', 'dark']),
  /** Pre-trade limits: refuse an order worth more than this (quote units), or with this many open. */
  limits: z.object({
    maxOrderValue: DecimalText.nullable(),
    maxOpenOrders: z.number().int().min(1).max(1000).nullable(),
  }),
  /** Orders signed with the unlocked trading key skip the confirmation dialog (never the check). */
  skipOrderConfirmation: z.boolean(),
  notifyFills: z.boolean(),
  /**
   * What to do with an order whose on-chain terms cannot be read, per real network: refuse it,
   * or show what could not be verified and let the trader decide each time.
   */
  unverifiedOrders: z.object({
    staging: z.enum(['refuse', 'warn']),
    production: z.enum(['refuse', 'warn']),
    custom: z.enum(['refuse', 'warn']),
  }),
});
export type Settings = z.output<typeof Settings>;

export const settings = {
  get: operation<Settings>().request(z.undefined()),
  /**
   * Switches the exchange at run time. The client, chain provider, order cache and journal are
   * per network; nothing of one shows on another. Staging and production need an API key.
   */
  setNetwork: operation<Settings>().request(z.object({ network: NetworkChoice })),
  update: operation<Settings>().request(
    Settings.pick({
      theme: true,
      limits: true,
      skipOrderConfirmation: true,
      notifyFills: true,
      unverifiedOrders: true,
    }).partial(),
  ),
  /**
   * Fetches the account's encrypted operation key from the exchange, opens it with the trading
   * password the exchange gave, and seals it with the spending password.
   */
  importOperationKey: operation<WalletSummary>().request(
    z.object({
      walletId: z.string().uuid(),
      tradingPassword: z.string().min(1).max(1024),
      password: z.string().min(1).max(1024),
    }),
  ),
  /** The exchange connection right now. */
  connection: operation<ConnectionState>().request(z.undefined()),
  /** Wipes the embedded sandbox (accounts, orders, coins). Asks for the spending password. */
  resetSandbox: operation<null>().request(z.object({ password: z.string().min(1).max(1024) })),
} as const;

export const settingsEvents = {
  'settings:changed': event(Settings),
} as const;
