import { z } from 'zod';
import { Money } from '../../src-shared/money';
import { HttpTransport, type HttpOptions, type ServiceProfile } from './http';
import { InputUtxo, amountEntries, parseAnswer, type UnitAmount } from './wire';

/**
 * The embedded sandbox's own endpoints (`/sandbox/…`): open an account, pay from the faucet,
 * read the simulated L1, read the network's facts, reset. Through the exchange client's one
 * transport, with the admin token the sandbox announced (`x-sandbox-token`) when it has one.
 */

export const SANDBOX_SERVICE: ServiceProfile = {
  name: 'the built-in practice exchange',
  unreachableAdvice: 'Restart the app and try again.',
};

export interface SandboxAccount {
  apiKey: string;
  accountId: string;
}

const OpenedAccount = z.object({
  api_key: z.string().regex(/^[0-9a-f]{32}$/),
  account_id: z.string().uuid(),
});

const AccountInfo = z.object({
  account_id: z.string().uuid(),
  address: z.string().min(1).max(200),
  operation_key_hash: z
    .string()
    .regex(/^[0-9a-f]{56}$/)
    .nullable(),
  exchange_address: z.string().min(1).max(200),
});

export interface SandboxAccountInfo {
  accountId: string;
  address: string;
  operationKeyHash: string | null;
  exchangeAddress: string;
}

const Int = z.number().int();
const Lovelace = z
  .union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()])
  .transform((v) => BigInt(v));
const Decimalish = z
  .union([z.string().regex(/^\d{1,20}(\.\d{1,20})?$/), z.number().nonnegative()])
  .transform((v) => new Money(String(v)));

/** `GET /sandbox/network`: the sandbox's published facts, in the app's words. */
export const SandboxNetwork = z
  .object({
    network: z.string(),
    network_id: z.union([z.literal(0), z.literal(1)]),
    slot_zero_unix_seconds: Int,
    assets: z.array(
      z.object({
        asset: z.string(),
        unit: z.string(),
        asset_unit: z.string(),
        decimals: Int.min(0).max(18),
      }),
    ),
    markets: z.array(
      z.object({
        symbol: z.string(),
        base: z.string(),
        quote: z.string(),
        base_unit: z.string(),
        quote_unit: z.string(),
        price_decimals: Int.min(0).max(18),
        quantity_decimals: Int.min(0).max(18),
      }),
    ),
    commission_rate_bp: Int.min(0).max(10_000),
    max_open_orders: Int.min(0),
    price_band_bp: Int.min(0),
    min_order_ada_equivalent: Decimalish,
    min_deposit_lovelace: Lovelace,
    min_withdrawal_lovelace: Lovelace,
    withdrawal_fee_lovelace: Lovelace,
    l1_fee: z.object({ min_fee_a: Int, min_fee_b: Int }),
    order_ttl_seconds: z.number().nonnegative(),
    funds_ttl_seconds: z.number().nonnegative(),
    deposit_confirmation_ms: z.number().nonnegative(),
    withdrawal_delay_ms: z.number().nonnegative(),
    addresses: z.record(z.string(), z.string()),
  })
  .transform((n) => ({
    network: n.network,
    networkId: n.network_id,
    slotZeroUnixSeconds: n.slot_zero_unix_seconds,
    assets: n.assets.map((a) => ({
      name: a.asset,
      unit: a.unit,
      balanceUnit: a.asset_unit,
      decimals: a.decimals,
    })),
    markets: n.markets.map((m) => ({
      symbol: m.symbol,
      base: m.base,
      quote: m.quote,
      baseUnit: m.base_unit,
      quoteUnit: m.quote_unit,
      priceDecimals: m.price_decimals,
      quantityDecimals: m.quantity_decimals,
    })),
    commissionRateBp: n.commission_rate_bp,
    maxOpenOrders: n.max_open_orders,
    priceBandBp: n.price_band_bp,
    minOrderAdaEquivalent: n.min_order_ada_equivalent,
    minDepositLovelace: n.min_deposit_lovelace,
    minWithdrawalLovelace: n.min_withdrawal_lovelace,
    withdrawalFeeLovelace: n.withdrawal_fee_lovelace,
    l1Fee: { minFeeA: n.l1_fee.min_fee_a, minFeeB: n.l1_fee.min_fee_b },
    orderTtlSeconds: n.order_ttl_seconds,
    fundsTtlSeconds: n.funds_ttl_seconds,
    depositConfirmationMs: n.deposit_confirmation_ms,
    withdrawalDelayMs: n.withdrawal_delay_ms,
    addresses: n.addresses,
  }));
export type SandboxNetwork = z.output<typeof SandboxNetwork>;

const where = (endpoint: string, action: string) => ({
  endpoint,
  action,
  service: SANDBOX_SERVICE.name,
});

export class SandboxAdmin {
  readonly #http: HttpTransport;

