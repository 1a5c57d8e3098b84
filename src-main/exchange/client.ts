import type {
  Balance,
  Candle,
  Depth,
  MarketTrade,
  Order,
  OrderPage,
} from '../../src-shared/domain';
import type { Money } from '../../src-shared/money';
import { operationKey } from './account';
import { systemClock } from './clock';
import type { ApiContext } from './context';
import { ExchangeError, invalidInput as invalid } from './errors';
import { balances, buildDeposit, buildWithdrawal, submitDeposit, submitWithdrawal } from './funds';
import { HttpTransport, type HttpOptions, type ServiceProfile } from './http';
import { candles, depth, marketPrice, recentTrades } from './market';
import {
  buildCancel,
  buildOrder,
  OrderLookup,
  orderRecords,
  submitCancel,
  submitOrder,
  type OrderRecordsQuery,
  type OrderRequest,
} from './orders';
import { ExchangeStreams, type StreamOptions } from './streams';
import type { InputUtxo, UnitAmount } from './wire';

export interface ExchangeConfig {
  /** `https://api.deltadefi.io`, or the embedded sandbox's `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** Sent as `X-API-KEY` on the account's endpoints. */
  apiKey?: string;
  /** Where the WebSocket streams are (`wss://…`, `ws://127.0.0.1:PORT`); none: streams report down. */
  streamUrl?: string;
}

export interface ExchangeClientOptions extends HttpOptions {
  /** How messages name the server ("the exchange", "the built-in practice exchange"). */
  service?: ServiceProfile;
  /** Options of the WebSocket streams (ping, backoff); logger and clock are shared. */
  streams?: Omit<StreamOptions, 'logger' | 'clock'>;
}

/**
 * The trading service's client: one method per operation, in the seed's words, returning the
 * app's domain types (money as decimal.js). Reads retry what is safe to retry; submits are
 * never re-sent, and a submit whose outcome is unknown fails with `ambiguous: true` so the
 * caller asks the server (order record, balance, tx hash) before offering to try again.
 */
export class ExchangeClient {
  readonly #http: HttpTransport;
  readonly #api: ApiContext;
  readonly #lookup = new OrderLookup();
  readonly #config: ExchangeConfig;
  readonly #options: ExchangeClientOptions;
  #streams: ExchangeStreams | null = null;

