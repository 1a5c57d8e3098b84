import type { Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { fixed, trimmed } from '../trade/format';

/** What a fill's sentence needs of its market: names and the precision its tables show. */
export interface FillMarket {
  symbol: string;
  base: string;
  quote: string;
  priceDecimals: number;
  quantityDecimals: number;
}

/**
 * One of the trader's orders traded: a toast's title and sentence, in the order's own words when
 * its market is known ("Bought 1,250 ADA at 0.6520 USDM", the price as the book and the tables
 * show it), else with the exchange's symbol and its numbers as sent.
 */
export const describeFill = (
  fill: { order: Serialized<Order>; executionId: string },
  markets: readonly FillMarket[] = [],
): { title: string; detail: string } => {
  const { order } = fill;
  const execution = order.executions.find((e) => e.id === fill.executionId);
  const verb = order.side === 'buy' ? 'Bought' : 'Sold';
  const title = order.status === 'fully_filled' ? 'Order filled' : 'Order partly filled';
  const market = markets.find((m) => m.symbol === order.symbol);
  const quantity = execution?.baseQty ?? order.executedBaseQty;
  if (!market) {
    return {
      title,
      detail: `${verb} ${quantity}${execution ? ` at ${execution.price}` : ''} on ${order.symbol}`,
    };
  }
  const amount = trimmed(quantity, market.quantityDecimals);
  const price = execution
    ? ` at ${fixed(execution.price, market.priceDecimals)} ${market.quote}`
    : '';
  return { title, detail: `${verb} ${amount} ${market.base}${price}` };
};
