import { z } from 'zod';
import { operation } from './define';
import { DecimalText, MarketSymbol, Side } from '../domain';
import type { PreparedOperation } from './operations';

/** What the trader asked for in the order form, in human units as typed. */
export const OrderRequest = z
  .object({
    symbol: MarketSymbol,
    side: Side,
    type: z.enum(['limit', 'market']),
    /** Base asset quantity (ADA for ADAUSDM). */
    quantity: DecimalText,
    /** Limit price, quote per base: limit orders only. */
    price: DecimalText.optional(),
    /** A market order's slippage limit in basis points (0..10000); none: any price. */
    slippageBp: z.number().int().min(0).max(10_000).optional(),
    postOnly: z.boolean().optional(),
    /**
     * A market order with a slippage limit: the worst price the trader saw in the preview
     * (`OrderPreview.worstPrice`). The order is never signed with a worse limit, even if the
     * market moved before it was built.
     */
    worstPrice: DecimalText.optional(),
  })
  .superRefine((order, ctx) => {
    if (order.type === 'limit' && order.price === undefined) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'a limit order needs a price' });
    }
    if (order.type === 'market' && order.price !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'a market order has no price' });
    }
    if (order.type === 'market' && order.postOnly) {
      ctx.addIssue({
        code: 'custom',
        path: ['postOnly'],
        message: 'post-only is for limit orders',
      });
    }
    if (order.worstPrice !== undefined && order.slippageBp === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['worstPrice'],
        message: 'a worst price goes with a market order’s slippage limit',
      });
    }
    if (order.type === 'limit' && order.slippageBp !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['slippageBp'],
        message: 'slippage is for market orders',
      });
    }
  });
export type OrderRequest = z.output<typeof OrderRequest>;

/** What the pre-trade checks found, before anything is built. */
export interface OrderPreview {
  /** What the order locks: the quote for a buy, the base for a sell (human units, decimal text). */
  lock: { asset: string; amount: string };
  /** The trading fee at the published rate, in the asset received. */
  fee: { asset: string; amount: string };
  /** Free balance of the locked asset now. */
  free: { asset: string; amount: string };
  /** Value of the order in the quote asset. */
  value: { asset: string; amount: string };
  /**
   * A market order with a slippage limit: the worst price it may fill at (quote per base), from
   * the best price on the book now. Null for limit orders and market orders without a limit.
   */
  worstPrice: { asset: string; amount: string } | null;
  /** Every reason it would be refused (empty when it may be sent). */
  problems: string[];
}

export interface CancelAllResult {
  cancelled: string[];
  failed: Array<{ orderId: string; message: string }>;
}

const orderId = z.string().min(1).max(100);

export const trading = {
  /** Pre-trade checks only (precision, minimum, balance, price band, the trader's limits). */
  preview: operation<OrderPreview>().request(OrderRequest),
  /** Checks, builds and inspects an order; confirm it with `operations:confirm`. */
  prepareOrder: operation<PreparedOperation>().request(OrderRequest),
  prepareCancel: operation<PreparedOperation>().request(z.object({ orderId })),
  /** Cancels every open order of a market: each cancel checked and signed with the trading key. */
  cancelAll: operation<CancelAllResult>().request(z.object({ symbol: MarketSymbol })),
} as const;
