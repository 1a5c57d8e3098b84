import { EXCHANGE_ADDRESSES, parseWalletAddress, type WalletAddress } from './addresses.js';
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
import { MatchingEngine, type PlaceOrder } from './engine.js';
import { ErrorCode, SandboxError } from './errors.js';
import type { IdSequence } from './ids.js';
import {
  fromAmountRecord,
  type AmountRecord,
  type JournalEntry,
  type OrderRequest,
} from './journal-entries.js';
import { L1Ledger, utxoId, type L1Utxo } from './l1-ledger.js';
import { MARKET_MAKER_ACCOUNT, MarketMaker } from './market-maker.js';
import { isOpen, type Order } from './orders.js';
import { buildTransaction, l1Fee, orderDatum, slotAt, type TxOutputSpec } from './transactions.js';

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

/** Minimum order size, deposit and withdrawal, and the withdrawal fee, in lovelace. */
export const MIN_ORDER_LOVELACE = 5_000_000n;
export const MIN_FUNDS_LOVELACE = 2_000_000n;
export const WITHDRAWAL_FEE_LOVELACE = 1_000_000n;
/** Smallest change output a deposit may leave behind. */
const MIN_CHANGE_LOVELACE = 1_000_000n;

export interface Account {
  readonly id: string;
  readonly apiKey: string;
  readonly wallet: WalletAddress;
  readonly operationKeyHash: string | null;
  /** The account's current exchange-side UTxO, spent by its next order. */
  utxoId: string;
}

interface PendingBase {
  readonly txId: string;
  readonly txHex: string;
  readonly bodyHex: string;
  readonly accountId: string;
  readonly expiresAt: number;
  readonly signer: string;
}
type Pending =
  | (PendingBase & { kind: 'order'; order: Omit<PlaceOrder, 'utxoId' | 'at'> })
  | (PendingBase & { kind: 'cancel'; orderId: string })
  | (PendingBase & {
      kind: 'deposit';
      inputs: readonly string[];
      amounts: Map<string, bigint>;
      change: Map<string, bigint>;
      fee: bigint;
    })
  | (PendingBase & { kind: 'withdrawal'; amounts: Map<string, bigint>; fee: bigint });

export type PendingKind = Pending['kind'];

interface InFlight {
  readonly accountId: string;
  readonly address: string;
  readonly txId: string;
  readonly amounts: Map<string, bigint>;
  readonly dueAt: number;
}

const MARKET_MAKER_INVENTORY = 1_000_000_000_000_000n;

function add(map: Map<string, bigint>, unit: string, q: bigint): void {
  map.set(unit, (map.get(unit) ?? 0n) + q);
}

/**
 * The whole exchange: accounts, the matching engine, pending builds, the simulated L1 and the
 * market maker. Every change goes through `apply(entry)`, so replaying the journal rebuilds it.
 */
export class Exchange {
  readonly engine: MatchingEngine;
  readonly l1 = new L1Ledger();
  readonly accounts = new Map<string, Account>();
  readonly accountsByKey = new Map<string, Account>();
  readonly marketMaker: MarketMaker;
  /** Everything the faucet and the market maker's inventory created, by unit. */
  readonly minted = new Map<string, bigint>();
  /** L1 fees paid by deposits and withdrawals, gone from every balance. */
  readonly burned = new Map<string, bigint>();
  tradingLocked = false;
  private readonly pending = new Map<string, Pending>();
  private readonly pendingOrderTx = new Map<string, string>();
  private readonly submitted = new Set<string>();
  private readonly deposits: InFlight[] = [];
  private readonly withdrawals: InFlight[] = [];
  private treasuryUtxo: string;
  private lastPrune = 0;

