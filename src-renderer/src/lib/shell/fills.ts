import type { Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';

/**
 * One of the trader's orders traded: a toast's title and sentence, in the order's own words when
 * its market is known ("Bought 5 ADA at 0.6509 USDM"), else with the exchange's symbol.
 */
export const describeFill = (
  fill: { order: Serialized<Order>; executionId: string },
  markets: ReadonlyArray<{ symbol: string; base: string; quote: string }> = [],
): { title: string; detail: string } => {
  const { order } = fill;
  const execution = order.executions.find((e) => e.id === fill.executionId);
  const verb = order.side === 'buy' ? 'Bought' : 'Sold';
  const title = order.status === 'fully_filled' ? 'Order filled' : 'Order partly filled';
  const market = markets.find((m) => m.symbol === order.symbol);
  const quantity = execution?.baseQty ?? order.executedBaseQty;
  const detail = market
    ? `${verb} ${quantity} ${market.base}${execution ? ` at ${execution.price} ${market.quote}` : ''}`
    : `${verb} ${quantity}${execution ? ` at ${execution.price}` : ''} on ${order.symbol}`;
  return { title, detail };
};
