import type { Cardano } from '@cardano-sdk/core';

/**
 * What an order says about itself in the datum locked with its funds. Two orders can lock the same
 * amount and still be different trades (a sell at 0.50 or at 0.0001), so for an exchange that
 * publishes its datum layout, the terms are checked, not only the amount.
 */
export interface OrderTerms {
  orderId: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  /** Price in ticks of the quote's price precision (10^-4); for a market order its limit, or 0. */
  priceTicks: bigint;
  /** Base quantity in smallest units. */
  quantityUnits: bigint;
  slippageBp: bigint;
}

export interface OrderDatum extends OrderTerms {
  accountId: string;
  operationKeyHash: string;
}

/** Datum layouts the app can read; an exchange profile names the one its exchange publishes. */
export type OrderDatumLayout = 'countersign-sandbox-v1';

type Constr = Cardano.ConstrPlutusData;

const isConstr = (d: Cardano.PlutusData | undefined): d is Constr =>
  typeof d === 'object' && d !== null && 'constructor' in d && 'fields' in d;

const bytesOf = (d: Cardano.PlutusData | undefined, length: number): string | null =>
  d instanceof Uint8Array && d.length === length ? Buffer.from(d).toString('hex') : null;

const intOf = (d: Cardano.PlutusData | undefined): bigint | null =>
  typeof d === 'bigint' ? d : null;

const uuid = (hex: string): string =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** A nullary constructor picking one of two names by its index, or null. */
const choice = <A extends string, B extends string>(
  d: Cardano.PlutusData | undefined,
  first: A,
  second: B,
): A | B | null => {
  if (!isConstr(d) || d.fields.items.length !== 0) return null;
  return d.constructor === 0n ? first : d.constructor === 1n ? second : null;
};

/**
 * The sandbox's layout (src-sandbox/README.md): `Constr 0 [order_id bytes16, account_id bytes16,
 * side Constr(0 buy | 1 sell), type Constr(0 limit | 1 market), price ticks, base quantity,
 * slippage bp, operation key hash bytes28]`. Anything else reads as null.
 */
export const readOrderDatum = (
  datum: Cardano.PlutusData,
  _layout: OrderDatumLayout,
): OrderDatum | null => {
  if (!isConstr(datum) || datum.constructor !== 0n || datum.fields.items.length !== 8) return null;
  const [orderId, accountId, side, type, price, quantity, slippage, keyHash] = datum.fields.items;
  const order = bytesOf(orderId, 16);
  const account = bytesOf(accountId, 16);
  const sideName = choice(side, 'buy', 'sell');
  const typeName = choice(type, 'limit', 'market');
  const priceTicks = intOf(price);
  const quantityUnits = intOf(quantity);
  const slippageBp = intOf(slippage);
  const operationKeyHash = bytesOf(keyHash, 28);
  if (order === null || account === null || sideName === null || typeName === null) return null;
  if (priceTicks === null || quantityUnits === null || slippageBp === null) return null;
  if (operationKeyHash === null) return null;
  return {
    orderId: uuid(order),
    accountId: uuid(account),
    side: sideName,
    type: typeName,
    priceTicks,
    quantityUnits,
    slippageBp,
    operationKeyHash,
  };
};