  constructor(
    readonly rules: ExchangeRules,
    readonly ids: IdSequence,
    seed: number,
  ) {
    this.engine = new MatchingEngine(() => this.ids.uuid());
    this.treasuryUtxo = utxoId(this.ids.hash(), 0);
    this.marketMaker = new MarketMaker(seed);
    for (const asset of ASSETS) {
      this.engine.balance(MARKET_MAKER_ACCOUNT, asset.unit).free += MARKET_MAKER_INVENTORY;
      add(this.minted, asset.unit, MARKET_MAKER_INVENTORY);
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
        return this.registerAccount(entry.apiKey, entry.address, entry.operationKeyHash);
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
        return this.buildDeposit(entry.accountId, entry.amounts, entry.inputs, entry.at);
      case 'depositSubmit':
        return this.submitDeposit(entry.txId, entry.at, entry.confirmAt);
      case 'withdrawalBuild':
        return this.buildWithdrawal(entry.accountId, entry.amounts, entry.at);
      case 'withdrawalSubmit':
        return this.submitWithdrawal(entry.txId, entry.at, entry.settleAt);
      case 'marketMaker':
        this.marketMaker.tick(this, entry.at);
        return undefined;
      case 'tradingLock':
        this.tradingLocked = entry.locked;
        return undefined;
    }
  }

  /** Confirms deposits and settles withdrawals that are due; reads call it with the time. */
  settle(at: number): void {
    while (this.deposits.length && (this.deposits[0] as InFlight).dueAt <= at) {
      const d = this.deposits.shift() as InFlight;
      for (const [unit, q] of d.amounts) {
        const b = this.engine.balance(d.accountId, unit);
        b.locked -= q;
        b.free += q;
      }
    }
    while (this.withdrawals.length && (this.withdrawals[0] as InFlight).dueAt <= at) {
      const w = this.withdrawals.shift() as InFlight;
      this.l1.add({ txHash: w.txId, index: 0, address: w.address, amounts: w.amounts });
    }
    if (at - this.lastPrune > 60_000) {
      this.lastPrune = at;
      for (const [txId, p] of this.pending) {
        if (p.expiresAt < at - 60 * 60_000) {
          this.pending.delete(txId);
          if (p.kind === 'order') this.pendingOrderTx.delete(p.order.id);
        }
      }
    }
  }

  account(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw new SandboxError(ErrorCode.userNotFound, 'user not found');
    return account;
  }

  accountByApiKey(apiKey: string): Account | undefined {
    return this.accountsByKey.get(apiKey.toLowerCase());
  }

  order(accountId: string, orderId: string): Order {
    const order = this.engine.orders.get(orderId);
    if (!order || order.accountId !== accountId) {
      throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
    }
    return order;
  }

