import type {
  CancelAllResult,
  OrderPreview,
  OrderRequest,
  PreparedOperation,
} from '../../../src-shared/contract';
import { OPEN_STATUSES, type Market, type Order } from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { Money, toSmallestUnit } from '../../../src-shared/money';
import { bestTakenBy } from '../../../src-shared/slippage';
import { ExchangeError, type ExchangeClient } from '../../exchange';
import type { CancelOrderIntent, PlaceOrderIntent, TransactionSigner } from '../../signing';
import type { SettingsStore } from '../../store/settings';
import type { WalletBook } from '../../wallet';
import { activeAccount, signingProfile, type TradingAccount } from '../network/account';
import { assetOf, inUnits, marketOf, shownPrice, type ExchangeRules } from '../network/rules';
import type { Connection, NetworkService } from '../network/service';
import type { OperationsService, ToReview } from '../operations/service';
import {
  preTrade,
  slippageToAsk,
  worstAcceptedPrice,
  type PreTradeResult,
  type TradeContext,
} from './pre-trade';

export interface TradingDeps {
  network: NetworkService;
  book: WalletBook;
  settings: SettingsStore;
  signer: TransactionSigner;
  operations: OperationsService;
  /** The unlocked session's API key (throws LOCKED while locked). */
  apiKey: () => string;
  /** The account's own address at the exchange (sandbox), for the signer's profile. */
  accountAddress: (connection: Connection, account: TradingAccount) => Promise<string | undefined>;
}

/**
 * How many times a market order is built again when the book moved between main's read of it
 * and the exchange's build (see `prepareOrder`): a fast book may move more than once, a few
 * times at most before the trader is shown the difference.
 */
const MARKET_REBUILDS = 2;

/**
 * What an open order still locks, in smallest units, as its record states it: rounded up where
 * the record is exact (the sandbox's), down where it is a floor (the real service's human units).
 */
const lockedBy = (
  order: Order,
  rules: ExchangeRules,
  rounding: typeof Money.ROUND_UP | typeof Money.ROUND_DOWN = Money.ROUND_UP,
): Map<string, bigint> => {
  const market = marketOf(rules, order.symbol);
  const locked = new Map<string, bigint>();
  if (!market) return locked;
  for (const [unit, amount] of [
    [market.baseUnit, order.lockedBaseQty],
    [market.quoteUnit, order.lockedQuoteQty],
  ] as const) {
    const { decimals } = assetOf(rules, unit);
    const q = toSmallestUnit(amount.toDecimalPlaces(decimals, rounding), decimals);
    if (q > 0n) locked.set(unit, q);
  }
  return locked;
};

const describeOrder = (order: OrderRequest, market: Market): string => {
  const verb = order.side === 'buy' ? 'Buy' : 'Sell';
  return order.type === 'limit' && order.price !== undefined
    ? `${verb} ${inUnits(market, order.symbol, order.quantity, shownPrice(market, new Money(order.price)))}`
    : `Market ${verb.toLowerCase()} ${order.quantity} ${market.base}${order.slippageBp !== undefined ? ` (at most ${order.slippageBp / 100}% slippage)` : ''}`;
};

/**
 * Orders and cancels: pre-trade checks, then build (exchange) → decode and check against what
 * the trader asked (signer) → handed to the operations service for confirmation, signature with
 * the session's operation key, journal and submit.
 */
export class TradingService {
  constructor(private readonly deps: TradingDeps) {}