  constructor(config: { baseUrl: string; adminToken?: string }, options: HttpOptions = {}) {
    this.#http = new HttpTransport(
      {
        baseUrl: config.baseUrl,
        service: SANDBOX_SERVICE,
        ...(config.adminToken ? { headers: { 'x-sandbox-token': config.adminToken } } : {}),
      },
      { rateLimit: false, ...options },
    );
  }

  /**
   * Opens an account for a wallet: its address and the key hash of its operation key, so the
   * exchange accepts orders signed by that key and nothing else.
   */
  async openAccount(
    wallet: { address: string; operationKeyHash: string },
    signal?: AbortSignal,
  ): Promise<SandboxAccount> {
    const action = 'open an account for this wallet';
    const reply = await this.#http.request({
      method: 'POST',
      path: '/sandbox/accounts',
      body: JSON.stringify({
        address: wallet.address,
        operation_key_hash: wallet.operationKeyHash,
      }),
      kind: 'build',
      action,
      ...(signal ? { signal } : {}),
    });
    const opened = parseAnswer(OpenedAccount, reply.body, where(reply.endpoint, action));
    return { apiKey: opened.api_key, accountId: opened.account_id };
  }

  /** Pays test coins to an L1 address (default: the faucet's own amounts); returns the new UTxO. */
  async faucet(
    address: string,
    amounts?: readonly UnitAmount[],
    signal?: AbortSignal,
  ): Promise<InputUtxo> {
    const action = 'pay from the faucet';
    const reply = await this.#http.request({
      method: 'POST',
      path: '/sandbox/faucet',
      body: JSON.stringify({ address, ...(amounts ? { amount: amountEntries(amounts) } : {}) }),
      kind: 'submit',
      action,
      ...(signal ? { signal } : {}),
    });
    return parseAnswer(InputUtxo, reply.body, where(reply.endpoint, action));
  }

  /** The unspent outputs at an address on the sandbox's simulated L1. */
  async utxos(address: string, signal?: AbortSignal): Promise<InputUtxo[]> {
    const action = "read your wallet's coins";
    const reply = await this.#http.request({
      method: 'GET',
      path: '/sandbox/utxos',
      query: { address },
      kind: 'read',
      action,
      ...(signal ? { signal } : {}),
    });
    return parseAnswer(z.array(InputUtxo), reply.body, where(reply.endpoint, action));
  }

  /** Those of the listed coins (`<tx hash>#<index>`, at most 100) that are unspent on its L1. */
  async coins(refs: readonly string[], signal?: AbortSignal): Promise<InputUtxo[]> {
    const action = 'look up the coins a transaction spends';
    const reply = await this.#http.request({
      method: 'GET',
      path: '/sandbox/utxos',
      query: { refs: refs.join(',') },
      kind: 'read',
      action,
      ...(signal ? { signal } : {}),
    });
    return parseAnswer(z.array(InputUtxo), reply.body, where(reply.endpoint, action));
  }

  /** The sandbox's facts: network id, assets, markets, fees, delays, addresses. */
  async network(signal?: AbortSignal): Promise<SandboxNetwork> {
    const action = "read the practice exchange's settings";
    const reply = await this.#http.request({
      method: 'GET',
      path: '/sandbox/network',
      kind: 'read',
      action,
      ...(signal ? { signal } : {}),
    });
    return parseAnswer(SandboxNetwork, reply.body, where(reply.endpoint, action));
  }

  /** One account as the sandbox keeps it: its own address at the exchange, for the signer. */
  async account(accountId: string, signal?: AbortSignal): Promise<SandboxAccountInfo> {
    const action = 'read your account at the practice exchange';
    const reply = await this.#http.request({
      method: 'GET',
      path: `/sandbox/accounts/${encodeURIComponent(accountId)}`,
      kind: 'read',
      action,
      ...(signal ? { signal } : {}),
    });
    const info = parseAnswer(AccountInfo, reply.body, where(reply.endpoint, action));
    return {
      accountId: info.account_id,
      address: info.address,
      operationKeyHash: info.operation_key_hash,
      exchangeAddress: info.exchange_address,
    };
  }

  /** Starts the sandbox's journal afresh: every account, order and coin is gone. */
  async reset(signal?: AbortSignal): Promise<void> {
    await this.#http.request({
      method: 'POST',
      path: '/sandbox/reset',
      kind: 'submit',
      action: 'reset the practice exchange',
      ...(signal ? { signal } : {}),
    });
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}

/**
 * Opens an account on the embedded sandbox for a wallet (a one-off `SandboxAdmin`), as the
 * wallet service joins the sandbox.
 */
export const openSandboxAccount = async (
  sandboxUrl: string,
  wallet: { address: string; operationKeyHash: string },
  timeoutMs = 10_000,
  adminToken?: string,
): Promise<SandboxAccount> => {
  const admin = new SandboxAdmin(
    { baseUrl: sandboxUrl, ...(adminToken ? { adminToken } : {}) },
    { timeoutMs },
  );
  try {
    return await admin.openAccount(wallet);
  } finally {
    await admin.close();
  }
};
