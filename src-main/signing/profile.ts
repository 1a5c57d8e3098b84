import type { NetworkName } from '../../src-shared/network';
import type { AssetInfo, ExchangeAddresses } from './decode';

/**
 * The exchange as this app knows it, per network: its addresses, its intent policy, its fee rate
 * and build expiry, and what the trader chose to do with orders Countersign cannot verify. The
 * sandbox publishes all of it at `/sandbox/network`.
 */
export interface ExchangeProfile {
  network: NetworkName;
  networkId: 0 | 1;
  addresses: ExchangeAddresses;
  /** Policy id of the user-intent token; default: the intent address's script hash. */
  intentPolicyId?: string;
  /** Key hash of this wallet's operation key, as registered with the exchange. */
  operationKeyHash: string;
  /** The exchange's own keys that may be listed as required signers (it signs after submit). */
  exchangeKeyHashes?: readonly string[];
  /** This wallet's account id at the exchange (a UUID), which its intents must name. */
  accountId?: string;
  /** The trading fee rate the exchange publishes, in basis points (10 on the real service). */
  tradingFeeBp?: number;
  /**
   * What happens to an order or cancel whose terms Countersign cannot verify (a datum it cannot
   * read, a fact the profile lacks): `refuse` it, or `warn` and sign only after the trader
   * confirms the listed gaps. The trader's setting per network; defaults in
   * `UNVERIFIED_ORDERS_DEFAULT`. Deposits and withdrawals are always refused.
   */
  unverifiedOrders?: 'refuse' | 'warn';
  /** How long a build may stay valid: orders and cancels, deposits and withdrawals. */
  buildExpiry?: BuildExpiry;
  /** Unix time of slot 0 (slots are 1 s); defaults per network in `SLOT_ZERO_UNIX_SECONDS`. */
  slotZeroUnixSeconds?: number;
  /** Largest fee a deposit or withdrawal may carry. Default 2 ADA. */
  maxFundsFeeLovelace?: bigint;
  /** Largest fee an order or cancel may carry. Default 0 (they are fee-free). */
  maxTradeFeeLovelace?: bigint;
  /**
   * Most ADA an order output may carry besides a token it locks, and a cancel's intent output
   * besides its intent token (an output's minimum). Default 2 ADA.
   */
  maxOrderMinAdaLovelace?: bigint;
  assets?: ReadonlyMap<string, AssetInfo>;
}

export interface BuildExpiry {
  orderSeconds: number;
  fundsSeconds: number;
}

/**
 * Unverifiable orders: refused on production, the sandbox and a custom exchange, a confirmed
 * warning on staging.
 */
export const UNVERIFIED_ORDERS_DEFAULT: Readonly<Record<NetworkName, 'refuse' | 'warn'>> = {
  sandbox: 'refuse',
  staging: 'warn',
  production: 'refuse',
  custom: 'refuse',
};

/**
 * Build expiry: the sandbox's published 5 min / 2 h; for the real service, which does not publish
 * it, 10 min for orders and 3 h for deposits and withdrawals (room for offline signing).
 */
export const BUILD_EXPIRY_DEFAULT: Readonly<Record<NetworkName, BuildExpiry>> = {
  sandbox: { orderSeconds: 300, fundsSeconds: 7200 },
  staging: { orderSeconds: 600, fundsSeconds: 10_800 },
  production: { orderSeconds: 600, fundsSeconds: 10_800 },
  custom: { orderSeconds: 600, fundsSeconds: 10_800 },
};

/**
 * Slot 0 in unix seconds for 1-second slots: the sandbox's own; Cardano preprod (Shelley from
 * slot 86400 at 2022-06-21) and mainnet (Shelley from slot 4492800 at 2020-07-29).
 */
export const SLOT_ZERO_UNIX_SECONDS: Readonly<Record<Exclude<NetworkName, 'custom'>, number>> = {
  sandbox: 1_654_041_600,
  staging: 1_655_683_200,
  production: 1_591_566_291,
};

/** How far the exchange's clock may be from this computer's. */
export const CLOCK_SKEW_SECONDS = 60;

export const unverifiedOrdersOf = (p: ExchangeProfile): 'refuse' | 'warn' =>
  p.unverifiedOrders ?? UNVERIFIED_ORDERS_DEFAULT[p.network];

export const buildExpiryOf = (p: ExchangeProfile): BuildExpiry =>
  p.buildExpiry ?? BUILD_EXPIRY_DEFAULT[p.network];

/** A custom exchange runs on mainnet (network id 1) or on preprod. */
export const slotZeroOf = (p: ExchangeProfile): number =>
  p.slotZeroUnixSeconds ??
  SLOT_ZERO_UNIX_SECONDS[
    p.network !== 'custom' ? p.network : p.networkId === 1 ? 'production' : 'staging'
  ];
