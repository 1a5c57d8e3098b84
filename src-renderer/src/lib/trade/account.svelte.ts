import type Decimal from 'decimal.js';
import type { Api } from '../../../../src-shared/contract';
import {
  Balance,
  Order,
  type Balance as BalanceT,
  type Order as OrderT,
} from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { messageOf, unwrap } from '../api';
import { fillsOf, mergeFills, type OwnFill } from './fills';

export type { OwnFill } from './fills';

const parseOrders = (orders: readonly unknown[]): OrderT[] =>
  orders.flatMap((o) => {
    const parsed = Order.safeParse(o);
    return parsed.success ? [parsed.data] : [];
  });

/**
 * The trader's side of the Trade screen: balances, open orders and own fills, each loaded once and
 * then kept current by main's events. A part main cannot answer yet leaves its own message and
 * does not stop the others. (Lock state and the pre-trade limits are the frame's, in AppStatus.)
 */
export class TraderAccount {
  balances = $state.raw<BalanceT[] | null>(null);
  balancesError = $state<string | null>(null);
  openOrders = $state.raw<OrderT[]>([]);
  openOrdersError = $state<string | null>(null);
  fills = $state.raw<OwnFill[]>([]);

  private readonly stops: Array<() => void> = [];
  private refillTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `refillAfterMs`: how long after the open orders or balances change the fills are read again.
   * An order that fills whole as it is placed never shows in the open list, so main has no fill
   * event for it; its balances and open-orders events are the sign that something traded.
   */
  constructor(
    private readonly api: Api,
    private readonly refillAfterMs = 400,
  ) {}

  async start(): Promise<void> {
    if (this.stops.length === 0) this.listen();
    await Promise.all([this.loadBalances(), this.loadOpenOrders(), this.loadFills()]);
  }

  /** Free balance of an asset by name (`ADA`, `USDM`); null while unknown. */
  free(asset: string): Decimal | null {
    if (!this.balances) return null;
    const entry = this.balances.find((b) => b.asset.toUpperCase() === asset.toUpperCase());
    return entry ? entry.free : new Money(0);
  }

  private listen(): void {
    this.stops.push(
      this.api.on('funds:changed', (overview) => {
        this.applyBalances(overview.exchange);
        this.refillSoon();
      }),
      this.api.on('orders:open', (orders) => {
        this.openOrders = parseOrders(orders);
        this.openOrdersError = null;
        this.refillSoon();
      }),
      this.api.on('orders:filled', (fill) => {
        const order = Order.safeParse(fill.order);
        if (!order.success) return;
        const fills = fillsOf(order.data).filter((f) => f.id === fill.executionId);
        this.fills = mergeFills(this.fills, fills.length ? fills : fillsOf(order.data));
      }),
    );
  }

  /** Reads the fills again once a burst of changes has settled. */
  refillSoon(): void {
    clearTimeout(this.refillTimer);
    this.refillTimer = setTimeout(() => void this.loadFills(), this.refillAfterMs);
  }

  private applyBalances(entries: readonly unknown[]): void {
    this.balances = entries.flatMap((b) => {
      const parsed = Balance.safeParse(b);
      return parsed.success ? [parsed.data] : [];
    });
    this.balancesError = null;
  }

  async loadBalances(): Promise<void> {
    try {
      const overview = await unwrap(this.api.funds.overview());
      this.applyBalances(overview.exchange);
    } catch (error) {
      this.balancesError = messageOf(error);
    }
  }

  async loadOpenOrders(): Promise<void> {
    try {
      this.openOrders = parseOrders(await unwrap(this.api.orders.all({ view: 'open' })));
      this.openOrdersError = null;
    } catch (error) {
      this.openOrdersError = messageOf(error);
    }
  }

  async loadFills(): Promise<void> {
    try {
      const page = await unwrap(this.api.orders.list({ view: 'trades', page: 1, limit: 100 }));
      this.fills = mergeFills(this.fills, parseOrders(page.orders).flatMap(fillsOf));
    } catch {
      // The fills list says it is empty; the open orders' message already tells what is wrong.
    }
  }

  dispose(): void {
    clearTimeout(this.refillTimer);
    for (const stop of this.stops.splice(0)) stop();
  }
}
