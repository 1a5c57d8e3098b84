import { z } from 'zod';
import type { FillSummary, OrderRow, OrderSummary } from '../../../../src-shared/contract';
import {
  AmountText,
  FINISHED_STATUSES,
  OrderStatus,
  OrderType,
  Role,
  Side,
  Timestamp,
  type Market,
  type OrderView,
} from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { Money } from '../../../../src-shared/money';
import { dateTime, fixed, NONE, pairLabel } from '../trade';

/**
 * One row of a list as main sends it: an order, or (trading history) one fill of an order, with
 * the fields its line shows.
 */
export type WireRow = Serialized<OrderRow>;

/**
 * What a table row shows of an order, checked as text: amounts stay the exact strings they
 * crossed as (no decimal is made for a row a trader scrolls past). The same fields as main sends.
 */
const OrderCells = z.object({
  id: z.string(),
  symbol: z.string(),
  side: Side,
  type: OrderType,
  status: OrderStatus,
  createdAt: Timestamp,
  price: AmountText.nullable(),
  baseQty: AmountText,
  executedBaseQty: AmountText,
  executedPrice: AmountText.nullable(),
  commission: AmountText,
  commissionUnit: z.string(),
} satisfies Record<keyof OrderSummary, z.ZodType>);

const FillCells = z.object({
  id: z.string(),
  createdAt: Timestamp,
  price: AmountText,
  baseQty: AmountText,
  quoteQty: AmountText,
  commission: AmountText,
  commissionUnit: z.string(),
  role: Role,
} satisfies Record<keyof FillSummary, z.ZodType>);

/** An order as one line of the table: every cell's text. */
export interface OrderLine {
  kind: 'order';
  time: string;
  market: string;
  side: Side;
  type: string;
  price: string;
  amount: string;
  filled: string;
  average: string;
  fee: string;
  feeAsset: string;
  status: OrderStatus;
}

/** A fill as one line of the trading history. */
export interface FillLine {
  kind: 'fill';
  time: string;
  market: string;
  side: Side;
  price: string;
  amount: string;
  value: string;
  fee: string;
  feeAsset: string;
  role: string;
}

/** A record that does not read as one: the row says which, and no guesses. */
export interface UnreadableLine {
  kind: 'unreadable';
  text: string;
}

export type Line = OrderLine | FillLine | UnreadableLine;

const lines = new WeakMap<WireRow, { markets: readonly Market[]; line: Line }>();

/**
 * A row as the table shows it, worked out once per row (and again only when the markets, which
 * give the decimals and asset names, change): scrolling back over a row costs nothing.
 */
export const lineOf = (row: WireRow, markets: readonly Market[]): Line => {
  const known = lines.get(row);
  if (known && known.markets === markets) return known.line;
  const line = row.execution ? fillLine(row, markets) : orderLine(row.order, markets);
  lines.set(row, { markets, line });
  return line;
};

const orderLine = (wire: WireRow['order'], markets: readonly Market[]): Line => {
  const read = OrderCells.safeParse(wire);
  if (!read.success) {
    return { kind: 'unreadable', text: `Order ${wire.id}: this record could not be read.` };
  }
  const order = read.data;
  const market = markets.find((m) => m.symbol === order.symbol);
  const pd = market?.priceDecimals ?? 4;
  const qd = market?.quantityDecimals ?? 4;
  const base = new Money(order.baseQty);
  return {
    kind: 'order',
    time: dateTime(order.createdAt),
    market: pairLabel(order.symbol, markets),
    side: order.side,
    type: order.type === 'limit' ? 'Limit' : 'Market',
    price: fixed(order.price, pd),
    amount: fixed(order.baseQty, qd, { group: true }),
    filled: base.isZero()
      ? NONE
      : `${new Money(order.executedBaseQty).div(base).times(100).toFixed(0)}%`,
    average: fixed(order.executedPrice, pd),
    fee: fixed(order.commission, 6),
    feeAsset: feeAssetOf(market, order.side, order.commissionUnit),
    status: order.status,
  };
};

const fillLine = (row: WireRow, markets: readonly Market[]): Line => {
  const order = OrderCells.safeParse(row.order);
  const fill = FillCells.safeParse(row.execution);
  if (!order.success || !fill.success) {
    return {
      kind: 'unreadable',
      text: `Fill ${row.execution?.id ?? row.key}: this record could not be read.`,
    };
  }
  const { symbol, side } = order.data;
  const market = markets.find((m) => m.symbol === symbol);
  const pd = market?.priceDecimals ?? 4;
  const qd = market?.quantityDecimals ?? 4;
  return {
    kind: 'fill',
    time: dateTime(fill.data.createdAt),
    market: pairLabel(symbol, markets),
    side,
    price: fixed(fill.data.price, pd),
    amount: fixed(fill.data.baseQty, qd, { group: true }),
    value: fixed(fill.data.quoteQty, pd, { group: true }),
    fee: fixed(fill.data.commission, 6),
    feeAsset: feeAssetOf(market, side, fill.data.commissionUnit),
    role: fill.data.role === 'maker' ? 'Maker' : 'Taker',
  };
};

/** The fee is paid in what the trader receives: the base asset on a buy, the quote on a sell. */
const feeAssetOf = (market: Market | undefined, side: Side, unit: string): string =>
  market ? (side === 'buy' ? market.base : market.quote) : unit;

/** Which statuses a view can hold, for its status filter. */
export const STATUSES_OF: Readonly<Record<OrderView, readonly OrderStatus[]>> = {
  open: ['open', 'partially_filled', 'processing', 'building'],
  history: FINISHED_STATUSES,
  trades: [],
};

export const VIEW_TEXT: Readonly<Record<OrderView, string>> = {
  open: 'Open orders',
  history: 'Order history',
  trades: 'Trading history',
};

/** The id of the table's row element at `index` of the list (for `aria-activedescendant`). */
export const rowId = (index: number): string => `orders-row-${index}`;
