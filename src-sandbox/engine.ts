import { MARKETS, PRICE_SCALE, type Market } from './assets.js';
import { ErrorCode, SandboxError } from './errors.js';
import type { IdSequence } from './ids.js';
import { OrderBook, type BookSide } from './order-book.js';
import { ORDER_STATUSES, type Execution, type Order, type OrderType, type Side } from './orders.js';
import {
  SnapshotError,
  amountMap,
  amountRows,
  big,
  int,
  list,
  str,
  unbig,
  type AmountRows,
  type Big,
} from './snapshot-codec.js';

/** One asset's balance of one account, in smallest units. */
export interface Balance {
  free: bigint;
  locked: bigint;
}

export interface EngineAccount {
  readonly id: string;
  readonly balances: Map<string, Balance>;
  openOrders: number;
}

/** One trade on a market, as the tape shows it. */
export interface Trade {
  readonly at: number;
  readonly priceTicks: bigint;
  readonly baseUnits: bigint;
  readonly takerSide: Side;
}

export interface PlaceOrder {
  readonly id: string;
  readonly accountId: string;
  readonly market: Market;
  readonly side: Side;
  readonly type: OrderType;
  /** Base quantity in smallest units. */
  readonly quantity: bigint;
  /** Limit price in ticks (limit orders); ignored for market orders. */
  readonly priceTicks: bigint;
  /** Market orders with a slippage limit: the worst price they may fill at. */
  readonly marketLimitTicks: bigint | null;
  readonly slippageBp: number;
  readonly postOnly: boolean;
  readonly commissionRateBp: number;
  readonly utxoId: string;
  readonly at: number;
}

/** Creates ids for execution records; the exchange derives them from its journal position. */
export type IdSource = () => string;

interface MarketState {
  readonly market: Market;
  readonly book: OrderBook;
  readonly trades: Trade[];
  /** Multiplier and divisor turning base units × price ticks into quote units. */
  readonly quoteMul: bigint;
  readonly quoteDiv: bigint;
  /** Smallest base step allowed by the quantity precision. */
  readonly lot: bigint;
}

const MAX_TRADES_KEPT = 200_000;

/** The engine in a snapshot: compact rows, ids of this data folder as counters. */
export interface EngineSnapshot {
  placed: number;
  /** `[account id, [[unit, free, locked]…]]`; open order counts follow from resting orders. */
  accounts: [number | string, [string, Big, Big][]][];
  /** Every order kept, in the order they were placed (which is also time priority). */
  orders: unknown[][];
  fees: AmountRows;
  /** Per market (in `MARKETS` order): times, prices, base quantities, taker sides (`b`/`s`). */
  trades: { at: number[]; price: Big[]; base: Big[]; side: string }[];
}

/**
 * The matching engine: balances, orders and books of every market. Price-time priority, partial
 * fills, fills at the resting price, commission in the asset received. Deterministic: time comes
 * in with each call and ids from the injected source.
 */
export class MatchingEngine {
  readonly accounts = new Map<string, EngineAccount>();
  readonly orders = new Map<string, Order>();
  /** Commissions collected by the exchange, by unit. */
  readonly fees = new Map<string, bigint>();
  private readonly markets = new Map<string, MarketState>();
  /** Orders taken so far: the next order's `seq`. */
  private placed = 0;

  constructor(private readonly nextId: IdSource) {
    for (const market of MARKETS) {
      this.markets.set(market.symbol, {
        market,
        book: new OrderBook(),
        trades: [],
        quoteMul: 10n ** BigInt(market.quote.decimals),
        quoteDiv: 10n ** BigInt(market.base.decimals) * PRICE_SCALE,
        lot: 10n ** BigInt(market.base.decimals - market.quantityDecimals),
      });
    }
  }

  openAccount(id: string): EngineAccount {
    let account = this.accounts.get(id);
    if (!account) {
      account = { id, balances: new Map(), openOrders: 0 };
      this.accounts.set(id, account);
    }
    return account;
  }

