import { parseWalletAddress, type WalletAddress } from './addresses.js';
import { hashApiKey } from './api-keys.js';
import {
  ADA,
  ASSETS,
  MARKETS,
  PRICE_SCALE,
  assetByUnit,
  decimalPlaces,
  marketBySymbol,
  toUnits,
  type Market,
} from './assets.js';
import { MatchingEngine, type EngineSnapshot, type PlaceOrder } from './engine.js';
import { ErrorCode, SandboxError, type ErrorCodeValue } from './errors.js';
import { Funds, addAmount, type FundsSnapshot } from './funds.js';
import type { IdSequence } from './ids.js';
import { fromAmountRecord, type JournalEntry, type OrderRequest } from './journal-entries.js';
import { L1Ledger, utxoId, type L1Snapshot, type L1Utxo } from './l1-ledger.js';
import { MARKET_MAKER_ACCOUNT, MarketMaker, type MarketMakerSnapshot } from './market-maker.js';
import { isOpen, type Order } from './orders.js';
import { OrderArchive } from './order-archive.js';
import { PendingBuilds, type PendingKind, type PendingSnapshot } from './pending-builds.js';
import { PRICE_TIMES } from './intent-layout.js';
import {
  accountKeys,
  cancelOrderTransaction,
  placeOrderTransaction,
} from './intent-transactions.js';
import { amountMap, amountRows, list, str, type AmountRows } from './snapshot-codec.js';
import { TAKERS_ACCOUNT, Takers } from './takers.js';
import { slotAt } from './transactions.js';

export interface ExchangeRules {
  /** Commission per order in basis points, charged in the asset received. */
  commissionBp: number;
  maxOpenOrders: number;
  /** Limit prices further than this from the market price are refused (4111/4112). */
  priceBandBp: number;
  /** How long an order or cancel build stays valid. */
  orderTtlMs: number;
  /** How long a deposit or withdrawal build stays valid (room for offline signing). */
  fundsTtlMs: number;
}

export const DEFAULT_RULES: ExchangeRules = {
  commissionBp: 10,
  maxOpenOrders: 100,
  priceBandBp: 5_000,
  orderTtlMs: 5 * 60_000,
  fundsTtlMs: 2 * 60 * 60_000,
};

/** Minimum order size in lovelace (5 ADA equivalent). */
export const MIN_ORDER_LOVELACE = 5_000_000n;

/** What lists of orders filter on, and the order itself when needed. */
export interface OrderSummary {
  readonly open: boolean;
  readonly traded: boolean;
  readonly market: Market;
  read(): Order;
}

/** Most the faucet pays one address in all, per asset, in human units. */
export const FAUCET_LIMIT = 1_000_000n;

export interface Account {
  readonly id: string;
  /** SHA-256 of every API key issued to it (the keys themselves are never kept). */
  readonly keyHashes: string[];
  readonly wallet: WalletAddress;
  operationKeyHash: string | null;
  /** The account's current exchange-side UTxO, spent by its next order. */
  utxoId: string;
}

/** What the market maker and the simulated takers each start with, per asset. */
const INTERNAL_INVENTORY = 1_000_000_000_000_000n;

/**
 * The whole exchange: accounts, the matching engine, pending builds, the simulated L1 and the
 * market maker. Every change goes through `apply(entry)`, so replaying the journal rebuilds it.
 */
/** A positive amount with at most `decimals` places, or the real service's error for it. */
const checkDecimal = (
  value: number,
  what: 'price' | 'quantity',
  decimals: number,
  codes: { notPositive: ErrorCodeValue; tooPrecise: ErrorCodeValue },
): void => {
  if (!(value > 0)) throw new SandboxError(codes.notPositive, `${what} must be greater than 0`);
  if (decimalPlaces(value) > decimals) {
    throw new SandboxError(
      codes.tooPrecise,
      `${what} has too many decimal places (max ${decimals})`,
    );
  }
};

