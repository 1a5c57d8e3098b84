import { AppError, ErrorCode } from '../../../src-shared/errors';
import {
  addressesOf,
  cryptoIsReady,
  parseAccountPublicKey,
  type WalletBook,
  type WalletRecord,
} from '../../wallet';
import type { ExchangeProfile } from '../../signing';
import type { Connection } from './service';
import type { ExchangeRules } from './rules';

/** The active wallet as the exchange knows it on one network. */
export interface TradingAccount {
  wallet: WalletRecord;
  /** The exchange's account id for this wallet on this network, once joined. */
  accountId: string | null;
  baseAddress: string;
  paymentKeyHash: string;
  stakeKeyHash: string;
}

/**
 * Addresses derived from an account public key, kept: deriving them costs more than the rest of
 * an order's own work, and a key's addresses never change.
 */
const derived = new Map<string, ReturnType<typeof addressesOf>>();
const addressesFor = (
  accountPublicKey: string,
  networkId: 0 | 1,
): ReturnType<typeof addressesOf> => {
  const key = `${networkId}:${accountPublicKey}`;
  let addresses = derived.get(key);
  if (!addresses) {
    addresses = addressesOf(parseAccountPublicKey(accountPublicKey), networkId);
    if (derived.size > 64) derived.clear();
    derived.set(key, addresses);
  }
  return addresses;
};

export const activeAccount = async (
  book: WalletBook,
  connection: Connection,
): Promise<TradingAccount> => {
  await cryptoIsReady();
  const wallet = await book.active();
  if (!wallet) {
    throw new AppError(
      ErrorCode.WalletNotFound,
      'There is no wallet yet. Create or restore one first.',
    );
  }
  const addresses = addressesFor(wallet.accountPublicKey, connection.networkId);
  return {
    wallet,
    accountId: wallet.exchangeAccounts?.[connection.choice.name] ?? null,
    ...addresses,
  };
};

export interface ProfileOptions {
  /** The account's own address at the exchange, when the exchange publishes it (sandbox). */
  accountAddress?: string | undefined;
  /** What to do with an order whose terms cannot be read: from the trader's settings. */
  unverifiedOrders?: 'refuse' | 'warn';
}

/**
 * The exchange as the signer must know it to check a transaction: network, addresses, keys,
 * assets, its fee rate and build expiry. The sandbox publishes everything; on the real networks
 * what the app cannot know (their addresses, the trader's exchange account) is listed as
 * unverified, which the trader's setting for that network refuses or lets them confirm. The
 * intent policy defaults to the intent address's script hash, as on the real service.
 */
export const signingProfile = (
  connection: Connection,
  account: TradingAccount,
  rules: ExchangeRules,
  options: ProfileOptions = {},
): ExchangeProfile => ({
  network: connection.choice.name,
  networkId: connection.networkId,
  addresses: {
    ...rules.addresses,
    ...(options.accountAddress ? { account: options.accountAddress } : {}),
  },
  operationKeyHash: account.wallet.operationKeyHash,
  tradingFeeBp: rules.commissionRateBp,
  assets: new Map(rules.assets.map((a) => [a.unit, { name: a.name, decimals: a.decimals }])),
  ...(connection.isSandbox
    ? {
        buildExpiry: { orderSeconds: rules.orderTtlSeconds, fundsSeconds: rules.fundsTtlSeconds },
      }
    : {}),
  ...(options.unverifiedOrders ? { unverifiedOrders: options.unverifiedOrders } : {}),
  ...(account.accountId ? { accountId: account.accountId } : {}),
});