  balance(accountId: string, unit: string): Balance {
    const account = this.accounts.get(accountId) ?? this.openAccount(accountId);
    let balance = account.balances.get(unit);
    if (!balance) {
      balance = { free: 0n, locked: 0n };
      account.balances.set(unit, balance);
    }
    return balance;
  }

  book(symbol: string): OrderBook {
    return this.state(symbol).book;
  }

  trades(symbol: string): readonly Trade[] {
    return this.state(symbol).trades;
  }

  /** Puts trades of the past (a new exchange's history) on the tape, before any of its own. */
  addHistory(symbol: string, trades: readonly Trade[]): void {
    this.state(symbol).trades.unshift(...trades);
  }

  lastPrice(symbol: string): bigint | undefined {
    const trades = this.state(symbol).trades;
    return trades[trades.length - 1]?.priceTicks;
  }

  /** Quote units worth `base` units at `priceTicks`, rounded down (or up). */
  quoteFor(market: Market, base: bigint, priceTicks: bigint, roundUp = false): bigint {
    const s = this.state(market.symbol);
    const n = base * priceTicks * s.quoteMul;
    const q = n / s.quoteDiv;
    return roundUp && q * s.quoteDiv !== n ? q + 1n : q;
  }

  /** What an order would lock now: base for sells, quote for buys (all free quote if unlimited). */
  lockFor(p: Omit<PlaceOrder, 'id' | 'utxoId' | 'at' | 'commissionRateBp'>): {
    base: bigint;
    quote: bigint;
  } {
    if (p.side === 'sell') return { base: p.quantity, quote: 0n };
    const quote = p.market.quote.unit;
    if (p.type === 'limit') {
      return { base: 0n, quote: this.quoteFor(p.market, p.quantity, p.priceTicks, true) };
    }
    if (p.marketLimitTicks !== null) {
      return { base: 0n, quote: this.quoteFor(p.market, p.quantity, p.marketLimitTicks, true) };
    }
    return { base: 0n, quote: this.balance(p.accountId, quote).free };
  }

  /** True when a limit order at this price would trade against the book now. */
  wouldCross(symbol: string, side: Side, priceTicks: bigint): boolean {
    const book = this.book(symbol);
    const best = side === 'buy' ? book.asks.best() : book.bids.best();
    if (!best) return false;
    return side === 'buy' ? best.price <= priceTicks : best.price >= priceTicks;
  }

  /** Places an order: locks what it may spend, matches it, rests a limit remainder. */
  placeOrder(p: PlaceOrder): Order {
    const s = this.state(p.market.symbol);
    const lock = this.lockFor(p);
    const baseBalance = this.balance(p.accountId, p.market.base.unit);
    const quoteBalance = this.balance(p.accountId, p.market.quote.unit);
    if (baseBalance.free < lock.base || quoteBalance.free < lock.quote) {
      throw new SandboxError(ErrorCode.insufficientBalance, 'insufficient balance to place order');
    }
    if (
      p.postOnly &&
      p.type === 'limit' &&
      this.wouldCross(p.market.symbol, p.side, p.priceTicks)
    ) {
      throw new SandboxError(ErrorCode.postOnlyWouldMatch, 'post-only order would match');
    }
    baseBalance.free -= lock.base;
    baseBalance.locked += lock.base;
    quoteBalance.free -= lock.quote;
    quoteBalance.locked += lock.quote;
    const order: Order = {
      id: p.id,
      accountId: p.accountId,
      market: p.market,
      side: p.side,
      type: p.type,
      status: 'open',
      priceTicks: p.type === 'limit' ? p.priceTicks : 0n,
      quantity: p.quantity,
      quoteQuantity:
        p.type === 'limit' ? this.quoteFor(p.market, p.quantity, p.priceTicks) : lock.quote,
      remaining: p.quantity,
      resting: false,
      lockedBase: lock.base,
      lockedQuote: lock.quote,
      executedBase: 0n,
      executedQuote: 0n,
      commission: 0n,
      commissionRateBp: p.commissionRateBp,
      marketLimitTicks: p.type === 'market' ? p.marketLimitTicks : null,
      slippageBp: p.slippageBp,
      postOnly: p.postOnly,
      utxoId: p.utxoId,
      createdAt: p.at,
      updatedAt: p.at,
      executions: [],
      seq: this.placed++,
    };
    this.orders.set(order.id, order);
    const opposite = p.side === 'buy' ? s.book.asks : s.book.bids;
    const hadLiquidity = opposite.best() !== undefined;
    this.match(s, order, opposite, p.at);
    if (order.type === 'limit') {
      if (order.remaining > 0n) {
        order.status = order.executedBase > 0n ? 'partially_filled' : 'open';
        order.resting = true;
        if (order.side === 'buy') {
          const needed = this.quoteFor(p.market, order.remaining, order.priceTicks, true);
          if (order.lockedQuote > needed) this.release(order, 0n, order.lockedQuote - needed);
        }
        (p.side === 'buy' ? s.book.bids : s.book.asks).add(order);
        this.openAccount(order.accountId).openOrders++;
      } else {
        order.status = 'fully_filled';
        this.release(order, order.lockedBase, order.lockedQuote);
      }
    } else {
      if (order.remaining === 0n) order.status = 'fully_filled';
      else if (order.executedBase > 0n) order.status = 'partially_cancelled';
      else order.status = hadLiquidity ? 'cancelled' : 'failed';
      order.quoteQuantity = order.executedQuote;
      this.release(order, order.lockedBase, order.lockedQuote);
    }
    return order;
  }