export class Exchange {
  readonly engine: MatchingEngine;
  readonly l1 = new L1Ledger();
  readonly accounts = new Map<string, Account>();
  /** Accounts by the SHA-256 of each of their API keys. */
  private readonly accountsByKey = new Map<string, Account>();
  /** Accounts by wallet address (lower case): one account per address. */
  private readonly accountsByAddress = new Map<string, Account>();
  /** What the faucet paid each address in all, by unit. */
  private readonly faucetPaid = new Map<string, Map<string, bigint>>();
  readonly marketMaker: MarketMaker;
  readonly takers: Takers;
  /** Everything the faucet and the market maker's inventory created, by unit. */
  readonly minted = new Map<string, bigint>();
  /** L1 fees paid by deposits and withdrawals, gone from every balance. */
  readonly burned = new Map<string, bigint>();
  readonly pending = new PendingBuilds();
  /** Every account's orders not archived, in the order they were placed (`seq`). */
  private readonly ordersByAccount = new Map<string, Order[]>();
  /** Closed orders of traders, moved out of memory's objects when a snapshot is written. */
  readonly archive: OrderArchive;
  readonly funds: Funds;
  tradingLocked = false;

  constructor(
    readonly rules: ExchangeRules,
    readonly ids: IdSequence,
    seed: number,
  ) {
    this.engine = new MatchingEngine(() => this.ids.uuid());
    this.archive = new OrderArchive(ids);
    this.funds = new Funds({
      engine: this.engine,
      l1: this.l1,
      pending: this.pending,
      ids,
      fundsTtlMs: rules.fundsTtlMs,
      burned: this.burned,
      wallet: (accountId) => this.account(accountId).wallet,
      keys: (accountId) => accountKeys(this.account(accountId)),
    });
    this.marketMaker = new MarketMaker(seed);
    this.takers = new Takers(seed);
    for (const internal of [MARKET_MAKER_ACCOUNT, TAKERS_ACCOUNT]) {
      for (const asset of ASSETS) {
        this.engine.balance(internal, asset.unit).free += INTERNAL_INVENTORY;
        addAmount(this.minted, asset.unit, INTERNAL_INVENTORY);
      }
    }
  }

  /** Applies one journal entry; the caller journals it only if this returns without throwing. */
  apply(entry: JournalEntry): unknown {
    this.settle(entry.at);
    const counter = this.ids.counter;
    try {
      return this.applyChecked(entry);
    } catch (e) {
      // A refused entry is not journaled: hand its ids out again so replay stays identical.
      this.ids.counter = counter;
      throw e;
    }
  }

  private applyChecked(entry: JournalEntry): unknown {
    switch (entry.t) {
      case 'genesis':
      case 'reset':
        return undefined;
      case 'account':
        if ('apiKeyHash' in entry) {
          return this.registerAccount(entry.apiKeyHash, entry.address, entry.operationKeyHash);
        }
        // Written before keys were hashed: each registration opened an account of its own.
        return this.openNewAccount(hashApiKey(entry.apiKey), entry.address, entry.operationKeyHash);
      case 'faucet':
        return this.payFromFaucet(entry.address, fromAmountRecord(entry.amounts));
      case 'orderBuild':
        return this.buildOrder(entry.accountId, entry.order, entry.at);
      case 'orderSubmit':
        return this.submitOrder(entry.orderId, entry.txId, entry.at);
      case 'cancelBuild':
        return this.buildCancel(entry.accountId, entry.orderId, entry.at);
      case 'cancelSubmit':
        return this.submitCancel(entry.txId, entry.at);
      case 'depositBuild':
        return this.funds.buildDeposit(entry.accountId, entry.amounts, entry.inputs, entry.at);
      case 'depositSubmit':
        return this.funds.submitDeposit(entry.txId, entry.at, entry.confirmAt);
      case 'withdrawalBuild':
        return this.funds.buildWithdrawal(entry.accountId, entry.amounts, entry.at);
      case 'withdrawalSubmit':
        return this.funds.submitWithdrawal(entry.txId, entry.at, entry.settleAt);
      case 'marketMaker':
        this.marketMaker.tick(this.engine, this.ids, entry.at);
        return undefined;
      case 'taker':
        this.takers.trade(this.engine, this.ids, entry.at);
        return undefined;
      case 'tradingLock':
        this.tradingLocked = entry.locked;
        return undefined;
    }
  }

