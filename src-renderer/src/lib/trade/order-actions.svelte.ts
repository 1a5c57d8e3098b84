import { SvelteSet } from 'svelte/reactivity';
import type { Api } from '../../../../src-shared/contract';
import type { Order } from '../../../../src-shared/domain';
import { messageOf, unwrap } from '../api';
import type { RunOperation } from '../operations/context';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/**
 * Cancelling the trader's orders: one through the operation runner (confirmation, signing,
 * progress and outcome are its job), or every open order of a market at once through main's
 * `trading:cancelAll`, whose outcome is reported here, order by order when some fail.
 */
export class OrderActions {
  /** Orders with a cancel under way: their buttons wait. */
  readonly cancelling = new SvelteSet<string>();
  cancellingAll = $state(false);
  notice = $state.raw<Notice | null>(null);

  constructor(
    private readonly api: Api,
    private readonly run: RunOperation | null,
  ) {}

  async cancel(order: Pick<Order, 'id'>): Promise<boolean> {
    if (!this.run) {
      this.notice = { kind: 'error', text: NO_RUNNER };
      return false;
    }
    if (this.cancelling.has(order.id)) return false;
    this.cancelling.add(order.id);
    try {
      const result = await this.run(() => this.api.trading.prepareCancel({ orderId: order.id }));
      return result !== null;
    } finally {
      this.cancelling.delete(order.id);
    }
  }

  async cancelAll(symbol: string, pairName: string): Promise<void> {
    if (this.cancellingAll) return;
    this.cancellingAll = true;
    this.notice = null;
    try {
      const result = await unwrap(this.api.trading.cancelAll({ symbol }));
      const done = result.cancelled.length;
      if (result.failed.length === 0) {
        this.notice = {
          kind: 'success',
          text:
            done === 0
              ? `No open orders on ${pairName} to cancel.`
              : `Cancelled ${done} open order${done === 1 ? '' : 's'} on ${pairName}.`,
        };
      } else {
        const reasons = result.failed.map((f) => `${f.orderId.slice(0, 8)}: ${f.message}`);
        this.notice = {
          kind: 'error',
          text: `Cancelled ${done}, ${result.failed.length} could not be cancelled (${reasons.join('; ')}). Try those again one by one.`,
        };
      }
    } catch (error) {
      this.notice = { kind: 'error', text: messageOf(error) };
    } finally {
      this.cancellingAll = false;
    }
  }

  dismiss(): void {
    this.notice = null;
  }
}

export const NO_RUNNER =
  'Countersign cannot sign anything from this window: restart the app. Nothing was sent.';