  /** Cancels a resting order and releases what it still locks. */
  cancelOrder(orderId: string, at: number): Order {
    const order = this.orders.get(orderId);
    if (!order) throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
    if (!order.resting) throw new SandboxError(ErrorCode.orderNotOpen, 'order is not open');
    const book = this.state(order.market.symbol).book;
    (order.side === 'buy' ? book.bids : book.asks).remove(order);
    order.resting = false;
    order.status = order.executedBase > 0n ? 'partially_cancelled' : 'cancelled';
    order.updatedAt = at;
    this.release(order, order.lockedBase, order.lockedQuote);
    this.openAccount(order.accountId).openOrders--;
    return order;
  }

  /** The engine as plain data (orders in the order they were placed). */
  snapshot(ids: IdSequence): EngineSnapshot {
    const orders: unknown[][] = [];
    for (const o of this.orders.values()) orders.push(orderRow(o, ids));
    return {
      placed: this.placed,
      accounts: [...this.accounts.values()].map((a) => [
        ids.compact(a.id),
        [...a.balances].map(([unit, b]) => [unit, big(b.free), big(b.locked)]),
      ]),
      orders,
      fees: amountRows(this.fees),
      trades: MARKETS.map((m) => {
        const trades = this.state(m.symbol).trades;
        return {
          at: trades.map((t) => t.at),
          price: trades.map((t) => big(t.priceTicks)),
          base: trades.map((t) => big(t.baseUnits)),
          side: trades.map((t) => (t.takerSide === 'buy' ? 'b' : 's')).join(''),
        };
      }),
    };
  }

  /** Loads a snapshot into this fresh engine: balances, orders, books (time priority kept), tape. */
  restore(s: EngineSnapshot, ids: IdSequence): void {
    this.placed = int(s.placed);
    for (const row of list(s.accounts)) {
      const [id, balances] = list(row);
      const account = this.openAccount(ids.expand(id as number | string));
      for (const b of list(balances)) {
        const [unit, free, locked] = list(b);
        account.balances.set(str(unit), { free: unbig(free), locked: unbig(locked) });
      }
    }
    for (const row of list(s.orders)) {
      const order = orderFromRow(list(row), ids);
      this.orders.set(order.id, order);
      if (order.resting) {
        const book = this.state(order.market.symbol).book;
        (order.side === 'buy' ? book.bids : book.asks).add(order);
        this.openAccount(order.accountId).openOrders++;
      }
    }
    for (const [unit, q] of amountMap(s.fees)) this.fees.set(unit, q);
    list(s.trades).forEach((raw, i) => {
      const market = MARKETS[i];
      if (!market) throw new SnapshotError('trades of an unknown market');
      const t = raw as EngineSnapshot['trades'][number];
      const at = list(t.at);
      const price = list(t.price);
      const base = list(t.base);
      const side = str(t.side);
      const trades = this.state(market.symbol).trades;
      for (let k = 0; k < at.length; k++) {
        trades.push({
          at: int(at[k]),
          priceTicks: unbig(price[k]),
          baseUnits: unbig(base[k]),
          takerSide: side[k] === 'b' ? 'buy' : 'sell',
        });
      }
    });
  }