  /** Confirms deposits and settles withdrawals that are due; reads call it with the time. */
  settle(at: number): void {
    this.funds.settle(at);
    this.pending.prune(at);
  }

  account(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw new SandboxError(ErrorCode.userNotFound, 'user not found');
    return account;
  }

  accountByApiKey(apiKey: string): Account | undefined {
    return this.accountsByKey.get(hashApiKey(apiKey));
  }

  order(accountId: string, orderId: string): Order {
    const order = this.findOrder(orderId);
    if (!order || order.accountId !== accountId) {
      throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
    }
    return order;
  }

  /** Any order by id, archived ones read back. */
  findOrder(orderId: string): Order | undefined {
    return this.engine.orders.get(orderId) ?? this.archive.get(orderId);
  }

  /** The account's open orders, oldest first (open orders are never archived). */
  openOrdersOf(accountId: string): Order[] {
    return (this.ordersByAccount.get(accountId) ?? []).filter(isOpen);
  }

  /** The account's orders, oldest first, archived ones read back (every one: for tests). */
  ordersOf(accountId: string): Order[] {
    return [...this.newestFirst(accountId)].reverse().map((o) => o.read());
  }

  /**
   * The account's orders newest first, each as what a list filters on (open, traded, market)
   * and a way to read it whole: a page of history reads only its own archived orders.
   */
  *newestFirst(accountId: string): Generator<OrderSummary> {
    const hot = this.ordersByAccount.get(accountId) ?? [];
    const archived = this.archive.of(accountId);
    let h = hot.length - 1;
    let a = archived.length - 1;
    while (h >= 0 || a >= 0) {
      const order = hot[h];
      const entry = archived[a];
      if (order && (!entry || order.seq > entry.seq)) {
        h--;
        yield {
          open: isOpen(order),
          traded: order.executions.length > 0,
          market: order.market,
          read: () => order,
        };
      } else if (entry) {
        a--;
        yield {
          open: false,
          traded: entry.traded,
          market: entry.market,
          read: () => this.archive.read(entry.line),
        };
      }
    }
  }

  /** Market price in ticks: the last trade, else the market maker's reference, else the start. */
  markPrice(market: Market): bigint {
    return (
      this.engine.lastPrice(market.symbol) ??
      this.marketMaker.reference(market.symbol) ??
      toUnits(market.referencePrice, 4)
    );
  }

  // ---- accounts and faucet ----

  /**
   * Gives an address its account: the one it already has (with this API key added, the earlier
   * ones still valid, and the operation key hash replaced if one is given), or a new one.
   */
  private registerAccount(
    keyHash: string,
    address: string,
    operationKeyHash: string | null,
  ): { account_id: string } {
    const wallet = parseWalletAddress(address);
    const existing = this.accountsByAddress.get(wallet.bech32.toLowerCase());
    if (!existing) return this.openNewAccount(keyHash, address, operationKeyHash);
    existing.keyHashes.push(keyHash);
    this.accountsByKey.set(keyHash, existing);
    if (operationKeyHash !== null) existing.operationKeyHash = operationKeyHash;
    return { account_id: existing.id };
  }

  private openNewAccount(
    keyHash: string,
    address: string,
    operationKeyHash: string | null,
  ): { account_id: string } {
    const wallet = parseWalletAddress(address);
    const id = this.ids.uuid();
    const account: Account = {
      id,
      keyHashes: [keyHash],
      wallet,
      operationKeyHash,
      utxoId: utxoId(this.ids.hash(), 0),
    };
    this.addAccount(account);
    this.engine.openAccount(id);
    return { account_id: id };
  }

  private addAccount(account: Account): void {
    this.accounts.set(account.id, account);
    for (const keyHash of account.keyHashes) this.accountsByKey.set(keyHash, account);
    this.accountsByAddress.set(account.wallet.bech32.toLowerCase(), account);
  }