  constructor(config: ExchangeConfig, options: ExchangeClientOptions = {}) {
    const apiKey = config.apiKey;
    if (apiKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(apiKey)) {
      throw invalid('The API key has characters an API key cannot have. Check it in Settings.');
    }
    this.#config = config;
    this.#options = options;
    this.#http = new HttpTransport(
      { baseUrl: config.baseUrl, ...(options.service ? { service: options.service } : {}) },
      options,
    );
    const clock = options.clock ?? systemClock;
    this.#api = {
      http: this.#http,
      now: () => clock.now(),
      auth: (action, endpoint) => {
        if (!apiKey) {
          throw new ExchangeError({
            failure: 'no-api-key',
            detail: `No API key is set for this network, so Countersign cannot ${action}.`,
            advice:
              'Add the API key in Settings (on the practice exchange, join it from the wallet screen).',
            endpoint,
          });
        }
        return { 'x-api-key': apiKey };
      },
    };
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** Live updates over WebSocket, from the same configuration. */
  get streams(): ExchangeStreams {
    this.#streams ??= new ExchangeStreams(
      {
        ...(this.#config.streamUrl ? { streamUrl: this.#config.streamUrl } : {}),
        ...(this.#config.apiKey ? { apiKey: this.#config.apiKey } : {}),
      },
      {
        ...this.#options.streams,
        ...(this.#options.logger ? { logger: this.#options.logger } : {}),
        ...(this.#options.clock ? { clock: this.#options.clock } : {}),
      },
    );
    return this.#streams;
  }

  /** `POST /order/build`: the unsigned order transaction and the id to submit it with. */
  buildOrder(req: OrderRequest, signal?: AbortSignal): Promise<{ orderId: string; txHex: string }> {
    return buildOrder(this.#api, req, signal);
  }

  /** `POST /order/submit`. Never re-sent; see the class comment. */
  submitOrder(req: { orderId: string; signedTx: string }, signal?: AbortSignal): Promise<Order> {
    return submitOrder(this.#api, req, signal);
  }

  /** `GET /accounts/order-records`. */
  orderRecords(query: OrderRecordsQuery, signal?: AbortSignal): Promise<OrderPage> {
    return orderRecords(this.#api, query, signal);
  }

  /** `GET /account/order?id=` (or `GET /accounts/order/<id>`): one order with its executions. */
  order(orderId: string, signal?: AbortSignal): Promise<Order> {
    return this.#lookup.order(this.#api, orderId, signal);
  }

  /** `GET /accounts/balance`. */
  balances(signal?: AbortSignal): Promise<Balance[]> {
    return balances(this.#api, signal);
  }

  /** `POST /accounts/deposit/build`: amounts in smallest units, from the given L1 coins. */
  buildDeposit(
    req: { amounts: readonly UnitAmount[]; inputUtxos: readonly InputUtxo[] },
    signal?: AbortSignal,
  ): Promise<{ txHex: string }> {
    return buildDeposit(this.#api, req, signal);
  }

  /** `POST /accounts/deposit/submit`. */
  submitDeposit(signedTx: string, signal?: AbortSignal): Promise<{ txHash: string }> {
    return submitDeposit(this.#api, signedTx, signal);
  }

  /** `POST /accounts/withdrawal/build`: amounts in smallest units. */
  buildWithdrawal(
    req: { amounts: readonly UnitAmount[] },
    signal?: AbortSignal,
  ): Promise<{ txHex: string }> {
    return buildWithdrawal(this.#api, req, signal);
  }

  /** `POST /accounts/withdrawal/submit`. */
  submitWithdrawal(signedTx: string, signal?: AbortSignal): Promise<{ txHash: string }> {
    return submitWithdrawal(this.#api, signedTx, signal);
  }

  /** `DELETE /order/<id>/build`. */
  buildCancel(orderId: string, signal?: AbortSignal): Promise<{ txHex: string }> {
    return buildCancel(this.#api, orderId, signal);
  }

  /** `DELETE /order/submit`: the tx hash, or null where the deployment answers `{}`. */
  submitCancel(signedTx: string, signal?: AbortSignal): Promise<{ txHash: string | null }> {
    return submitCancel(this.#api, signedTx, signal);
  }

  /** `GET /market/market-price?symbol=`. */
  marketPrice(symbol: string, signal?: AbortSignal): Promise<Money> {
    return marketPrice(this.#api, symbol, signal);
  }

  /** `GET /market/depth?symbol=`: bids best (highest) first, asks best (lowest) first. */
  depth(symbol: string, signal?: AbortSignal): Promise<Depth> {
    return depth(this.#api, symbol, signal);
  }

  /** `GET /market/graph/<symbol>?interval=&start=&end=`, oldest first. */
  candles(
    symbol: string,
    interval: string,
    startSec: number,
    endSec: number,
    signal?: AbortSignal,
  ): Promise<Candle[]> {
    return candles(this.#api, symbol, interval, startSec, endSec, signal);
  }

  /** `GET /market/recent-trades?symbol=&limit=`, newest first as the exchange sends them. */
  recentTrades(symbol: string, limit: number, signal?: AbortSignal): Promise<MarketTrade[]> {
    return recentTrades(this.#api, symbol, limit, signal);
  }

  /** `GET /accounts/operation-key`; an account without one fails with code 4406 in words. */
  operationKey(
    signal?: AbortSignal,
  ): Promise<{ encryptedOperationKey: string; operationKeyHash: string }> {
    return operationKey(this.#api, signal);
  }

  /** Closes the streams and the connections this client opened (not an injected dispatcher). */
  async close(): Promise<void> {
    this.#streams?.close();
    await this.#http.close();
  }
}