  private state(symbol: string): MarketState {
    const s = this.markets.get(symbol);
    if (!s) throw new SandboxError(ErrorCode.invalidSymbol, 'invalid trading pair symbol');
    return s;
  }

  private release(order: Order, base: bigint, quote: bigint): void {
    if (base > 0n) {
      const b = this.balance(order.accountId, order.market.base.unit);
      b.locked -= base;
      b.free += base;
      order.lockedBase -= base;
    }
    if (quote > 0n) {
      const q = this.balance(order.accountId, order.market.quote.unit);
      q.locked -= quote;
      q.free += quote;
      order.lockedQuote -= quote;
    }
  }

  private match(s: MarketState, taker: Order, opposite: BookSide, at: number): void {
    const buying = taker.side === 'buy';
    const limit = taker.type === 'limit' ? taker.priceTicks : taker.marketLimitTicks;
    const unlimitedBuy = buying && taker.type === 'market' && limit === null;
    while (taker.remaining > 0n) {
      const level = opposite.best();
      if (!level) break;
      if (limit !== null && (buying ? level.price > limit : level.price < limit)) break;
      const maker = opposite.peek(level);
      if (!maker) break;
      let fill = taker.remaining < maker.remaining ? taker.remaining : maker.remaining;
      if (unlimitedBuy) {
        let affordable = (taker.lockedQuote * s.quoteDiv) / (level.price * s.quoteMul);
        affordable -= affordable % s.lot;
        if (affordable < fill) fill = affordable;
        if (fill === 0n) break;
      }
      const quote = (fill * level.price * s.quoteMul) / s.quoteDiv;
      this.fill(s, taker, maker, fill, quote, level.price, at);
      opposite.reduce(level, fill);
      if (maker.remaining === 0n) {
        maker.resting = false;
        maker.status = 'fully_filled';
        this.release(maker, maker.lockedBase, maker.lockedQuote);
        this.openAccount(maker.accountId).openOrders--;
      } else {
        maker.status = 'partially_filled';
      }
    }
  }

  private record(
    order: Order,
    counterParty: Order,
    taker: Order,
    base: bigint,
    quote: bigint,
    price: bigint,
    commission: bigint,
    unit: string,
    at: number,
  ): void {
    order.remaining -= base;
    order.executedBase += base;
    order.executedQuote += quote;
    order.commission += commission;
    order.updatedAt = at;
    order.executions.push({
      id: this.nextId(),
      orderId: order.id,
      accountId: order.accountId,
      counterPartyOrderId: counterParty.id,
      priceTicks: price,
      baseUnits: base,
      quoteUnits: quote,
      commission,
      commissionUnit: unit,
      role: order === taker ? 'taker' : 'maker',
      at,
    });
  }

  private fill(
    s: MarketState,
    taker: Order,
    maker: Order,
    base: bigint,
    quote: bigint,
    price: bigint,
    at: number,
  ): void {
    const buyer = taker.side === 'buy' ? taker : maker;
    const seller = taker.side === 'buy' ? maker : taker;
    const baseUnit = s.market.base.unit;
    const quoteUnit = s.market.quote.unit;
    const buyerCommission = (base * BigInt(buyer.commissionRateBp)) / 10_000n;
    const sellerCommission = (quote * BigInt(seller.commissionRateBp)) / 10_000n;

    const buyerQuote = this.balance(buyer.accountId, quoteUnit);
    buyerQuote.locked -= quote;
    buyer.lockedQuote -= quote;
    this.balance(buyer.accountId, baseUnit).free += base - buyerCommission;

    const sellerBase = this.balance(seller.accountId, baseUnit);
    sellerBase.locked -= base;
    seller.lockedBase -= base;
    this.balance(seller.accountId, quoteUnit).free += quote - sellerCommission;

    if (buyerCommission > 0n)
      this.fees.set(baseUnit, (this.fees.get(baseUnit) ?? 0n) + buyerCommission);
    if (sellerCommission > 0n) {
      this.fees.set(quoteUnit, (this.fees.get(quoteUnit) ?? 0n) + sellerCommission);
    }
    this.record(buyer, seller, taker, base, quote, price, buyerCommission, baseUnit, at);
    this.record(seller, buyer, taker, base, quote, price, sellerCommission, quoteUnit, at);
    s.trades.push({ at, priceTicks: price, baseUnits: base, takerSide: taker.side });
    if (s.trades.length > MAX_TRADES_KEPT)
      s.trades.splice(0, s.trades.length - MAX_TRADES_KEPT / 2);
  }
}

