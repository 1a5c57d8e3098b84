import { z } from 'zod';
import { operation } from './define';
import type { NetworkName } from '../network';

/**
 * The trader's wallets. Responses carry only public data: the 24 words cross exactly once, in
 * the answer to `create`; passwords travel only in requests.
 */
export const WalletKind = z.enum(['full', 'watch-only']);
export type WalletKind = z.infer<typeof WalletKind>;

export interface WalletSummary {
  id: string;
  name: string;
  kind: WalletKind;
  active: boolean;
  /** Key hash of the wallet's trading key, to register with the exchange. */
  operationKeyHash: string;
  createdAt: string;
  /** The exchange API key for the app's network, masked (`••••ab12`), or null when none. */
  apiKey: string | null;
  /**
   * The Blockfrost project id through which the wallet's coins are read on this network,
   * masked; null when they are read through Koios (no key needed).
   */
  blockfrost: string | null;
  /** The wallet's account id on the app's exchange, once it has joined; null before. */
  exchangeAccountId: string | null;
}

export interface WalletList {
  wallets: WalletSummary[];
  activeWalletId: string | null;
  /** Set when the wallet list was damaged during this run: what happened, in plain words. */
  notices?: string[];
}

export interface NewRecoveryPhrase {
  /** Pass back to `confirmCreate`. */
  creationId: string;
  /** The 24 words, shown once. */
  words: string[];
  /** 1-based positions of the words the trader must re-type. */
  confirmPositions: number[];
}

export interface WalletAddresses {
  walletId: string;
  network: NetworkName;
  /** Base address (payment key 0/0, stake key 2/0) on the app's network. */
  baseAddress: string;
  paymentKeyHash: string;
  stakeKeyHash: string;
  /** The account public key, `acct_xvk1…` (public, safe to show and export). */
  accountPublicKey: string;
}

/** One asset a wallet holds on Cardano (L1), exact in both forms. */
export interface WalletAsset {
  unit: string;
  name: string;
  /** Smallest units, as an integer string. */
  quantity: string;
  /** Human units, as a decimal string (never a float). */
  amount: string;
}

/** What a wallet (full or watch-only) holds on L1, at its base address. */
/** Coins one transaction can spend, and the ADA they hold in lovelace (an integer string). */
export interface OneTransaction {
  coins: number;
  lovelace: string;
}

export interface WalletBalance {
  walletId: string;
  network: NetworkName;
  address: string;
  /** ADA first, then the other assets by name. */
  assets: WalletAsset[];
  utxoCount: number;
  /**
   * What one transaction can spend: it spends no more than 100 coins, so from a wallet of more,
   * the 100 holding the most ADA. How many coins that is, and their ADA in lovelace (an integer
   * string); the whole wallet when it holds no more than 100 coins. `withToken`, by token unit:
   * the same for a deposit that also moves that token, which spends the token's coins first.
   */
  oneTransaction: OneTransaction & { withToken: Record<string, OneTransaction> };
}

const name = z.string().min(1).max(60);
const password = z.string().min(1).max(1024);
const walletId = z.string().uuid();

export const wallet = {
  list: operation<WalletList>().request(z.undefined()),
  /** Makes a new 24-word phrase; nothing is stored until `confirmCreate`. */
  create: operation<NewRecoveryPhrase>().request(z.object({ name, password })),
  confirmCreate: operation<WalletSummary>().request(
    z.object({
      creationId: z.string().uuid(),
      words: z
        .array(z.object({ position: z.number().int().min(1).max(24), word: z.string().max(20) }))
        .min(1)
        .max(24),
    }),
  ),
  restore: operation<WalletSummary>().request(
    z.object({
      name,
      words: z.union([z.string().max(400), z.array(z.string().max(20)).max(30)]),
      password,
    }),
  ),
  importWatchOnly: operation<WalletSummary>().request(
    z.object({ name, accountPublicKey: z.string().min(1).max(300), password }),
  ),
  select: operation<WalletSummary>().request(z.object({ walletId })),
  rename: operation<WalletSummary>().request(z.object({ walletId, name })),
  /**
   * Deletes the wallet's keys from this machine: the trader re-types the name to confirm and
   * gives the spending password, which must open the wallet's keys (destroying needs proof).
   */
  remove: operation<WalletList>().request(
    z.object({ walletId, confirmName: z.string().max(60), password }),
  ),
  /** Saves the exchange API key (sealed with the spending password); answered masked. */
  setApiKey: operation<WalletSummary>().request(
    z.object({ walletId, apiKey: z.string().regex(/^\s*[A-Za-z0-9_-]{16,128}\s*$/), password }),
  ),
  /**
   * Reads the wallet's coins on this (real) network through Blockfrost with this project id,
   * sealed with the spending password; null goes back to Koios. Answered masked.
   */
  setBlockfrost: operation<WalletSummary>().request(
    z.object({
      walletId,
      projectId: z
        .string()
        .regex(/^\s*[A-Za-z0-9]{10,64}\s*$/)
        .nullable(),
      password,
    }),
  ),
  addresses: operation<WalletAddresses>().request(z.object({ walletId: walletId.optional() })),
  /** The wallet's coins on Cardano (L1): what it can deposit. Works for watch-only wallets too. */
  balance: operation<WalletBalance>().request(z.object({ walletId: walletId.optional() })),
  /**
   * Opens the wallet's account on the embedded sandbox: registers its address and operation key
   * hash, and seals the API key it gets back. Real networks take an API key (setApiKey) instead.
   */
  joinExchange: operation<WalletSummary>().request(z.object({ walletId, password })),
} as const;
