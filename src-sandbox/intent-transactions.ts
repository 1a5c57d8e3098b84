import { EXCHANGE_ADDRESSES, INTENT_TOKEN } from './addresses.js';
import {
  cancelOrderIntent,
  depositRequest,
  encodePlutusData,
  mintPlaceOrderIntent,
  mintWithdrawalIntent,
  placeOrderIntent,
  withdrawalIntent,
  type AccountKeys,
  type LayoutOrder,
} from './intent-layout.js';
import { buildTransaction, type Amounts, type BuiltTx, type TxOutputSpec } from './transactions.js';

/**
 * The sandbox's transactions in the real service's layout (README.md, "Transactions"): an order,
 * a cancel and a withdrawal each leave exactly one intent at the user-intent address; a deposit
 * pays the deposit address with a deposit request datum.
 */

/**
 * The account as its intents name it: id, wallet (master) key and operation key; an account
 * without an operation key names its master key in both places.
 */
export function accountKeys(account: {
  id: string;
  wallet: { paymentKeyHash: string };
  operationKeyHash: string | null;
}): AccountKeys {
  return {
    accountId: account.id,
    masterKeyHash: account.wallet.paymentKeyHash,
    operationKeyHash: account.operationKeyHash ?? account.wallet.paymentKeyHash,
  };
}

const withToken = (amounts: Amounts): Map<string, bigint> =>
  new Map([...amounts, [INTENT_TOKEN, (amounts.get(INTENT_TOKEN) ?? 0n) + 1n]]);

/**
 * Places an order: spends the account's exchange-side UTxO, mints one intent token (redeemer
 * `MintPlaceOrderIntent { order }`), locks what the order needs with the token at the intent
 * address under `PlaceOrderIntent { order }`, and returns the rest to the account's address.
 */
export function placeOrderTransaction(p: {
  accountUtxo: string;
  accountAddress: string;
  order: LayoutOrder;
  locked: Amounts;
  change: Amounts;
  ttlSlot: number;
}): BuiltTx {
  return buildTransaction({
    inputs: [p.accountUtxo],
    outputs: [
      {
        address: EXCHANGE_ADDRESSES.intent,
        amounts: withToken(p.locked),
        datum: encodePlutusData(placeOrderIntent(p.order)),
      },
      { address: p.accountAddress, amounts: p.change },
    ],
    fee: 0n,
    ttlSlot: p.ttlSlot,
    mint: new Map([[INTENT_TOKEN, 1n]]),
    redeemers: [{ tag: 'mint', index: 0, data: encodePlutusData(mintPlaceOrderIntent(p.order)) }],
    requiredSigners: [p.order.account.operationKeyHash],
  });
}

/**
 * Cancels an order: spends exactly the order's UTxO (what it locks and its intent token), moves
 * the token to the intent address under `CancelOrderIntent { account, order_id }`, and returns
 * what the order still locks to the account's address. Nothing is minted.
 */
export function cancelOrderTransaction(p: {
  orderUtxo: string;
  orderId: string;
  account: AccountKeys;
  accountAddress: string;
  refund: Amounts;
  ttlSlot: number;
}): BuiltTx {
  return buildTransaction({
    inputs: [p.orderUtxo],
    outputs: [
      {
        address: EXCHANGE_ADDRESSES.intent,
        amounts: withToken(new Map()),
        datum: encodePlutusData(cancelOrderIntent(p.account, p.orderId)),
      },
      { address: p.accountAddress, amounts: p.refund },
    ],
    fee: 0n,
    ttlSlot: p.ttlSlot,
    requiredSigners: [p.account.operationKeyHash],
  });
}

/**
 * Withdraws: spends a treasury UTxO, pays the amount to the wallet, and leaves the request at the
 * intent address under `WithdrawalIntent { account, amount }` with one freshly minted intent token
 * (redeemer `MintWithdrawalIntent { account, amount }`). Signed by the master (wallet) key.
 */
export function withdrawalTransaction(p: {
  treasuryUtxo: string;
  walletAddress: string;
  account: AccountKeys;
  amounts: Amounts;
  fee: bigint;
  ttlSlot: number;
}): BuiltTx {
  return buildTransaction({
    inputs: [p.treasuryUtxo],
    outputs: [
      { address: p.walletAddress, amounts: p.amounts },
      {
        address: EXCHANGE_ADDRESSES.intent,
        amounts: withToken(new Map()),
        datum: encodePlutusData(withdrawalIntent(p.account, p.amounts)),
      },
    ],
    fee: p.fee,
    ttlSlot: p.ttlSlot,
    mint: new Map([[INTENT_TOKEN, 1n]]),
    redeemers: [
      { tag: 'mint', index: 0, data: encodePlutusData(mintWithdrawalIntent(p.account, p.amounts)) },
    ],
    requiredSigners: [p.account.masterKeyHash],
  });
}

/** The deposit's output: the amount at the deposit address, `AppDepositRequestDatum { account, amount }`. */
export function depositOutput(account: AccountKeys, amounts: Amounts): TxOutputSpec {
  return {
    address: EXCHANGE_ADDRESSES.deposit,
    amounts,
    datum: encodePlutusData(depositRequest(account, amounts)),
  };
}
