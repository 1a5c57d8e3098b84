import { KNOWN_ASSETS, LOVELACE, type AssetInfo } from '../../../src-shared/assets';
import type { Market } from '../../../src-shared/domain';
import { Money } from '../../../src-shared/money';
import type { NetworkChoice } from '../../../src-shared/network';
import type { SandboxNetwork } from '../../exchange';

/**
 * What the app must know of an exchange to check a trade before it is built and a transaction
 * before it is signed: its markets and their precision, fees, minimums and expiries, and the
 * addresses it publishes. The sandbox publishes all of it (`/sandbox/network`); for the real
 * service these are the published figures (real-service.md), and its addresses are unknown.
 */
export interface ExchangeRules {
  markets: Market[];
  assets: AssetInfo[];
  commissionRateBp: number;
  /** Most open orders per account, when the exchange says. */
  maxOpenOrders: number | null;
  /** How far from the market price a limit price may be, in basis points, when known. */
  priceBandBp: number | null;
  minOrderAdaEquivalent: Money;
  minDepositLovelace: bigint;
  minWithdrawalLovelace: bigint;
  withdrawalFeeLovelace: bigint;
  /**
   * Whether the withdrawal fee comes out of the ADA paid out (the real service's published rule:
   * the payout is the amount less the fee) or is charged on top from the free balance (the
   * sandbox).
   */
  withdrawalFeeFromPayout: boolean;
  orderTtlSeconds: number;
  fundsTtlSeconds: number;
  addresses: { intent?: string; deposit?: string; treasury?: string };
  /** L1 fee parameters, to show a deposit's fee before it is built. */
  l1Fee: { a: bigint; b: bigint } | null;
}

const ADA_UNIT_DECIMALS = 6;

/** Cardano's published L1 fee parameters (lovelace per byte, and per transaction). */
export const PUBLISHED_L1_FEE = { a: 44n, b: 155_381n } as const;
const USDM = (choice: NetworkChoice): AssetInfo => {
  const assets = KNOWN_ASSETS[choice.name];
  const testnet =
    choice.name !== 'production' && !(choice.name === 'custom' && choice.networkId === 1);
  const usdm = assets.filter((a) => a.name === 'USDM');
  return (testnet ? usdm[0] : usdm.at(-1)) ?? { unit: '', name: 'USDM', decimals: 6 };
};

/** The real service's published figures (real-service.md), for staging, production and custom. */
export const realServiceRules = (choice: NetworkChoice): ExchangeRules => {
  const ada: AssetInfo = { unit: LOVELACE, name: 'ADA', decimals: ADA_UNIT_DECIMALS };
  const usdm = USDM(choice);
  return {
    markets: [
      {
        symbol: 'ADAUSDM',
        base: 'ADA',
        quote: 'USDM',
        baseUnit: LOVELACE,
        quoteUnit: usdm.unit,
        priceDecimals: 4,
        quantityDecimals: 4,
        minOrderAdaEquivalent: new Money(5),
        commissionRateBp: 10,
      },
    ],
    assets: [ada, usdm],
    commissionRateBp: 10,
    maxOpenOrders: null,
    priceBandBp: null,
    minOrderAdaEquivalent: new Money(5),
    minDepositLovelace: 2_000_000n,
    minWithdrawalLovelace: 2_000_000n,
    withdrawalFeeLovelace: 1_000_000n,
    withdrawalFeeFromPayout: true,
    orderTtlSeconds: 300,
    fundsTtlSeconds: 7200,
    addresses: {},
    l1Fee: PUBLISHED_L1_FEE,
  };
};

/** What the sandbox publishes about itself (`/sandbox/network`), as the app's rules. */
export const sandboxRules = (profile: SandboxNetwork): ExchangeRules => ({
  markets: profile.markets.map((m) => ({
    ...m,
    minOrderAdaEquivalent: profile.minOrderAdaEquivalent,
    commissionRateBp: profile.commissionRateBp,
  })),
  assets: profile.assets.map((a) => ({ unit: a.unit, name: a.name, decimals: a.decimals })),
  commissionRateBp: profile.commissionRateBp,
  maxOpenOrders: profile.maxOpenOrders,
  priceBandBp: profile.priceBandBp,
  minOrderAdaEquivalent: profile.minOrderAdaEquivalent,
  minDepositLovelace: profile.minDepositLovelace,
  minWithdrawalLovelace: profile.minWithdrawalLovelace,
  withdrawalFeeLovelace: profile.withdrawalFeeLovelace,
  withdrawalFeeFromPayout: false,
  orderTtlSeconds: profile.orderTtlSeconds,
  fundsTtlSeconds: profile.fundsTtlSeconds,
  addresses: {
    ...(profile.addresses['intent'] ? { intent: profile.addresses['intent'] } : {}),
    ...(profile.addresses['deposit'] ? { deposit: profile.addresses['deposit'] } : {}),
    ...(profile.addresses['treasury'] ? { treasury: profile.addresses['treasury'] } : {}),
  },
  l1Fee: { a: BigInt(profile.l1Fee.minFeeA), b: BigInt(profile.l1Fee.minFeeB) },
});

export const marketOf = (rules: ExchangeRules, symbol: string): Market | undefined =>
  rules.markets.find((m) => m.symbol === symbol);

/**
 * A quantity and price of a market in the trader's words: "20 ADA at 0.9 USDM"; a market the
 * rules do not know keeps the exchange's symbol ("20 ADAUSDM at 0.9").
 */
export const inUnits = (
  market: Market | undefined,
  symbol: string,
  quantity: string,
  price: string | null,
): string =>
  market
    ? `${quantity} ${market.base}${price ? ` at ${price} ${market.quote}` : ''}`
    : `${quantity} ${symbol}${price ? ` at ${price}` : ''}`;

/**
 * An order's price as the market's book and tables show it: with at least the market's price
 * decimals ("0.9" reads "0.9000", as the fills of it will), never rounded.
 */
export const shownPrice = (market: Market | undefined, price: Money): string =>
  price.toFixed(Math.max(price.decimalPlaces(), market?.priceDecimals ?? 0));

export const assetOf = (rules: ExchangeRules, unit: string): AssetInfo =>
  rules.assets.find((a) => a.unit === unit) ?? { unit, name: unit.slice(0, 12), decimals: 0 };