/** An order as a snapshot row (see `orderFromRow`); executions as rows inside it. */
export function orderRow(o: Order, ids: IdSequence): unknown[] {
  return [
    ids.compact(o.id),
    ids.compact(o.accountId),
    MARKETS.indexOf(o.market),
    o.side === 'buy' ? 0 : 1,
    o.type === 'limit' ? 0 : 1,
    ORDER_STATUSES.indexOf(o.status),
    big(o.priceTicks),
    big(o.quantity),
    big(o.quoteQuantity),
    big(o.remaining),
    o.resting ? 1 : 0,
    big(o.lockedBase),
    big(o.lockedQuote),
    big(o.executedBase),
    big(o.executedQuote),
    big(o.commission),
    o.commissionRateBp,
    o.marketLimitTicks === null ? null : big(o.marketLimitTicks),
    o.slippageBp,
    o.postOnly ? 1 : 0,
    o.utxoId,
    o.createdAt,
    o.updatedAt,
    o.executions.map((e) => [
      ids.compact(e.id),
      ids.compact(e.counterPartyOrderId),
      big(e.priceTicks),
      big(e.baseUnits),
      big(e.quoteUnits),
      big(e.commission),
      e.role === 'taker' ? 1 : 0,
      e.at,
    ]),
    o.seq,
  ];
}

export function orderFromRow(r: unknown[], ids: IdSequence): Order {
  const market = MARKETS[int(r[2])];
  const status = ORDER_STATUSES[int(r[5])];
  if (!market || !status) throw new SnapshotError('an order of an unknown market or status');
  const id = ids.expand(r[0] as number | string);
  const accountId = ids.expand(r[1] as number | string);
  const side: Side = r[3] === 0 ? 'buy' : 'sell';
  // A buyer is paid its commission in the base asset, a seller in the quote asset.
  const commissionUnit = side === 'buy' ? market.base.unit : market.quote.unit;
  const executions: Execution[] = list(r[23]).map((raw) => {
    const e = list(raw);
    return {
      id: ids.expand(e[0] as number | string),
      orderId: id,
      accountId,
      counterPartyOrderId: ids.expand(e[1] as number | string),
      priceTicks: unbig(e[2]),
      baseUnits: unbig(e[3]),
      quoteUnits: unbig(e[4]),
      commission: unbig(e[5]),
      commissionUnit,
      role: e[6] === 1 ? 'taker' : 'maker',
      at: int(e[7]),
    };
  });
  return {
    id,
    accountId,
    market,
    side,
    type: r[4] === 0 ? 'limit' : 'market',
    status,
    priceTicks: unbig(r[6]),
    quantity: unbig(r[7]),
    quoteQuantity: unbig(r[8]),
    remaining: unbig(r[9]),
    resting: r[10] === 1,
    lockedBase: unbig(r[11]),
    lockedQuote: unbig(r[12]),
    executedBase: unbig(r[13]),
    executedQuote: unbig(r[14]),
    commission: unbig(r[15]),
    commissionRateBp: int(r[16]),
    marketLimitTicks: r[17] === null ? null : unbig(r[17]),
    slippageBp: int(r[18]),
    postOnly: r[19] === 1,
    utxoId: str(r[20]),
    createdAt: int(r[21]),
    updatedAt: int(r[22]),
    executions,
    seq: int(r[24]),
  };
}
