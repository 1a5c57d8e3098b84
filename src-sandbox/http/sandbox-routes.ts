import type { FastifyInstance } from 'fastify';
import {
  EXCHANGE_ADDRESSES,
  INTENT_POLICY_ID,
  isTestnetAddress,
  parseWalletAddress,
} from '../addresses.js';
import { hashApiKey, newApiKey } from '../api-keys.js';
import { ADA, ASSETS, MARKETS, USDM, assetByUnit, fromUnits } from '../assets.js';
import { ErrorCode, SandboxError } from '../errors.js';
import { MIN_ORDER_LOVELACE } from '../exchange.js';
import { MIN_FUNDS_LOVELACE, WITHDRAWAL_FEE_LOVELACE } from '../funds.js';
import { toAmountRecord } from '../journal-entries.js';
import type { L1Utxo } from '../l1-ledger.js';
import { inputUtxo } from '../records.js';
import type { SandboxCore } from '../sandbox-core.js';
import { SLOT_ZERO_UNIX_SECONDS } from '../transactions.js';
import { amountList } from './schemas.js';
import type { InjectedFailures } from './server.js';

/** What the faucet pays when no amount is asked, of ADA and of USDM (human units). */
const FAUCET_DEFAULT = 10_000n;

/** Sandbox-only endpoints: accounts, faucet, L1 UTxOs, network facts, reset, trading lock. */
export function sandboxRoutes(
  app: FastifyInstance,
  core: SandboxCore,
  facts: { confirmationDelayMs: number; withdrawalDelayMs: number },
  failures: InjectedFailures,
): void {
  app.post(
    '/sandbox/accounts',
    {
      schema: {
        body: {
          type: 'object',
          required: ['address'],
          additionalProperties: false,
          properties: {
            address: { type: 'string' },
            operation_key_hash: { type: ['string', 'null'], pattern: '^[0-9a-fA-F]{56}$' },
          },
        },
      },
    },
    async (request) => {
      const body = request.body as { address: string; operation_key_hash?: string | null };
      parseWalletAddress(body.address);
      // An address that has an account gets that account back, with a new key.
      const apiKey = newApiKey();
      const { account_id } = await core.commit<{ account_id: string }>({
        t: 'account',
        at: core.now(),
        apiKeyHash: hashApiKey(apiKey),
        address: body.address,
        operationKeyHash: body.operation_key_hash?.toLowerCase() ?? null,
      });
      return { api_key: apiKey, account_id };
    },
  );

  app.post(
    '/sandbox/faucet',
    {
      schema: {
        body: {
          type: 'object',
          required: ['address'],
          additionalProperties: false,
          properties: { address: { type: 'string' }, amount: amountList },
        },
      },
    },
    async (request) => {
      const body = request.body as {
        address: string;
        amount?: { unit: string; quantity: string }[];
      };
      const amounts = new Map<string, bigint>();
      const requested = body.amount ?? [
        { unit: ADA.unit, quantity: (FAUCET_DEFAULT * 10n ** 6n).toString() },
        { unit: USDM.unit, quantity: (FAUCET_DEFAULT * 10n ** 6n).toString() },
      ];
      for (const { unit, quantity } of requested) {
        if (!assetByUnit(unit)) {
          throw new SandboxError(ErrorCode.invalidRequest, `unknown unit ${unit}`);
        }
        if (!/^[0-9]+$/.test(quantity) || BigInt(quantity) <= 0n) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            `quantity of ${unit} must be a positive integer`,
          );
        }
        amounts.set(unit, (amounts.get(unit) ?? 0n) + BigInt(quantity));
      }
      // The exchange checks the address (a wallet's, never a script) and its limit per asset.
      const utxo = await core.commit<L1Utxo>({
        t: 'faucet',
        at: core.now(),
        address: body.address,
        amounts: toAmountRecord(amounts),
      });
      return inputUtxo(utxo);
    },
  );

  app.get<{ Params: { id: string } }>('/sandbox/accounts/:id', async (request) => {
    await core.synced();
    const account = core.current().account(request.params.id);
    return {
      account_id: account.id,
      address: account.wallet.bech32,
      operation_key_hash: account.operationKeyHash,
      exchange_address: account.wallet.exchangeAddress,
    };
  });

  app.post(
    '/sandbox/fail-next',
    {
      schema: {
        body: {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: {
            code: { type: 'integer', enum: [5000, 5001, 5002] },
            count: { type: 'integer', minimum: 0, maximum: 1000 },
          },
        },
      },
    },
    async (request) => {
      const body = request.body as { code: 5000 | 5001 | 5002; count?: number };
      failures.code = body.code;
      failures.remaining = body.count ?? 1;
      return { code: failures.code, count: failures.remaining };
    },
  );

  // The unspent outputs at one address (`?address=`), or the ones of a list of coins
  // (`?refs=<tx hash>#<index>,…`, at most 100): what a chain explorer answers for either.
  app.get<{ Querystring: { address?: string; refs?: string } }>(
    '/sandbox/utxos',
    async (request) => {
      const { address, refs } = request.query;
      if (typeof refs === 'string' && address === undefined) {
        const ids = refs.split(',');
        if (ids.length > 100 || !ids.every((id) => /^[0-9a-f]{64}#\d{1,5}$/.test(id))) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            'refs must be 1 to 100 coins written <tx hash>#<index>, separated by commas',
          );
        }
        await core.synced();
        const l1 = core.current().l1;
        return ids.flatMap((id) => {
          const utxo = l1.get(id);
          return utxo ? [inputUtxo(utxo)] : [];
        });
      }
      if (typeof address !== 'string' || refs !== undefined || !isTestnetAddress(address)) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          'address must be a testnet address (or give refs instead)',
        );
      }
      await core.synced();
      return core.current().l1.at(address).map(inputUtxo);
    },
  );

  app.get('/sandbox/network', async () => {
    const rules = core.exchange.rules;
    return {
      network: 'sandbox',
      network_id: 0,
      slot_zero_unix_seconds: SLOT_ZERO_UNIX_SECONDS,
      assets: ASSETS.map((a) => ({
        asset: a.name,
        unit: a.unit,
        asset_unit: a.balanceUnit,
        decimals: a.decimals,
      })),
      markets: MARKETS.map((m) => ({
        symbol: m.symbol,
        base: m.base.name,
        quote: m.quote.name,
        base_unit: m.base.unit,
        quote_unit: m.quote.unit,
        price_decimals: m.priceDecimals,
        quantity_decimals: m.quantityDecimals,
      })),
      commission_rate_bp: rules.commissionBp,
      max_open_orders: rules.maxOpenOrders,
      price_band_bp: rules.priceBandBp,
      min_order_ada_equivalent: fromUnits(MIN_ORDER_LOVELACE, 6),
      min_deposit_lovelace: MIN_FUNDS_LOVELACE.toString(),
      min_withdrawal_lovelace: MIN_FUNDS_LOVELACE.toString(),
      withdrawal_fee_lovelace: WITHDRAWAL_FEE_LOVELACE.toString(),
      l1_fee: { min_fee_a: 44, min_fee_b: 155381 },
      order_ttl_seconds: rules.orderTtlMs / 1000,
      funds_ttl_seconds: rules.fundsTtlMs / 1000,
      deposit_confirmation_ms: facts.confirmationDelayMs,
      withdrawal_delay_ms: facts.withdrawalDelayMs,
      addresses: EXCHANGE_ADDRESSES,
      intent_policy_id: INTENT_POLICY_ID,
    };
  });

  app.get('/sandbox/totals', async () => {
    await core.synced();
    const exchange = core.current();
    const record = (m: ReadonlyMap<string, bigint>) =>
      Object.fromEntries(ASSETS.map((a) => [a.unit, (m.get(a.unit) ?? 0n).toString()]));
    return { minted: record(exchange.minted), held: record(exchange.holdings()) };
  });

  app.post('/sandbox/reset', async () => {
    await core.commit({ t: 'reset', at: core.now() });
    return {};
  });

  app.post(
    '/sandbox/trading-lock',
    {
      schema: {
        body: {
          type: 'object',
          required: ['locked'],
          additionalProperties: false,
          properties: { locked: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const { locked } = request.body as { locked: boolean };
      await core.commit({ t: 'tradingLock', at: core.now(), locked });
      return { locked };
    },
  );
}
