import { z } from 'zod';
import { KNOWN_ASSETS, LOVELACE, type AssetInfo } from '../../../src-shared/assets';
import type { Market } from '../../../src-shared/domain';
import { Money } from '../../../src-shared/money';
import type { NetworkChoice } from '../../../src-shared/network';

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
  orderTtlSeconds: number;
  fundsTtlSeconds: number;
  addresses: { order?: string; deposit?: string; treasury?: string };
  /** L1 fee parameters, to show a deposit's fee before it is built. */
  l1Fee: { a: bigint; b: bigint } | null;
}

const ADA_UNIT_DECIMALS = 6;
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
    orderTtlSeconds: 300,
    fundsTtlSeconds: 7200,
    addresses: {},
    l1Fee: { a: 44n, b: 155_381n },
  };
};

/** `GET /sandbox/network`: everything the sandbox publishes about itself. */
export const SandboxNetworkProfile = z.object({
  network_id: z.union([z.literal(0), z.literal(1)]),
  assets: z.array(
    z.object({ asset: z.string(), unit: z.string(), decimals: z.number().int().min(0).max(18) }),
  ),
  markets: z.array(
    z.object({
      symbol: z.string(),
      base: z.string(),
      quote: z.string(),
      base_unit: z.string(),
      quote_unit: z.string(),
      price_decimals: z.number().int().min(0).max(18),
      quantity_decimals: z.number().int().min(0).max(18),
    }),
  ),
  commission_rate_bp: z.number().int().min(0).max(10_000),
  max_open_orders: z.number().int().positive(),
  price_band_bp: z.number().int().positive(),
  min_order_ada_equivalent: z.union([z.string(), z.number()]),
  min_deposit_lovelace: z.string().regex(/^\d+$/),
  min_withdrawal_lovelace: z.string().regex(/^\d+$/),
  withdrawal_fee_lovelace: z.string().regex(/^\d+$/),
  l1_fee: z.object({ min_fee_a: z.number().int(), min_fee_b: z.number().int() }),
  order_ttl_seconds: z.number().positive(),
  funds_ttl_seconds: z.number().positive(),
  addresses: z.object({ order: z.string(), deposit: z.string(), treasury: z.string() }),
});
export type SandboxNetworkProfile = z.infer<typeof SandboxNetworkProfile>;

export const sandboxRules = (profile: SandboxNetworkProfile): ExchangeRules => {
  const minOrder = new Money(String(profile.min_order_ada_equivalent));
  return {
    markets: profile.markets.map((m) => ({
      symbol: m.symbol,
      base: m.base,
      quote: m.quote,
      baseUnit: m.base_unit,
      quoteUnit: m.quote_unit,
      priceDecimals: m.price_decimals,
      quantityDecimals: m.quantity_decimals,
      minOrderAdaEquivalent: minOrder,
      commissionRateBp: profile.commission_rate_bp,
    })),
    assets: profile.assets.map((a) => ({ unit: a.unit, name: a.asset, decimals: a.decimals })),
    commissionRateBp: profile.commission_rate_bp,
    maxOpenOrders: profile.max_open_orders,
    priceBandBp: profile.price_band_bp,
    minOrderAdaEquivalent: minOrder,
    minDepositLovelace: BigInt(profile.min_deposit_lovelace),
    minWithdrawalLovelace: BigInt(profile.min_withdrawal_lovelace),
    withdrawalFeeLovelace: BigInt(profile.withdrawal_fee_lovelace),
    orderTtlSeconds: profile.order_ttl_seconds,
    fundsTtlSeconds: profile.funds_ttl_seconds,
    addresses: profile.addresses,
    l1Fee: { a: BigInt(profile.l1_fee.min_fee_a), b: BigInt(profile.l1_fee.min_fee_b) },
  };
};

export const marketOf = (rules: ExchangeRules, symbol: string): Market | undefined =>
  rules.markets.find((m) => m.symbol === symbol);

export const assetOf = (rules: ExchangeRules, unit: string): AssetInfo =>
  rules.assets.find((a) => a.unit === unit) ?? { unit, name: unit.slice(0, 12), decimals: 0 };
