import type { Order } from '../../../src-shared/domain';

/**
 * A CSV cell: quoted when it must be, and never read as a formula by a spreadsheet (a value that
 * starts with = + - @ or a control character is prefixed with a quote), since ids and names
 * come from the exchange.
 */
export const csvCell = (value: string | number | null): string => {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const row = (cells: ReadonlyArray<string | number | null>): string => cells.map(csvCell).join(',');

const money = (value: { toFixed(): string } | null): string | null =>
  value === null ? null : value.toFixed();

export const ORDER_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'symbol',
  'side',
  'type',
  'status',
  'price',
  'base_qty',
  'quote_qty',
  'executed_base_qty',
  'executed_quote_qty',
  'executed_price',
  'open_base_qty',
  'slippage_bp',
  'commission',
  'commission_unit',
  'active_order_utxo_id',
] as const;

export const ordersCsv = (orders: readonly Order[]): string =>
  [
    row(ORDER_COLUMNS),
    ...orders.map((o) =>
      row([
        o.id,
        o.createdAt,
        o.updatedAt,
        o.symbol,
        o.side,
        o.type,
        o.status,
        money(o.price),
        money(o.baseQty),
        money(o.quoteQty),
        money(o.executedBaseQty),
        money(o.executedQuoteQty),
        money(o.executedPrice),
        money(o.openBaseQty),
        o.slippageBp,
        money(o.commission),
        o.commissionUnit,
        o.activeOrderUtxoId,
      ]),
    ),
  ].join('\r\n') + '\r\n';

export const FILL_COLUMNS = [
  'execution_id',
  'order_id',
  'created_at',
  'symbol',
  'side',
  'role',
  'price',
  'base_qty',
  'quote_qty',
  'commission',
  'commission_unit',
  'counter_party_order_id',
] as const;

export const fillsCsv = (orders: readonly Order[]): string =>
  [
    row(FILL_COLUMNS),
    ...orders.flatMap((o) =>
      o.executions.map((e) =>
        row([
          e.id,
          e.orderId,
          e.createdAt,
          o.symbol,
          o.side,
          e.role,
          money(e.price),
          money(e.baseQty),
          money(e.quoteQty),
          money(e.commission),
          e.commissionUnit,
          e.counterPartyOrderId,
        ]),
      ),
    ),
  ].join('\r\n') + '\r\n';
