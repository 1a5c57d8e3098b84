import { ASSETS, fromUnits, priceToString, type Market } from './assets.js';
import type { Exchange } from './exchange.js';
import type { L1Utxo } from './l1-ledger.js';
import type { Execution, Order } from './orders.js';

const iso = (ms: number) => new Date(ms).toISOString();

function baseString(market: Market, units: bigint): string {
  return fromUnits(units, market.base.decimals);
}

function quoteString(market: Market, units: bigint): string {
  return fromUnits(units, market.quote.decimals);
}

/** Average fill price, quote per base, to 8 places, exact integer arithmetic. */
function averagePrice(market: Market, baseUnits: bigint, quoteUnits: bigint): string {
  if (baseUnits === 0n) return '0';
  const scale = 10n ** 8n;
  const ratio =
    (quoteUnits * 10n ** BigInt(market.base.decimals) * scale) /
    (baseUnits * 10n ** BigInt(market.quote.decimals));
  return fromUnits(ratio, 8);
}

export function executionRecord(order: Order, e: Execution) {
  const commissionDecimals =
    e.commissionUnit === order.market.base.unit
      ? order.market.base.decimals
      : order.market.quote.decimals;
  return {
    id: e.id,
    order_id: e.orderId,
    account_id: e.accountId,
    counter_party_order_id: e.counterPartyOrderId,
    execution_price: priceToString(e.priceTicks),
    filled_base_qty: baseString(order.market, e.baseUnits),
    filled_quote_qty: quoteString(order.market, e.quoteUnits),
    commission: fromUnits(e.commission, commissionDecimals),
    commission_unit: e.commissionUnit,
    role: e.role,
    created_at: iso(e.at),
  };
}

export type ExecutionRecord = ReturnType<typeof executionRecord>;

/** An order record with every field of the seed's 2.1, in human units. */
export function orderRecord(order: Order) {
  const m = order.market;
  const received = order.side === 'buy' ? m.base : m.quote;
  return {
    id: order.id,
    account_id: order.accountId,
    symbol: m.symbol,
    side: order.side,
    type: order.type,
    status: order.status,
    price: priceToString(order.priceTicks),
    base_qty: baseString(m, order.quantity),
    quote_qty: quoteString(m, order.quoteQuantity),
    locked_base_qty: baseString(m, order.lockedBase),
    locked_quote_qty: quoteString(m, order.lockedQuote),
    executed_base_qty: baseString(m, order.executedBase),
    executed_quote_qty: quoteString(m, order.executedQuote),
    executed_price: averagePrice(m, order.executedBase, order.executedQuote),
    ob_open_order_base_qty: baseString(m, order.resting ? order.remaining : 0n),
    market_order_limit_price:
      order.marketLimitTicks === null ? '0' : priceToString(order.marketLimitTicks),
    slippage_bp: order.slippageBp,
    commission: fromUnits(order.commission, received.decimals),
    commission_rate_bp: order.commissionRateBp,
    commission_unit: received.unit,
    active_order_utxo_id: order.utxoId,
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
    order_execution_records: order.executions.map((e) => executionRecord(order, e)),
  };
}

export type OrderRecord = ReturnType<typeof orderRecord>;

/** Balance entries (seed 2.3): every asset, `free` and `locked` as numbers in human units. */
export function balanceEntries(exchange: Exchange, accountId: string) {
  return ASSETS.map((asset) => {
    const b = exchange.engine.balance(accountId, asset.unit);
    return {
      asset: asset.name,
      asset_unit: asset.balanceUnit,
      free: Number(fromUnits(b.free, asset.decimals)),
      locked: Number(fromUnits(b.locked, asset.decimals)),
    };
  });
}

/** A UTxO in the seed's 2.5 input-UTxO shape, ready for a deposit build. */
export function inputUtxo(utxo: L1Utxo) {
  return {
    input: { tx_hash: utxo.txHash, output_index: utxo.index },
    output: {
      address: utxo.address,
      amount: [...utxo.amounts].map(([unit, q]) => ({ unit, quantity: q.toString() })),
      data_hash: null,
      plutus_data: null,
      script_ref: null,
      script_hash: null,
    },
  };
}
