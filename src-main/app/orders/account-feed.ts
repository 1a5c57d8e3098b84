import type { EmitEvent } from '../../../src-shared/contract';
import type { Order } from '../../../src-shared/domain';
import type { Logger } from '../../log';
import { LiveFeed, openNamedStream } from '../network/live-feed';
import type { Connection, NetworkService } from '../network/service';

export interface AccountFeedDeps {
  network: NetworkService;
  emit: EmitEvent;
  logger: Logger;
  /** The unlocked session's API key, or null while locked. */
  apiKey: () => string | null;
  /** Balances changed: the funds area pushes its overview. */
  balancesChanged: () => void;
  /** The exchange said the order or trading history changed. */
  ordersChanged: () => void;
  /** The open list as the exchange pushed it (or was polled for it) on `network`. */
  openOrdersRead: (network: string, orders: Order[]) => void;
  /** A desktop notification for a fill (main decides whether the window is focused). */
  notifyFill: (order: Order) => void;
  pollEveryMs?: number;
}

/**
 * After the trader's own change, how long a live stream has to bring the new open-order list
 * before it is read by HTTP anyway.
 */
const STREAM_GRACE_MS = 1500;
/** Balance changes this close together make one refresh of the funds. */
const BALANCES_SETTLE_MS = 50;

/**
 * The trader's own account, live: open orders and balances from the account stream (polling
 * while it is down), and a fill event (with a desktop notification) when an order trades.
 * Runs while the session is unlocked on the current network.
 */
export class AccountFeed {
  #feed: LiveFeed | null = null;
  #connection: Connection | null = null;
  /** Executed base quantity of each open order last seen, to tell when one trades. */
  #executed = new Map<string, string>();
  /** Bumped by every start and stop: a feed, or a start still awaiting, from before is void. */
  #generation = 0;
  /** The stream is live (not polling). */
  #live = false;
  /** Open-order lists the stream has pushed. */
  #pushes = 0;
  #refreshTimer: ReturnType<typeof setTimeout> | undefined;
  #balancesTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: AccountFeedDeps) {
    deps.network.onSwitch(() => void this.restart());
  }

  async restart(): Promise<void> {
    this.stop();
    const generation = ++this.#generation;
    const apiKey = this.deps.apiKey();
    if (!apiKey) return;
    const connection = await this.deps.network.connection();
    const client = await connection.client(apiKey);
    // Two starts at once (an unlock and a new API key): only the last one runs a feed.
    if (generation !== this.#generation) return;
    this.#connection = connection;
    const current = () =>
      generation === this.#generation && this.#connection === connection && !connection.closed;
    const feed = new LiveFeed({
      openStream: (onState) =>
        openNamedStream(
          client.streams,
          'account',
          () =>
            client.streams.account((event) => {
              if (!current()) return;
              if (event.kind === 'balances') this.#balancesChanged();
              else if (event.kind === 'openOrders') {
                this.#pushes++;
                void this.#openOrders(event.orders, connection);
              } else this.deps.ordersChanged();
            }),
          onState,
        ),
      poll: async () => {
        const open = await client.orderRecords({ status: 'open', page: 1, limit: 250 });
        if (!current()) return;
        await this.#openOrders(open.orders, connection);
        this.#balancesChanged();
      },
      pollEveryMs: this.deps.pollEveryMs ?? 5000,
      onState: (state, detail) => {
        if (current()) this.#live = state === 'live';
        this.deps.network.report(state, detail);
      },
    });
    this.#feed = feed;
    feed.start();
  }

  async #openOrders(orders: Order[], connection: Connection): Promise<void> {
    this.deps.emit('orders:open', orders);
    this.deps.openOrdersRead(connection.key, orders);
    const seen = new Map(orders.map((o) => [o.id, o.executedBaseQty.toFixed()]));
    const gone = [...this.#executed.keys()].filter((id) => !seen.has(id));
    for (const order of orders) {
      const before = this.#executed.get(order.id);
      if (before !== undefined && before !== order.executedBaseQty.toFixed()) this.#filled(order);
    }
    // An order that left the open list may have filled completely: ask for its record.
    if (gone.length && this.#connection === connection) {
      const client = await connection.client(this.deps.apiKey());
      for (const id of gone) {
        const order = await client.order(id).catch(() => null);
        if (order && order.executedBaseQty.toFixed() !== this.#executed.get(id))
          this.#filled(order);
      }
    }
    this.#executed = seen;
  }

  #filled(order: Order): void {
    const last = order.executions.at(-1);
    this.deps.emit('orders:filled', { order, executionId: last?.id ?? '' });
    this.#balancesChanged();
    this.deps.notifyFill(order);
  }

  /**
   * The funds area reads the balances again, once for changes that come together (a stream's
   * balance message and a fill, or a read after the trader's own change).
   */
  #balancesChanged(): void {
    // Asked by this run of the feed only: once stopped (locked, another network), it is void.
    const generation = this.#generation;
    this.#balancesTimer ??= setTimeout(() => {
      this.#balancesTimer = undefined;
      if (generation === this.#generation) this.deps.balancesChanged();
    }, BALANCES_SETTLE_MS);
  }

  /**
   * An order the trader just placed: one that traded as it was placed (it may never show in
   * the open list) is announced now; otherwise it is watched from here, so a fill before the
   * next read of the open list is still seen.
   */
  placed(order: Order): void {
    if (!this.#feed) return;
    if (order.executedBaseQty.gt(0)) this.#filled(order);
    this.#executed.set(order.id, order.executedBaseQty.toFixed());
  }

  /**
   * After the trader's own change: read the open orders and balances now, or, while the stream
   * is live, only if it has not pushed the open orders within moments (it brings the change
   * itself; reading it again by HTTP would cost a request and a list's decoding per order).
   */
  refresh(): void {
    const feed = this.#feed;
    if (!feed) return;
    if (!this.#live) {
      void feed.refresh();
      return;
    }
    if (this.#refreshTimer) return;
    const pushes = this.#pushes;
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = undefined;
      if (this.#feed === feed && this.#pushes === pushes) void feed.refresh();
    }, STREAM_GRACE_MS);
  }

  stop(): void {
    this.#generation += 1;
    this.#feed?.stop();
    this.#feed = null;
    this.#connection = null;
    this.#executed.clear();
    this.#live = false;
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = undefined;
    clearTimeout(this.#balancesTimer);
    this.#balancesTimer = undefined;
  }
}