  ordersOf(accountId: string): Order[] {
    const orders: Order[] = [];
    for (const order of this.engine.orders.values()) {
      if (order.accountId === accountId) orders.push(order);
    }
    return orders;
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

  private registerAccount(
    apiKey: string,
    address: string,
    operationKeyHash: string | null,
  ): { api_key: string; account_id: string } {
    const wallet = parseWalletAddress(address);
    const id = this.ids.uuid();
    const account: Account = {
      id,
      apiKey,
      wallet,
      operationKeyHash,
      utxoId: utxoId(this.ids.hash(), 0),
    };
    this.accounts.set(id, account);
    this.accountsByKey.set(apiKey.toLowerCase(), account);
    this.engine.openAccount(id);
    return { api_key: apiKey, account_id: id };
  }

  private payFromFaucet(address: string, amounts: Map<string, bigint>): L1Utxo {
    const utxo: L1Utxo = { txHash: this.ids.hash(), index: 0, address, amounts };
    this.l1.add(utxo);
    for (const [unit, q] of amounts) add(this.minted, unit, q);
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
    if (!(r.quantity > 0)) {
      throw new SandboxError(ErrorCode.quantityNotPositive, 'quantity must be greater than 0');
    }
    if (decimalPlaces(r.quantity) > market.quantityDecimals) {
      throw new SandboxError(
        ErrorCode.quantityTooPrecise,
        `quantity has too many decimal places (max ${market.quantityDecimals})`,
      );
    }
    const quantity = toUnits(r.quantity, market.base.decimals);
    let priceTicks: bigint;
    let marketLimitTicks: bigint | null = null;
    let slippageBp = 0;
    const mark = this.markPrice(market);
    if (r.type === 'limit') {
      if (r.price === undefined) {
        throw new SandboxError(ErrorCode.invalidRequest, 'price is required for a limit order');
      }
      if (!(r.price > 0)) {
        throw new SandboxError(ErrorCode.priceNotPositive, 'price must be greater than 0');
      }
      if (decimalPlaces(r.price) > market.priceDecimals) {
        throw new SandboxError(
          ErrorCode.priceTooPrecise,
          `price has too many decimal places (max ${market.priceDecimals})`,
        );
      }
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
      priceTicks = marketLimitTicks ?? best.price;
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
    const tx = buildTransaction({
      inputs: [account.utxoId],
      outputs: [
        {
          address: EXCHANGE_ADDRESSES.order,
          amounts: locked,
          datum: orderDatum({
            orderId: terms.id,
            accountId,
            side: terms.side,
            type: terms.type,
            priceTicks: terms.marketLimitTicks ?? terms.priceTicks,
            quantityUnits: terms.quantity,
            slippageBp: terms.slippageBp,
            operationKeyHash: signer,
          }),
        },
        { address: account.wallet.exchangeAddress, amounts: change },
      ],
      fee: 0n,
      ttlSlot: slotAt(at + this.rules.orderTtlMs),
      requiredSigners: [signer],
    });
    this.pending.set(tx.txId, {
      kind: 'order',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.orderTtlMs,
      signer,
      order: terms,
    });
    this.pendingOrderTx.set(terms.id, tx.txId);
    return { order_id: terms.id, tx_hex: tx.txHex };
  }

  /** The transaction built for an order not yet submitted, if any. */
  builtOrder(accountId: string, orderId: string): { txId: string; bodyHex: string } | undefined {
    const txId = this.pendingOrderTx.get(orderId);
    const p = txId === undefined ? undefined : this.pending.get(txId);
    return p && p.accountId === accountId ? { txId: p.txId, bodyHex: p.bodyHex } : undefined;
  }

  /**
   * Finds the build a signed transaction answers, or refuses: 4302 if already submitted, 4402
   * if never built, 4000 if the body differs from the build, 4300 if expired.
   */
  pendingFor(
    kind: PendingKind,
    accountId: string,
    txId: string,
    at: number,
    orderId?: string,
  ): { signer: string } {
    if (this.submitted.has(txId)) {
      throw new SandboxError(ErrorCode.alreadySubmitted, 'transaction already submitted');
    }
    let p = this.pending.get(txId);
    if (kind === 'order' && orderId !== undefined) {
      const builtTx = this.pendingOrderTx.get(orderId);
      if (!builtTx) {
        if (this.engine.orders.get(orderId)?.accountId === accountId) {
          throw new SandboxError(ErrorCode.alreadySubmitted, 'order already submitted');
        }
        throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
      }
      if (builtTx !== txId) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          'transaction body differs from the one built for this order',
        );
      }
      p = this.pending.get(builtTx);
    }
    if (!p || p.kind !== kind || p.accountId !== accountId) {
      throw new SandboxError(
        ErrorCode.transactionNotFound,
        'transaction not found: its body differs from every transaction built for this account',
      );
    }
    if (at > p.expiresAt) {
      throw new SandboxError(ErrorCode.transactionExpired, 'transaction expired, build again');
    }
    return { signer: p.signer };
  }

  private takePending<K extends PendingKind>(
    kind: K,
    txId: string,
    at: number,
  ): Extract<Pending, { kind: K }> {
    const p = this.pending.get(txId);
    if (this.submitted.has(txId)) {
      throw new SandboxError(ErrorCode.alreadySubmitted, 'transaction already submitted');
    }
    if (!p || p.kind !== kind) {
      throw new SandboxError(ErrorCode.transactionNotFound, 'transaction not found');
    }
    if (at > p.expiresAt) {
      throw new SandboxError(ErrorCode.transactionExpired, 'transaction expired, build again');
    }
    return p as Extract<Pending, { kind: K }>;
  }

  private markSubmitted(txId: string): void {
    const p = this.pending.get(txId);
    this.pending.delete(txId);
    if (p?.kind === 'order') this.pendingOrderTx.delete(p.order.id);
    this.submitted.add(txId);
  }

