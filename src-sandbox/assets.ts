import Decimal from 'decimal.js';

/** One asset the sandbox knows: its wire name, its on-chain unit and its decimals. */
export interface Asset {
  /** Name in balances and order records, e.g. `ADA`. */
  readonly name: string;
  /** On-chain unit: `lovelace` for ADA, otherwise policy id + asset name in hex. */
  readonly unit: string;
  /** `asset_unit` in balance entries: empty for ADA, the hex unit otherwise. */
  readonly balanceUnit: string;
  readonly decimals: number;
}

export const ADA: Asset = { name: 'ADA', unit: 'lovelace', balanceUnit: '', decimals: 6 };
export const USDM: Asset = {
  name: 'USDM',
  unit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
  balanceUnit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
  decimals: 6,
};
/** Testnet NIGHT as the sandbox mints it (the real testnet unit is not published). */
export const NIGHT: Asset = {
  name: 'NIGHT',
  unit: '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854',
  balanceUnit: '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854',
  decimals: 6,
};

export const ASSETS: readonly Asset[] = [ADA, USDM, NIGHT];

export function assetByUnit(unit: string): Asset | undefined {
  return ASSETS.find((a) => a.unit === unit);
}

/** A trading pair: prices are quote per base, both with `priceDecimals` places. */
export interface Market {
  readonly symbol: string;
  readonly base: Asset;
  readonly quote: Asset;
  readonly priceDecimals: number;
  readonly quantityDecimals: number;
  /** Starting reference price of the market maker, in quote per base. */
  readonly referencePrice: string;
}

export const MARKETS: readonly Market[] = [
  {
    symbol: 'ADAUSDM',
    base: ADA,
    quote: USDM,
    priceDecimals: 4,
    quantityDecimals: 4,
    referencePrice: '0.6500',
  },
  {
    symbol: 'NIGHTUSDM',
    base: NIGHT,
    quote: USDM,
    priceDecimals: 4,
    quantityDecimals: 4,
    referencePrice: '0.0500',
  },
];

export function marketBySymbol(symbol: string): Market | undefined {
  return MARKETS.find((m) => m.symbol === symbol);
}

/** Price ticks per unit of quote: prices are kept as integer ticks of 10^-priceDecimals. */
export const PRICE_SCALE = 10_000n;

const TEN = new Decimal(10);

/** Human amount (decimal string or Decimal) to integer smallest units; throws if not exact. */
export function toUnits(human: Decimal.Value, decimals: number): bigint {
  const scaled = new Decimal(human).mul(TEN.pow(decimals));
  if (!scaled.isInteger())
    throw new RangeError(`${String(human)} has more than ${decimals} decimals`);
  return BigInt(scaled.toFixed(0));
}

/** Integer smallest units to a plain decimal string without trailing zeros (exact). */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return (negative ? '-' : '') + (fraction ? `${whole}.${fraction}` : whole);
}

/** Price ticks to a plain decimal string. */
export function priceToString(ticks: bigint): string {
  return fromUnits(ticks, 4);
}

export function decimalPlaces(value: number | string): number {
  return new Decimal(value).decimalPlaces();
}
