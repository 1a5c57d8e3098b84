import { SvelteSet } from 'svelte/reactivity';
import type { Api } from '../../../../src-shared/contract';
import { FINISHED_STATUSES, type Order } from '../../../../src-shared/domain';
import { messageOf, unwrap } from '../api';
import type { RunOperation } from '../operations/context';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/**
 * Cancelling the trader's orders: one through the operation runner (confirmation, signing,
 * progress and outcome are its job), or every open order of a market at once. Where orders may
 * skip the confirmation dialog (the trader's setting, on the sandbox only), "cancel all" is one
 * call to main's `trading:cancelAll`, which checks each cancel before it signs it and whose
 * outcome is reported here, order by order when some fail. Elsewhere each cancel goes through
 * the runner in turn, each shown in the dialog before it is signed.
 */
export class OrderActions {
  /** Orders with a cancel under way: their buttons wait. */
  readonly cancelling = new SvelteSet<string>();
  cancellingAll = $state(false);
  notice = $state.raw<Notice | null>(null);

  constructor(
    private readonly api: Api,
    private readonly run: RunOperation | null,
    /** Whether orders may go without the dialog now (see `mayPlaceOrdersWithoutDialog`). */
    private readonly ordersSkipDialog: () => boolean = () => false,
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

  /**
   * Cancels every open order of a market: `orders` are those the trader was shown and agreed to
   * cancel (the dialog path cancels exactly those; main's path asks the exchange for them all).
   */
  async cancelAll(
    symbol: string,
    pairName: string,
    orders: readonly Pick<Order, 'id'>[],
  ): Promise<void> {
    if (this.cancellingAll) return;
    this.cancellingAll = true;
    this.notice = null;
    try {
      if (this.ordersSkipDialog()) await this.#cancelAllInMain(symbol, pairName);
      else await this.#cancelEachInDialog(orders, pairName);
    } catch (error) {
      this.notice = { kind: 'error', text: messageOf(error) };
    } finally {
      this.cancellingAll = false;
    }
  }

  async #cancelAllInMain(symbol: string, pairName: string): Promise<void> {
    const result = await unwrap(this.api.trading.cancelAll({ symbol }));
    const done = result.cancelled.length;
    if (result.failed.length === 0) {
      this.notice = {
        kind: 'success',
        text: cancelledText(done, pairName),
      };
    } else {
      const reasons = result.failed.map((f) => `${f.orderId.slice(0, 8)}: ${f.message}`);
      this.notice = {
        kind: 'error',
        text: `Cancelled ${done}, ${result.failed.length} could not be cancelled (${reasons.join('; ')}). Try those again one by one.`,
      };
    }
  }

  /**
   * One cancel after another, each through the dialog. A cancel that did not go through stops
   * the rest when its order is still open (the trader turned it down, or the exchange could not
   * take it: the runner has said why), and they stay open, as the notice says. An order that
   * filled or was cancelled meanwhile needs no cancel: the rest go on.
   */
  async #cancelEachInDialog(orders: readonly Pick<Order, 'id'>[], pairName: string): Promise<void> {
    if (!this.run) {
      this.notice = { kind: 'error', text: NO_RUNNER };
      return;
    }
    let done = 0;
    let gone = 0;
    for (const order of orders) {
      // One the trader is already cancelling by itself is left to that cancel.
      if (this.cancelling.has(order.id)) continue;
      if (await this.cancel(order)) {
        done += 1;
        continue;
      }
      if (await this.#closed(order.id)) {
        gone += 1;
        continue;
      }
      const left = orders.length - done - gone;
      this.notice = {
        kind: 'error',
        text: `${done === 0 ? 'Nothing was cancelled' : `Cancelled ${done} of ${orders.length}`}: a cancel was turned down or did not go through, so Countersign stopped there. ${left} of your orders on ${pairName} ${left === 1 ? 'is' : 'are'} still open; cancel ${left === 1 ? 'it' : 'them'} again when you are ready.`,
      };
      return;
    }
    this.notice = {
      kind: 'success',
      text: gone === 0 ? cancelledText(done, pairName) : finishedText(done, gone, pairName),
    };
  }

  /** Whether main reads the order as finished (filled, cancelled, failed): false when unsure. */
  async #closed(orderId: string): Promise<boolean> {
    try {
      const { status } = await unwrap(this.api.orders.get({ orderId }));
      return FINISHED_STATUSES.includes(status);
    } catch {
      return false;
    }
  }

  dismiss(): void {
    this.notice = null;
  }
}

/** What a cancel all that went through says. */
const cancelledText = (done: number, pairName: string): string =>
  done === 0
    ? `No open orders on ${pairName} to cancel.`
    : `Cancelled ${done} open order${done === 1 ? '' : 's'} on ${pairName}.`;

/** What a cancel all says when some of its orders had finished before their cancel. */
const finishedText = (done: number, gone: number, pairName: string): string => {
  const had = 'had already filled or closed';
  return done === 0
    ? `No cancel was needed on ${pairName}: ${gone === 1 ? 'the order' : `the ${gone} orders`} ${had}.`
    : `Cancelled ${done} open order${done === 1 ? '' : 's'} on ${pairName}; ${gone} more ${had}, so ${gone === 1 ? 'it needed' : 'they needed'} no cancel.`;
};

export const NO_RUNNER =
  'Countersign cannot sign anything from this window: restart the app. Nothing was sent.';