  private submitOrder(orderId: string, txId: string, at: number): Order {
    const p = this.takePending('order', txId, at);
    if (p.order.id !== orderId) throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
    this.checkPlaceable(p.order);
    const account = this.account(p.accountId);
    const order = this.engine.placeOrder({ ...p.order, utxoId: utxoId(txId, 0), at });
    account.utxoId = utxoId(txId, 1);
    this.markSubmitted(txId);
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
    const tx = buildTransaction({
      inputs: [order.utxoId],
      outputs: [{ address: account.wallet.exchangeAddress, amounts }],
      fee: 0n,
      ttlSlot: slotAt(at + this.rules.orderTtlMs),
      requiredSigners: [signer],
    });
    this.pending.set(tx.txId, {
      kind: 'cancel',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.orderTtlMs,
      signer,
      orderId,
    });
    return { tx_hex: tx.txHex };
  }

  private submitCancel(txId: string, at: number): { tx_hash: string } {
    const p = this.takePending('cancel', txId, at);
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
    this.markSubmitted(txId);
    return { tx_hash: txId };
  }

  // ---- deposits and withdrawals ----

  /** Parses `[{unit, quantity}]` amounts: known units, positive integers, ≥ 2 ADA. */
  static fundsAmounts(entries: readonly { unit: string; quantity: string }[]): Map<string, bigint> {
    const amounts = new Map<string, bigint>();
    for (const { unit, quantity } of entries) {
      if (!assetByUnit(unit))
        throw new SandboxError(ErrorCode.invalidRequest, `unknown unit ${unit}`);
      if (!/^[0-9]+$/.test(quantity) || BigInt(quantity) <= 0n) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          `quantity of ${unit} must be a positive integer in the smallest unit`,
        );
      }
      if (amounts.has(unit))
        throw new SandboxError(ErrorCode.invalidRequest, `unit ${unit} repeated`);
      amounts.set(unit, BigInt(quantity));
    }
    if ((amounts.get(ADA.unit) ?? 0n) < MIN_FUNDS_LOVELACE) {
      throw new SandboxError(
        ErrorCode.invalidRequest,
        'the amount must include at least 2 ADA (2000000 lovelace)',
      );
    }
    return amounts;
  }

  private buildDeposit(
    accountId: string,
    amountRecord: AmountRecord,
    inputs: readonly string[],
    at: number,
  ): { tx_hex: string } {
    const account = this.account(accountId);
    const amounts = fromAmountRecord(amountRecord);
    const available = new Map<string, bigint>();
    for (const id of inputs) {
      if (this.l1.isSpent(id))
        throw new SandboxError(ErrorCode.utxoSpent, `UTxO ${id} already spent`);
      const utxo = this.l1.get(id);
      if (!utxo) throw new SandboxError(ErrorCode.invalidRequest, `UTxO ${id} does not exist`);
      if (utxo.address !== account.wallet.bech32) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          `UTxO ${id} does not belong to the account's wallet address`,
        );
      }
      for (const [unit, q] of utxo.amounts) add(available, unit, q);
    }
    const signer = account.wallet.paymentKeyHash;
    const ttlSlot = slotAt(at + this.rules.fundsTtlMs);
    const build = (fee: bigint) => {
      const change = new Map(available);
      for (const [unit, q] of amounts) add(change, unit, -q);
      add(change, ADA.unit, -fee);
      for (const [unit, q] of change) {
        if (q < 0n) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            `input UTxOs do not cover the deposit and the fee (short of ${unit})`,
          );
        }
        if (q === 0n) change.delete(unit);
      }
      if (change.size > 0 && (change.get(ADA.unit) ?? 0n) < MIN_CHANGE_LOVELACE) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          'input UTxOs leave a change output below 1 ADA',
        );
      }
      const outputs: TxOutputSpec[] = [{ address: EXCHANGE_ADDRESSES.deposit, amounts }];
      if (change.size > 0) outputs.push({ address: account.wallet.bech32, amounts: change });
      return {
        change,
        tx: buildTransaction({ inputs, outputs, fee, ttlSlot, requiredSigners: [signer] }),
      };
    };
    const fee = l1Fee(build(200_000n).tx.txHex, 1);
    const { tx, change } = build(fee);
    this.pending.set(tx.txId, {
      kind: 'deposit',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.fundsTtlMs,
      signer,
      inputs,
      amounts,
      change,
      fee,
    });
    return { tx_hex: tx.txHex };
  }

  private submitDeposit(txId: string, at: number, confirmAt: number): { tx_hash: string } {
    const p = this.takePending('deposit', txId, at);
    for (const id of p.inputs) {
      if (!this.l1.get(id)) {
        throw new SandboxError(ErrorCode.utxoSpent, `UTxO ${id} already spent`);
      }
    }
    const account = this.account(p.accountId);
    for (const id of p.inputs) this.l1.spend(id);
    if (p.change.size > 0) {
      this.l1.add({ txHash: txId, index: 1, address: account.wallet.bech32, amounts: p.change });
    }
    add(this.burned, ADA.unit, p.fee);
    for (const [unit, q] of p.amounts) this.engine.balance(p.accountId, unit).locked += q;
    this.deposits.push({
      accountId: p.accountId,
      address: account.wallet.bech32,
      txId,
      amounts: p.amounts,
      dueAt: confirmAt,
    });
    this.deposits.sort((a, b) => a.dueAt - b.dueAt);
    this.markSubmitted(txId);
    return { tx_hash: txId };
  }

  private checkWithdrawable(accountId: string, amounts: Map<string, bigint>): void {
    for (const [unit, q] of amounts) {
      const needed = q + (unit === ADA.unit ? WITHDRAWAL_FEE_LOVELACE : 0n);
      if (this.engine.balance(accountId, unit).free < needed) {
        throw new SandboxError(
          ErrorCode.insufficientBalance,
          `insufficient free balance of ${assetByUnit(unit)?.name ?? unit} (the withdrawal fee is 1 ADA)`,
        );
      }
    }
  }

  private buildWithdrawal(
    accountId: string,
    amountRecord: AmountRecord,
    at: number,
  ): { tx_hex: string } {
    const account = this.account(accountId);
    const amounts = fromAmountRecord(amountRecord);
    this.checkWithdrawable(accountId, amounts);
    const signer = account.wallet.paymentKeyHash;
    const spec = {
      inputs: [this.treasuryUtxo],
      outputs: [{ address: account.wallet.bech32, amounts }],
      ttlSlot: slotAt(at + this.rules.fundsTtlMs),
      requiredSigners: [signer],
    };
    const fee = l1Fee(buildTransaction({ ...spec, fee: 200_000n }).txHex, 2);
    const tx = buildTransaction({ ...spec, fee });
    this.pending.set(tx.txId, {
      kind: 'withdrawal',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.rules.fundsTtlMs,
      signer,
      amounts,
      fee,
    });
    return { tx_hex: tx.txHex };
  }

  private submitWithdrawal(txId: string, at: number, settleAt: number): { tx_hash: string } {
    const p = this.takePending('withdrawal', txId, at);
    this.checkWithdrawable(p.accountId, p.amounts);
    for (const [unit, q] of p.amounts) this.engine.balance(p.accountId, unit).free -= q;
    this.engine.balance(p.accountId, ADA.unit).free -= WITHDRAWAL_FEE_LOVELACE;
    add(this.engine.fees, ADA.unit, WITHDRAWAL_FEE_LOVELACE - p.fee);
    add(this.burned, ADA.unit, p.fee);
    this.withdrawals.push({
      accountId: p.accountId,
      address: this.account(p.accountId).wallet.bech32,
      txId,
      amounts: p.amounts,
      dueAt: settleAt,
    });
    this.withdrawals.sort((a, b) => a.dueAt - b.dueAt);
    this.treasuryUtxo = utxoId(this.ids.hash(), 0);
    this.markSubmitted(txId);
    return { tx_hash: txId };
  }

  // ---- conservation ----

  /**
   * Every unit's holdings: L1 outputs, account balances (free and locked, pending deposits
   * included), the exchange's fees, withdrawals on their way, and L1 fees paid. Equals `minted`.
   */
  holdings(): Map<string, bigint> {
    const total = this.l1.totals();
    for (const account of this.engine.accounts.values()) {
      for (const [unit, b] of account.balances) add(total, unit, b.free + b.locked);
    }
    for (const [unit, q] of this.engine.fees) add(total, unit, q);
    for (const [unit, q] of this.burned) add(total, unit, q);
    for (const w of this.withdrawals) for (const [unit, q] of w.amounts) add(total, unit, q);
    return total;
  }
}