  async #client(connection: Connection): Promise<ExchangeClient> {
    return connection.client(this.deps.apiKey());
  }

  async #context(
    connection: Connection,
    client: ExchangeClient,
    rules: ExchangeRules,
    order: OrderRequest,
  ): Promise<TradeContext> {
    const market = marketOf(rules, order.symbol);
    if (!market) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `${order.symbol} is not a market on ${connection.label}. Choose one of ${rules.markets.map((m) => m.symbol).join(', ')}.`,
      );
    }
    const adaMarket = rules.markets.find((m) => m.base === 'ADA' && m.quote === market.quote);
    const [balances, depth, lastPrice, adaPrice, open] = await Promise.all([
      client.balances(),
      client.depth(order.symbol),
      client.marketPrice(order.symbol).catch(() => null),
      market.base === 'ADA' || !adaMarket
        ? Promise.resolve(null)
        : client.marketPrice(adaMarket.symbol).catch(() => null),
      client.orderRecords({ status: 'open', page: 1, limit: 1 }),
    ]);
    const { limits } = await this.deps.settings.read();
    return {
      market,
      balances,
      lastPrice,
      bestAsk: depth.asks[0]?.price ?? null,
      bestBid: depth.bids[0]?.price ?? null,
      adaPrice,
      openOrders: open.totalCount,
      priceBandBp: rules.priceBandBp,
      maxOpenOrdersExchange: rules.maxOpenOrders,
      limits,
    };
  }

  async #check(order: OrderRequest): Promise<{
    connection: Connection;
    client: ExchangeClient;
    rules: ExchangeRules;
    result: PreTradeResult;
  }> {
    const connection = await this.deps.network.connection();
    const client = await this.#client(connection);
    const rules = await connection.rules();
    const context = await this.#context(connection, client, rules, order);
    return { connection, client, rules, result: preTrade(order, context) };
  }

  async preview(order: OrderRequest): Promise<OrderPreview> {
    const { result } = await this.#check(order);
    const {
      lockAmount: _a,
      lockUnit: _u,
      lockIsUpperBound: _b,
      bestPrice: _p,
      worst: _w,
      ...preview
    } = result;
    return preview;
  }

  async prepareOrder(order: OrderRequest): Promise<PreparedOperation> {
    const { connection, client, rules, result } = await this.#check(order);
    const market = marketOf(rules, order.symbol);
    if (!market)
      throw new AppError(ErrorCode.InvalidInput, `${order.symbol} is not a market here.`);
    if (result.problems.length) {
      throw new AppError(ErrorCode.InvalidInput, `${result.problems.join(' ')} Nothing was sent.`);
    }
    const title = describeOrder(order, market);
    const operation = this.deps.operations.begin('place-order', title);
    try {
      const account = await activeAccount(this.deps.book, connection);
      const quantity = new Money(order.quantity);
      const price = order.price === undefined ? undefined : new Money(order.price);
      // Everything the check needs that does not depend on the exchange's answer is ready before
      // the build is asked for, so the build's answer is read, signed and sent without delay.
      const lockAsset = assetOf(rules, result.lockUnit);
      const lockQuantity = toSmallestUnit(
        result.lockAmount.toDecimalPlaces(lockAsset.decimals, Money.ROUND_UP),
        lockAsset.decimals,
      );
      const { unverifiedOrders } = await this.deps.settings.read();
      const profile = signingProfile(connection, account, rules, {
        accountAddress: await this.deps.accountAddress(connection, account),
        ...(connection.choice.name !== 'sandbox'
          ? { unverifiedOrders: unverifiedOrders[connection.choice.name] }
          : {}),
      });
      const terms = {
        side: order.side,
        type: order.type,
        baseUnit: market.baseUnit,
        quoteUnit: market.quoteUnit,
        quantityUnits: toSmallestUnit(quantity, assetOf(rules, market.baseUnit).decimals),
        price: price ?? worstAcceptedPrice(order, result.worst),
      };
      // Builds the order with the slippage limit that keeps it within the accepted price,
      // counted from `best`, the best price on its side of the book as main last read it.
      const build = async (best: Money | null): Promise<ToReview> => {
        const slippage = slippageToAsk(order, terms.price, best, market);
        if (!slippage.ok) throw new AppError(ErrorCode.InvalidInput, slippage.message);
        let built: { orderId: string; txHex: string };
        try {
          built = await client.buildOrder({
            symbol: order.symbol,
            side: order.side,
            type: order.type,
            quantity,
            ...(price ? { price } : {}),
            ...(slippage.slippageBp !== undefined ? { slippageBp: slippage.slippageBp } : {}),
            ...(order.postOnly ? { postOnly: true } : {}),
          });
        } catch (error) {
          throw this.#withFigures(error, result);
        }
        this.deps.operations.progress(operation, 'checking');
        const intent: PlaceOrderIntent = {
          kind: 'place-order',
          lock: {
            unit: result.lockUnit,
            quantity: lockQuantity,
            ...(result.lockIsUpperBound ? { upTo: true } : {}),
          },
          terms: { orderId: built.orderId, ...terms },
        };
        return {
          kind: 'place-order',
          title,
          connection,
          txHex: built.txHex,
          intent,
          profile,
          keys: {
            operationKeyHash: account.wallet.operationKeyHash,
            paymentKeyHash: account.paymentKeyHash,
          },
          orderTerms: {
            side: order.side,
            price: order.price ?? null,
            quantity: order.quantity,
            orderId: built.orderId,
          },
          offline: false,
          orderId: built.orderId,
          cancelsOrderId: null,
          ttlSeconds: rules.orderTtlSeconds,
        };
      };
      // A market order's limit moves with the book the exchange counts it from.
      const movesWithBook = order.type === 'market' && order.slippageBp !== undefined;
      // The order before it must have landed, or both would spend the same account coin.
      const waited = await this.deps.operations.tradesSettled();
      const best =
        waited && movesWithBook ? await this.#bestPrice(client, order) : result.bestPrice;
      // The best price the order last built was narrowed from, and how many builds are left.
      let builtFrom = best;
      let rebuildsLeft = MARKET_REBUILDS;
      return await this.deps.operations.review(operation, await build(best), {
        ...(movesWithBook
          ? {
              // The exchange counts the limit from its best price when it builds. When the book
              // moved between main's read and the build, that limit can pass the accepted price
              // and the signer finds the difference. Read once more and build again, narrowed
              // from the new best price (a fast book may move again: a few times at most); a book
              // that did not move gets no further build, and each build is checked like the first.
              rebuild: async () => {
                if (rebuildsLeft <= 0) return null;
                const now = await this.#bestPrice(client, order);
                if (now === null || builtFrom === null || now.eq(builtFrom)) return null;
                rebuildsLeft -= 1;
                builtFrom = now;
                this.deps.operations.progress(operation, 'building');
                return build(now);
              },
            }
          : {}),
      });
    } catch (error) {
      this.deps.operations.progress(
        operation,
        'failed',
        error instanceof AppError ? error.message : null,
      );
      throw error;
    }
  }

  /** The best price a market order takes from now (the ask for a buy, the bid for a sell). */
  async #bestPrice(client: ExchangeClient, order: OrderRequest): Promise<Money | null> {
    return bestTakenBy(order.side, await client.depth(order.symbol));
  }

  /** Adds the figures the app knows to the exchange's "insufficient balance". */
  #withFigures(error: unknown, result: PreTradeResult): unknown {
    if (error instanceof ExchangeError && error.exchangeCode === 4050) {
      return new AppError(
        ErrorCode.Exchange,
        `Not enough free ${result.free.asset}: ${result.lock.amount} needed, ${result.free.amount} free (the exchange says so too). Nothing was sent.`,
        { cause: error },
      );
    }
    return error;
  }

  async #openOrder(client: ExchangeClient, orderId: string): Promise<Order> {
    const order = await client.order(orderId);
    if (!OPEN_STATUSES.includes(order.status)) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `This order is ${order.status.replace('_', ' ')}, so there is nothing to cancel.`,
      );
    }
    if (!order.activeOrderUtxoId) {
      throw new AppError(
        ErrorCode.Exchange,
        'The exchange does not say where this order’s funds are locked, so its cancel cannot be checked. Nothing was signed; try again in a moment.',
      );
    }
    return order;
  }

  async prepareCancel(request: { orderId: string }): Promise<PreparedOperation> {
    const connection = await this.deps.network.connection();
    const client = await this.#client(connection);
    const order = await this.#openOrder(client, request.orderId);
    const rules = await connection.rules();
    // In the words of the order it cancels: "Cancel sell 20 ADA at 0.9000 USDM".
    const title = `Cancel ${order.side} ${inUnits(marketOf(rules, order.symbol), order.symbol, order.openBaseQty.toFixed(), order.price ? shownPrice(marketOf(rules, order.symbol), order.price) : null)}`;
    const operation = this.deps.operations.begin('cancel-order', title);
    try {
      const account = await activeAccount(this.deps.book, connection);
      // As for an order: what the check needs is ready before the build is asked for.
      const { unverifiedOrders } = await this.deps.settings.read();
      const profile = signingProfile(connection, account, rules, {
        accountAddress: await this.deps.accountAddress(connection, account),
        ...(connection.choice.name !== 'sandbox'
          ? { unverifiedOrders: unverifiedOrders[connection.choice.name] }
          : {}),
      });
      await this.deps.operations.tradesSettled();
      const { txHex } = await client.buildCancel(order.id);
      this.deps.operations.progress(operation, 'checking');
      const intent: CancelOrderIntent = {
        kind: 'cancel-order',
        orderId: order.id,
        orderUtxo: order.activeOrderUtxoId ?? '',
        // The sandbox's records state exactly what an order locks: the cancel returns exactly
        // that. The real service's are in human units: the cancel returns at least that.
        ...(connection.isSandbox
          ? { refund: lockedBy(order, rules) }
          : { refund: lockedBy(order, rules, Money.ROUND_DOWN), refundAtLeast: true }),
      };
      return this.deps.operations.review(operation, {
        kind: 'cancel-order',
        title,
        connection,
        txHex,
        intent,
        profile,
        keys: {
          operationKeyHash: account.wallet.operationKeyHash,
          paymentKeyHash: account.paymentKeyHash,
        },
        offline: false,
        orderId: null,
        cancelsOrderId: order.id,
        ttlSeconds: rules.orderTtlSeconds,
      });
    } catch (error) {
      this.deps.operations.progress(
        operation,
        'failed',
        error instanceof AppError ? error.message : null,
      );
      throw error;
    }
  }

  /**
   * Cancels every open order of a market, one after another. Each cancel is checked by the signer
   * like any other and signed with the trading key; one that fails does not stop the rest.
   */
  async cancelAll(request: { symbol: string }): Promise<CancelAllResult> {
    const connection = await this.deps.network.connection();
    const client = await this.#client(connection);
    const open: Order[] = [];
    for (let page = 1; page <= 1000; page += 1) {
      const records = await client.orderRecords({
        status: 'open',
        page,
        limit: 250,
        symbol: request.symbol,
      });
      open.push(...records.orders.filter((o) => o.symbol === request.symbol));
      if (page >= records.totalPages || records.orders.length === 0) break;
    }
    const result: CancelAllResult = { cancelled: [], failed: [] };
    for (const order of open) {
      try {
        const prepared = await this.prepareCancel({ orderId: order.id });
        if (!prepared.check.matches) {
          this.deps.operations.discard(prepared.operationId);
          throw new AppError(
            ErrorCode.IntentMismatch,
            `Not signed: ${[...prepared.check.differences, ...prepared.check.warnings].join(' ')}`,
          );
        }
        await this.deps.operations.confirm({ operationId: prepared.operationId });
        result.cancelled.push(order.id);
      } catch (error) {
        result.failed.push({
          orderId: order.id,
          message:
            error instanceof AppError ? error.message : 'It could not be cancelled; try again.',
        });
      }
    }
    return result;
  }
}