  /**
   * Pays a wallet address (never a script, so never the exchange's own addresses) from the
   * faucet, within `FAUCET_LIMIT` of each asset for that address over all its requests.
   */
  private payFromFaucet(address: string, amounts: Map<string, bigint>): L1Utxo {
    parseWalletAddress(address);
    // Bech32 has one letter case per address: either spelling counts against the same limit.
    const payee = address.toLowerCase();
    const paid = this.faucetPaid.get(payee) ?? new Map<string, bigint>();
    for (const [unit, q] of amounts) {
      const asset = assetByUnit(unit);
      if (!asset) throw new SandboxError(ErrorCode.invalidRequest, `unknown unit ${unit}`);
      if (q <= 0n) {
        throw new SandboxError(ErrorCode.invalidRequest, `quantity of ${unit} must be positive`);
      }
      if ((paid.get(unit) ?? 0n) + q > FAUCET_LIMIT * 10n ** BigInt(asset.decimals)) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          `the faucet pays at most ${FAUCET_LIMIT} ${asset.name} to one address in all`,
        );
      }
    }
    const utxo: L1Utxo = { txHash: this.ids.hash(), index: 0, address, amounts };
    this.l1.add(utxo);
    for (const [unit, q] of amounts) {
      addAmount(this.minted, unit, q);
      addAmount(paid, unit, q);
    }
    this.faucetPaid.set(payee, paid);
    return utxo;
  }

  // ---- orders ----

  private checkTradingOpen(): void {
    if (this.tradingLocked) {
      throw new SandboxError(ErrorCode.tradingLocked, 'trading is locked, retry later');
    }
  }

  private operationKey(account: Account): string {
    if (!account.operationKeyHash) {
      throw new SandboxError(ErrorCode.noOperationKey, 'account has no operation key');
    }
    return account.operationKeyHash;
  }

  /** Validates an order request against the real rules and turns it into engine terms. */
  private orderTerms(
    account: Account,
    r: OrderRequest,
    orderId: string,
  ): Omit<PlaceOrder, 'utxoId' | 'at'> {
    const market = marketBySymbol(r.symbol);
    if (!market) throw new SandboxError(ErrorCode.invalidSymbol, 'invalid trading pair symbol');
    checkDecimal(r.quantity, 'quantity', market.quantityDecimals, {
      notPositive: ErrorCode.quantityNotPositive,
      tooPrecise: ErrorCode.quantityTooPrecise,
    });
    const quantity = toUnits(r.quantity, market.base.decimals);
    let priceTicks: bigint;
    let marketLimitTicks: bigint | null = null;
    let slippageBp = 0;
    const mark = this.markPrice(market);
    if (r.type === 'limit') {
      if (r.price === undefined) {
        throw new SandboxError(ErrorCode.invalidRequest, 'price is required for a limit order');
      }
      checkDecimal(r.price, 'price', market.priceDecimals, {
        notPositive: ErrorCode.priceNotPositive,
        tooPrecise: ErrorCode.priceTooPrecise,
      });
      priceTicks = toUnits(r.price, 4);
      const band = BigInt(this.rules.priceBandBp);
      if (priceTicks * 10_000n > mark * (10_000n + band)) {
        throw new SandboxError(
          ErrorCode.priceAboveBand,
          "price is above the market's allowed band",
        );
      }
      if (priceTicks * 10_000n < mark * (10_000n - band)) {
        throw new SandboxError(
          ErrorCode.priceBelowBand,
          "price is below the market's allowed band",
        );
      }
    } else {
      if (r.post_only) {
        throw new SandboxError(ErrorCode.postOnlyLimitOnly, 'post-only is only for limit orders');
      }
      const book = this.engine.book(market.symbol);
      const best = (r.side === 'buy' ? book.asks : book.bids).best();
      if (!best) {
        throw new SandboxError(
          ErrorCode.insufficientLiquidity,
          'insufficient liquidity for a market order',
        );
      }
      if (r.limit_slippage) {
        const bp = r.max_slippage_basis_point;
        if (bp === undefined) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            'max_slippage_basis_point is required when limit_slippage is true',
          );
        }
        if (!Number.isInteger(bp) || bp < 0 || bp > 10_000) {
          throw new SandboxError(
            ErrorCode.slippageOutOfRange,
            'max slippage basis points must be within 0..10000',
          );
        }
        slippageBp = bp;
        const n = best.price * BigInt(r.side === 'buy' ? 10_000 + bp : 10_000 - bp);
        marketLimitTicks = r.side === 'buy' ? n / 10_000n : (n + 9_999n) / 10_000n;
      }
      // A market order's size is valued at the best price, whatever its limit.
      priceTicks = best.price;
    }
    if (this.adaEquivalent(market, quantity, priceTicks) < MIN_ORDER_LOVELACE) {
      throw new SandboxError(
        ErrorCode.belowMinimumSize,
        'order size is below the minimum (5 ADA equivalent)',
      );
    }
    return {
      id: orderId,
      accountId: account.id,
      market,
      side: r.side,
      type: r.type,
      quantity,
      priceTicks: r.type === 'limit' ? priceTicks : 0n,
      marketLimitTicks,
      slippageBp,
      postOnly: r.post_only === true,
      commissionRateBp: this.rules.commissionBp,
    };
  }

  private adaEquivalent(market: Market, base: bigint, priceTicks: bigint): bigint {
    if (market.base.unit === ADA.unit) return base;
    const quote = this.engine.quoteFor(market, base, priceTicks);
    const ada = MARKETS[0] as Market;
    return (quote * PRICE_SCALE) / this.markPrice(ada);
  }

  /** Business checks that hold both at build and again at submit. */
  private checkPlaceable(terms: Omit<PlaceOrder, 'utxoId' | 'at'>): {
    base: bigint;
    quote: bigint;
  } {
    this.checkTradingOpen();
    if (
      terms.type === 'limit' &&
      this.engine.openAccount(terms.accountId).openOrders >= this.rules.maxOpenOrders
    ) {
      throw new SandboxError(
        ErrorCode.tooManyOpenOrders,
        `too many open orders (max ${this.rules.maxOpenOrders})`,
      );
    }
    if (
      terms.postOnly &&
      this.engine.wouldCross(terms.market.symbol, terms.side, terms.priceTicks)
    ) {
      throw new SandboxError(ErrorCode.postOnlyWouldMatch, 'post-only order would match');
    }
    const lock = this.engine.lockFor(terms);
    const base = this.engine.balance(terms.accountId, terms.market.base.unit);
    const quote = this.engine.balance(terms.accountId, terms.market.quote.unit);
    if (base.free < lock.base || quote.free < lock.quote || lock.base + lock.quote === 0n) {
      throw new SandboxError(ErrorCode.insufficientBalance, 'insufficient balance to place order');
    }
    return lock;
  }

  private buildOrder(
    accountId: string,
    request: OrderRequest,
    at: number,
  ): { order_id: string; tx_hex: string } {
    const account = this.account(accountId);
    this.checkTradingOpen();
    const signer = this.operationKey(account);
    const terms = this.orderTerms(account, request, this.ids.uuid());
    const lock = this.checkPlaceable(terms);
    const locked = new Map<string, bigint>();
    if (lock.base > 0n) locked.set(terms.market.base.unit, lock.base);
    if (lock.quote > 0n) locked.set(terms.market.quote.unit, lock.quote);
    const change = new Map<string, bigint>();
    for (const asset of ASSETS) {
      const free = this.engine.balance(accountId, asset.unit).free - (locked.get(asset.unit) ?? 0n);
      if (free > 0n) change.set(asset.unit, free);
    }
    const tx = placeOrderTransaction({
      accountUtxo: account.utxoId,
      accountAddress: account.wallet.exchangeAddress,
      order: {
        orderId: terms.id,
        longUnit: terms.market.base.unit,
        shortUnit: terms.market.quote.unit,
        isLong: terms.side === 'buy',
        priceTimes1e9: (terms.marketLimitTicks ?? terms.priceTicks) * (PRICE_TIMES / PRICE_SCALE),
        size: terms.quantity,
        feeBp: terms.commissionRateBp,
        account: accountKeys(account),
      },
      locked,
      change,
      ttlSlot: slotAt(at + this.rules.orderTtlMs),
    });
    this.pending.add({
      kind: 'order',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.orderTtlMs,
      signer,
      inputs: [account.utxoId],
      order: terms,
    });
    return { order_id: terms.id, tx_hex: tx.txHex };
  }

  /**
   * Finds the build a signed transaction answers (see `PendingBuilds.find`) and returns the key
   * hash that must have signed it.
   */
  pendingFor(
    kind: PendingKind,
    accountId: string,
    txId: string,
    at: number,
    orderId?: string,
  ): { signer: string } {
    const order =
      orderId === undefined
        ? undefined
        : { id: orderId, submitted: this.findOrder(orderId)?.accountId === accountId };
    return { signer: this.pending.find(kind, accountId, txId, at, order).signer };
  }

  private submitOrder(orderId: string, txId: string, at: number): Order {
    const p = this.pending.take('order', txId, at);
    if (p.order.id !== orderId) throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
    this.checkPlaceable(p.order);
    const account = this.account(p.accountId);
    const order = this.engine.placeOrder({ ...p.order, utxoId: utxoId(txId, 0), at });
    let orders = this.ordersByAccount.get(account.id);
    if (!orders) {
      orders = [];
      this.ordersByAccount.set(account.id, orders);
    }
    orders.push(order);
    account.utxoId = utxoId(txId, 1);
    this.pending.markSubmitted(txId);
    return order;
  }

  private buildCancel(accountId: string, orderId: string, at: number): { tx_hex: string } {
    const account = this.account(accountId);
    this.checkTradingOpen();
    const signer = this.operationKey(account);
    const order = this.order(accountId, orderId);
    if (!isOpen(order)) throw new SandboxError(ErrorCode.orderNotOpen, 'order is not open');
    const amounts = new Map<string, bigint>();
    if (order.lockedBase > 0n) amounts.set(order.market.base.unit, order.lockedBase);
    if (order.lockedQuote > 0n) amounts.set(order.market.quote.unit, order.lockedQuote);
    const tx = cancelOrderTransaction({
      orderUtxo: order.utxoId,
      orderId,
      account: accountKeys(account),
      accountAddress: account.wallet.exchangeAddress,
      refund: amounts,
      ttlSlot: slotAt(at + this.rules.orderTtlMs),
    });
    this.pending.add({
      kind: 'cancel',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.orderTtlMs,
      signer,
      inputs: [order.utxoId],
      orderId,
    });
    return { tx_hex: tx.txHex };
  }

  private submitCancel(txId: string, at: number): { tx_hash: string } {
    const p = this.pending.take('cancel', txId, at);
    this.checkTradingOpen();
    const order = this.order(p.accountId, p.orderId);
    if (!isOpen(order)) {
      throw new SandboxError(
        ErrorCode.orderStateInvalid,
        `order state changed since the cancel was built (now ${order.status})`,
      );
    }
    this.engine.cancelOrder(order.id, at);
    this.account(p.accountId).utxoId = utxoId(txId, 0);
    this.pending.markSubmitted(txId);
    return { tx_hash: txId };
  }

  // ---- snapshots ----

  /**
   * Moves the closed orders of traders into the archive: they never change again, so they are
   * written once (the lines returned, for the archive file) instead of in every snapshot.
   */
  archiveClosed(): string {
    let lines = '';
    const touched = new Set<string>();
    for (const order of this.engine.orders.values()) {
      if (isOpen(order) || !this.accounts.has(order.accountId)) continue;
      lines += this.archive.add(order);
      this.engine.orders.delete(order.id);
      touched.add(order.accountId);
    }
    for (const accountId of touched) {
      const orders = this.ordersByAccount.get(accountId) ?? [];
      this.ordersByAccount.set(
        accountId,
        orders.filter((o) => !this.archive.has(o.id)),
      );
    }
    return lines;
  }

  /** The whole state as plain data, archived orders left out (see `restore`). */
  snapshot(): ExchangeSnapshot {
    return {
      accounts: [...this.accounts.values()].map((a) => ({
        id: this.ids.compact(a.id),
        keyHashes: a.keyHashes,
        wallet: a.wallet,
        operationKeyHash: a.operationKeyHash,
        utxoId: a.utxoId,
      })),
      faucetPaid: [...this.faucetPaid].map(([address, paid]) => [address, amountRows(paid)]),
      minted: amountRows(this.minted),
      burned: amountRows(this.burned),
      tradingLocked: this.tradingLocked,
      engine: this.engine.snapshot(this.ids),
      l1: this.l1.snapshot(),
      pending: this.pending.snapshot(),
      funds: this.funds.snapshot(),
      marketMaker: this.marketMaker.snapshot(this.ids),
      takers: this.takers.snapshot(),
    };
  }

  /** Loads a snapshot into this exchange, fresh from the constructor with the same rules. */
  restore(s: ExchangeSnapshot): void {
    for (const raw of list(s.accounts)) {
      const a = raw as Record<string, unknown>;
      const wallet = a.wallet as Record<string, unknown>;
      this.addAccount({
        id: this.ids.expand(a.id as number | string),
        keyHashes: list(a.keyHashes).map(str),
        wallet: {
          bech32: str(wallet.bech32),
          paymentKeyHash: str(wallet.paymentKeyHash),
          exchangeAddress: str(wallet.exchangeAddress),
        },
        operationKeyHash: a.operationKeyHash === null ? null : str(a.operationKeyHash),
        utxoId: str(a.utxoId),
      });
    }
    for (const row of list(s.faucetPaid)) {
      const [address, paid] = list(row);
      this.faucetPaid.set(str(address), amountMap(paid));
    }
    this.minted.clear();
    for (const [unit, q] of amountMap(s.minted)) this.minted.set(unit, q);
    for (const [unit, q] of amountMap(s.burned)) this.burned.set(unit, q);
    this.tradingLocked = s.tradingLocked === true;
    this.engine.restore(s.engine, this.ids);
    for (const order of this.engine.orders.values()) {
      if (!this.accounts.has(order.accountId)) continue;
      let orders = this.ordersByAccount.get(order.accountId);
      if (!orders) {
        orders = [];
        this.ordersByAccount.set(order.accountId, orders);
      }
      orders.push(order);
    }
    this.l1.restore(s.l1);
    this.pending.restore(s.pending);
    this.funds.restore(s.funds);
    this.marketMaker.restore(s.marketMaker, this.ids);
    this.takers.restore(s.takers);
  }

  // ---- conservation ----

  /**
   * Every unit's holdings: L1 outputs, account balances (free and locked, pending deposits
   * included), the exchange's fees, withdrawals on their way, and L1 fees paid. Equals `minted`.
   */
  holdings(): Map<string, bigint> {
    const total = this.l1.totals();
    for (const account of this.engine.accounts.values()) {
      for (const [unit, b] of account.balances) addAmount(total, unit, b.free + b.locked);
    }
    for (const [unit, q] of this.engine.fees) addAmount(total, unit, q);
    for (const [unit, q] of this.burned) addAmount(total, unit, q);
    for (const [unit, q] of this.funds.inFlightWithdrawals()) addAmount(total, unit, q);
    return total;
  }
}

export interface ExchangeSnapshot {
  accounts: {
    id: number | string;
    keyHashes: string[];
    wallet: WalletAddress;
    operationKeyHash: string | null;
    utxoId: string;
  }[];
  faucetPaid: [string, AmountRows][];
  minted: AmountRows;
  burned: AmountRows;
  tradingLocked: boolean;
  engine: EngineSnapshot;
  l1: L1Snapshot;
  pending: PendingSnapshot;
  funds: FundsSnapshot;
  marketMaker: MarketMakerSnapshot;
  takers: number;
}
