import type { Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';

/** One of the trader's orders traded: a toast's title and sentence. */
export const describeFill = (fill: {
  order: Serialized<Order>;
  executionId: string;
}): { title: string; detail: string } => {
  const { order } = fill;
  const execution = order.executions.find((e) => e.id === fill.executionId);
  const verb = order.side === 'buy' ? 'Bought' : 'Sold';
  const title = order.status === 'fully_filled' ? 'Order filled' : 'Order partly filled';
  const detail = execution
    ? `${verb} ${execution.baseQty} at ${execution.price} on ${order.symbol}`
    : `${verb} ${order.executedBaseQty} on ${order.symbol}`;
  return { title, detail };
};
