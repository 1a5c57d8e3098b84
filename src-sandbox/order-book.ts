import type { Order } from './orders.js';

/** All resting orders at one price, oldest first. */
export interface PriceLevel {
  readonly price: bigint;
  /** Resting base quantity at this price, in base smallest units. */
  quantity: bigint;
  readonly orders: Order[];
  head: number;
  /** Cancelled orders still in `orders`, skipped when met. */
  dead: number;
}

/** One side of one market's book: levels sorted best first (bids high→low, asks low→high). */
export class BookSide {
  readonly levels: PriceLevel[] = [];
  private readonly byPrice = new Map<bigint, PriceLevel>();

  constructor(private readonly descending: boolean) {}

  best(): PriceLevel | undefined {
    return this.levels[0];
  }

  /** True when `a` is a better price than `b` for this side. */
  private better(a: bigint, b: bigint): boolean {
    return this.descending ? a > b : a < b;
  }

  add(order: Order): void {
    let level = this.byPrice.get(order.priceTicks);
    if (!level) {
      level = { price: order.priceTicks, quantity: 0n, orders: [], head: 0, dead: 0 };
      this.byPrice.set(level.price, level);
      let lo = 0;
      let hi = this.levels.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const other = this.levels[mid] as PriceLevel;
        if (this.better(other.price, level.price)) lo = mid + 1;
        else hi = mid;
      }
      this.levels.splice(lo, 0, level);
    }
    level.orders.push(order);
    level.quantity += order.remaining;
  }

  /** The oldest live order of the best level, dropping filled or cancelled ones on the way. */
  peek(level: PriceLevel): Order | undefined {
    while (level.head < level.orders.length) {
      const order = level.orders[level.head] as Order;
      if (order.remaining > 0n && order.resting) return order;
      level.head++;
    }
    return undefined;
  }

  /** Takes `quantity` off a level after a fill; drops the level once empty. */
  reduce(level: PriceLevel, quantity: bigint): void {
    level.quantity -= quantity;
    if (level.quantity === 0n) this.removeLevel(level);
    else if (level.head > 64 && level.head * 2 > level.orders.length) {
      level.orders.splice(0, level.head);
      level.head = 0;
    }
  }

  /**
   * Takes a cancelled order's remaining quantity off its level. The order stays in the queue,
   * skipped by `peek` (it is no longer resting), until the level compacts.
   */
  remove(order: Order): void {
    const level = this.byPrice.get(order.priceTicks);
    if (!level) return;
    level.dead++;
    level.quantity -= order.remaining;
    if (level.quantity === 0n) {
      this.removeLevel(level);
    } else if (level.dead > 32 && level.dead * 2 > level.orders.length - level.head) {
      const live = level.orders.slice(level.head).filter((o) => o.resting && o !== order);
      level.orders.length = 0;
      level.orders.push(...live);
      level.head = 0;
      level.dead = 0;
    }
  }

  private removeLevel(level: PriceLevel): void {
    this.byPrice.delete(level.price);
    const index = this.levels.indexOf(level);
    if (index >= 0) this.levels.splice(index, 1);
  }
}

/** One market's order book. */
export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
}
