import { fromSmallestUnit } from '../../src-shared/money';
import type { NetworkName } from '../../src-shared/network';
import {
  displayAmounts,
  LOVELACE,
  type Amounts,
  type AssetInfo,
  type DecodedOutput,
  type DecodedTransaction,
  type ExchangeAddresses,
} from './decode';
import { readOrderDatum, type OrderDatumLayout, type OrderTerms } from './order-datum';

/**
 * What the trader asked for, and the check that the exchange's transaction does exactly that.
 * Every difference is described in words; the signer refuses while there is any. Deposits and
 * withdrawals move the trader's own money and are checked strictly on every network; orders and
 * cancels are checked against the exchange's published profile, and on a network whose profile
 * does not explain a structure, the unexplained part becomes a warning the trader must confirm
 * (the operation key cannot withdraw).
 */

/** The exchange as this app knows it; the sandbox publishes all of it at `/sandbox/network`. */
export interface ExchangeProfile {
  network: NetworkName;
  networkId: 0 | 1;
  addresses: ExchangeAddresses;
  /** Key hash of this wallet's operation key, as registered with the exchange. */
  operationKeyHash: string;
  /** The exchange's own keys that may be listed as required signers (it signs after submit). */
  exchangeKeyHashes?: readonly string[];
  /** Orders and cancels must match the profile exactly (sandbox); otherwise warnings. */
  strict: boolean;
  /** Largest fee a deposit or withdrawal may carry. Default 2 ADA. */
  maxFundsFeeLovelace?: bigint;
  /** Largest fee an order or cancel may carry. Default 0 (they are fee-free). */
  maxTradeFeeLovelace?: bigint;
  /** Most ADA an order output may carry besides a token it locks (its minimum UTxO). Default 2 ADA. */
  maxOrderMinAdaLovelace?: bigint;
  assets?: ReadonlyMap<string, AssetInfo>;
  /** The order datum layout the exchange publishes; with it, an order's terms are checked. */
  orderDatum?: OrderDatumLayout;
  /** This wallet's account id on the exchange, which its orders must name. */
  accountId?: string;
}

export interface PlaceOrderIntent {
  kind: 'place-order';
  /**
   * What the order locks: the base asset for a sell, the quote for a buy (smallest units).
   * `upTo`: a market order may lock less than `quantity` (never more, never nothing).
   */
  lock: { unit: string; quantity: bigint; upTo?: boolean };
  /** What the trader asked for (and the order id the build answered), to compare with the datum. */
  terms?: OrderTerms;
}

export interface CancelOrderIntent {
  kind: 'cancel-order';
  /** The order's UTxO, `txId#index` (the order record's `active_order_utxo_id`). */
  orderUtxo: string;
}

export interface DepositIntent {
  kind: 'deposit';
  /** Exactly what goes to the exchange, smallest units. */
  amounts: Amounts;
  /** The UTxOs the trader chose, with their content (sent in the build request). */
  inputs: ReadonlyMap<string, { address: string; amounts: Amounts }>;
}

export interface WithdrawalIntent {
  kind: 'withdrawal';
  /** What was asked for, smallest units. */
  amounts: Amounts;
  /**
   * The part of the exchange's withdrawal fee deducted from the ADA paid out, in lovelace; 0 when
   * the exchange charges it on top from the account balance (as the sandbox does).
   */
  statedFeeLovelace: bigint;
  /** The wallet's own UTxOs as far as it knows them: none may be spent. */
  ownUtxos?: ReadonlySet<string>;
}

export type SigningIntent = PlaceOrderIntent | CancelOrderIntent | DepositIntent | WithdrawalIntent;

export interface IntentReport {
  /** Differences from the intent: any one of them refuses the signature. */
  differences: string[];
  /** Structure the profile does not explain, on a non-strict network: the trader must confirm. */
  warnings: string[];
}

const ADA_DECIMALS = 6;
const TWO_ADA = 2_000_000n;

const describe = (amounts: Amounts, profile: ExchangeProfile): string =>
  displayAmounts(amounts, profile.assets)
    .filter((a) => a.quantity !== '0')
    .map((a) => `${a.amount} ${a.name}`)
    .join(' + ') || 'nothing';

const ada = (lovelace: bigint): string =>
  `${fromSmallestUnit(lovelace, ADA_DECIMALS).toFixed()} ADA`;

const add = (into: Map<string, bigint>, amounts: Amounts, sign = 1n): void => {
  for (const [unit, q] of amounts) into.set(unit, (into.get(unit) ?? 0n) + sign * q);
};

const sameAmounts = (a: Amounts, b: Amounts): boolean => {
  const units = new Set([...a.keys(), ...b.keys()]);
  return [...units].every((u) => (a.get(u) ?? 0n) === (b.get(u) ?? 0n));
};

const shortAddress = (address: string): string =>
  address.length > 30 ? `${address.slice(0, 18)}…${address.slice(-8)}` : address;

const shortHash = (hash: string): string => `${hash.slice(0, 8)}…`;

const PRICE_DECIMALS = 4;
const BASE_DECIMALS = 6;

/** Compares the terms an order's datum states with what the trader asked for, in words. */
const orderTermsDifferences = (
  datum: DecodedOutput['inlineDatum'],
  terms: OrderTerms | undefined,
  profile: ExchangeProfile,
): string[] => {
  if (!profile.orderDatum) return [];
  if (!terms) return ['The order’s terms were not given, so its datum cannot be checked.'];
  const stated = datum === null ? null : readOrderDatum(datum, profile.orderDatum);
  if (!stated) return ['The order datum is not in the form the exchange publishes.'];
  const price = (ticks: bigint) => fromSmallestUnit(ticks, PRICE_DECIMALS).toFixed(PRICE_DECIMALS);
  const quantity = (units: bigint) => fromSmallestUnit(units, BASE_DECIMALS).toFixed();
  const found: string[] = [];
  if (stated.orderId !== terms.orderId) {
    found.push(`The order datum names order ${stated.orderId}, not ${terms.orderId}.`);
  }
  if (stated.side !== terms.side) {
    found.push(`The order would ${stated.side} instead of ${terms.side}.`);
  }
  if (stated.type !== terms.type) {
    found.push(`The order is a ${stated.type} order instead of a ${terms.type} order.`);
  }
  if (stated.priceTicks !== terms.priceTicks) {
    found.push(
      `The order’s ${terms.type === 'market' ? 'limit price' : 'price'} is ${price(stated.priceTicks)} instead of ${price(terms.priceTicks)}.`,
    );
  }
  if (stated.quantityUnits !== terms.quantityUnits) {
    found.push(
      `The order’s quantity is ${quantity(stated.quantityUnits)} instead of ${quantity(terms.quantityUnits)}.`,
    );
  }
  if (stated.slippageBp !== terms.slippageBp) {
    found.push(
      `The order allows ${stated.slippageBp} bp of slippage instead of ${terms.slippageBp} bp.`,
    );
  }
  if (stated.operationKeyHash !== profile.operationKeyHash) {
    found.push('The order belongs to another trading key than this wallet’s.');
  }
  if (profile.accountId && stated.accountId !== profile.accountId) {
    found.push('The order is for another account than this wallet’s.');
  }
  return found;
};

export const checkIntent = (
  tx: DecodedTransaction,
  intent: SigningIntent,
  profile: ExchangeProfile,
): IntentReport => {
  const differences: string[] = [];
  const warnings: string[] = [];
  const funds = intent.kind === 'deposit' || intent.kind === 'withdrawal';
  const strict = funds || profile.strict;
  /** Something the profile does not explain: refused when strict, a warning otherwise. */
  const unexplained = (text: string): void => void (strict ? differences : warnings).push(text);

  // Network: every output and the body's own network id.
  if (tx.networkId !== null && tx.networkId !== profile.networkId) {
    differences.push(
      `It is for network ${tx.networkId === 1 ? 'mainnet' : 'testnet'}, not ${profile.network}.`,
    );
  }
  for (const o of tx.outputs) {
    if (o.networkId !== profile.networkId) {
      differences.push(
        `Output ${o.index} pays to an address of another network (${shortAddress(o.address)}).`,
      );
    }
  }

  // Structure no exchange operation needs.
  if (tx.flags.mint) differences.push(`It mints or burns tokens (${describe(tx.mint, profile)}).`);
  if (tx.flags.certificates)
    differences.push('It carries certificates (staking or delegation changes).');
  if (tx.flags.withdrawals) differences.push('It withdraws staking rewards.');
  if (tx.flags.votes) differences.push('It casts governance votes.');
  if (tx.flags.proposals) differences.push('It submits governance proposals.');
  if (tx.flags.donation) differences.push('It donates to the treasury.');
  if (tx.flags.update) differences.push('It proposes a protocol update.');
  if (tx.flags.collateral)
    unexplained('It pledges collateral (coins that are lost if a script fails).');
  if (tx.flags.scripts) unexplained('It runs scripts the exchange profile does not describe.');
  if (tx.outputs.some((o) => o.hasScriptRef)) unexplained('An output carries a reference script.');

  const exchangeKeys = new Set(profile.exchangeKeyHashes ?? []);
  const signers = tx.requiredSigners;
  const feeLimit = funds
    ? (profile.maxFundsFeeLovelace ?? TWO_ADA)
    : (profile.maxTradeFeeLovelace ?? 0n);
  if (tx.fee > feeLimit) {
    (funds ? differences : strict ? differences : warnings).push(
      `The fee is ${ada(tx.fee)}, above the ${ada(feeLimit)} this operation may cost.`,
    );
  }

  switch (intent.kind) {
    case 'place-order':
    case 'cancel-order': {
      const op = profile.operationKeyHash;
      if (!signers.includes(op))
        differences.push('It does not ask for your trading key’s signature.');
      for (const s of signers) {
        if (s !== op && !exchangeKeys.has(s)) {
          unexplained(`It also requires a signature from an unknown key (${shortHash(s)}).`);
        }
      }
      for (const input of tx.inputs) {
        if (input.known?.party === 'own') {
          differences.push(`It spends coins from your wallet (${input.id}); a trade never does.`);
        }
      }
      const account = profile.addresses.account;
      const order = profile.addresses.order;
      for (const o of tx.outputs) {
        if (
          o.party === 'exchange-account' ||
          (intent.kind === 'place-order' && o.party === 'exchange-order')
        ) {
          continue;
        }
        const what = `Output ${o.index} sends ${describe(o.amounts, profile)} to ${o.party === 'own' ? 'your wallet' : `an address that is not your exchange account (${shortAddress(o.address)})`}.`;
        if (account) unexplained(what);
        else warnings.push(what);
      }
      if (intent.kind === 'place-order') {
        if (!order) {
          warnings.push(
            'The exchange’s order address is not known: the order output cannot be checked.',
          );
          break;
        }
        const orderOutputs = tx.outputs.filter((o) => o.party === 'exchange-order');
        if (orderOutputs.length !== 1) {
          differences.push(`It creates ${orderOutputs.length} order outputs instead of one.`);
          break;
        }
        const [out] = orderOutputs;
        if (!out) break;
        const { unit, quantity, upTo } = intent.lock;
        const locked = out.amounts.get(unit) ?? 0n;
        const fits = upTo ? locked > 0n && locked <= quantity : locked === quantity;
        if (!fits) {
          differences.push(
            `The order locks ${describe(new Map([[unit, locked]]), profile)} instead of ${upTo ? 'at most ' : ''}${describe(new Map([[unit, quantity]]), profile)}.`,
          );
        }
        const extra = [...out.amounts].filter(([u, q]) => u !== unit && u !== LOVELACE && q > 0n);
        if (extra.length) {
          differences.push(`The order output also locks ${describe(new Map(extra), profile)}.`);
        }
        const minAda = profile.maxOrderMinAdaLovelace ?? TWO_ADA;
        const lovelace = out.amounts.get(LOVELACE) ?? 0n;
        if (unit !== LOVELACE && lovelace > minAda) {
          differences.push(
            `The order output also locks ${ada(lovelace)}, more than its ${ada(minAda)} minimum.`,
          );
        }
        if (out.datum !== 'inline') differences.push('The order output has no order datum.');
        else if (profile.orderDatum) {
          differences.push(...orderTermsDifferences(out.inlineDatum, intent.terms, profile));
        }
      } else {
        if (!tx.inputs.some((i) => i.id === intent.orderUtxo)) {
          differences.push(`It does not spend the order being cancelled (${intent.orderUtxo}).`);
        }
        if (tx.outputs.some((o) => o.party === 'exchange-order')) {
          differences.push('It creates a new order instead of only cancelling.');
        }
      }
      break;
    }

    case 'deposit': {
      const chosen = new Set(intent.inputs.keys());
      const spent = new Set(tx.inputs.map((i) => i.id));
      for (const id of spent) {
        if (!chosen.has(id)) differences.push(`It spends ${id}, which you did not choose.`);
      }
      for (const id of chosen) {
        if (!spent.has(id)) differences.push(`It does not spend ${id}, which you chose.`);
      }
      if (tx.collateralInputs.length) {
        differences.push('It pledges collateral from your coins.');
      }
      if (!profile.addresses.deposit) {
        differences.push(
          'The exchange’s deposit address is not known, so the destination cannot be checked.',
        );
      }
      const toExchange = new Map<string, bigint>();
      const toOwn = new Map<string, bigint>();
      for (const o of tx.outputs) {
        if (o.party === 'exchange-deposit') add(toExchange, o.amounts);
        else if (o.party === 'own') add(toOwn, o.amounts);
        else {
          differences.push(
            `Output ${o.index} sends ${describe(o.amounts, profile)} to an address that is neither yours nor the exchange’s deposit address (${shortAddress(o.address)}).`,
          );
        }
      }
      if (!sameAmounts(toExchange, intent.amounts)) {
        differences.push(
          `It pays ${describe(toExchange, profile)} to the exchange instead of ${describe(intent.amounts, profile)}.`,
        );
      }
      // What comes back: everything chosen, less the deposit and the fee.
      const expectedChange = new Map<string, bigint>();
      for (const input of intent.inputs.values()) add(expectedChange, input.amounts);
      add(expectedChange, intent.amounts, -1n);
      add(expectedChange, new Map([[LOVELACE, tx.fee]]), -1n);
      if (!sameAmounts(toOwn, expectedChange)) {
        differences.push(
          `It returns ${describe(toOwn, profile)} to you instead of ${describe(expectedChange, profile)}.`,
        );
      }
      for (const s of signers) {
        if (!exchangeKeys.has(s) && s !== tx.ownPaymentKeyHash) {
          differences.push(`It also requires a signature from an unknown key (${shortHash(s)}).`);
        }
      }
      break;
    }

    case 'withdrawal': {
      const own = intent.ownUtxos ?? new Set<string>();
      for (const i of tx.inputs) {
        if (own.has(i.id) || i.known?.party === 'own') {
          differences.push(`It spends coins from your wallet (${i.id}); a withdrawal never does.`);
        }
      }
      for (const id of tx.collateralInputs) {
        if (own.has(id)) differences.push(`It pledges your coins (${id}) as collateral.`);
      }
      if (!tx.ownPaymentKeyHash || !signers.includes(tx.ownPaymentKeyHash)) {
        differences.push('It does not ask for your wallet key’s signature.');
      }
      for (const s of signers) {
        if (!exchangeKeys.has(s) && s !== tx.ownPaymentKeyHash) {
          differences.push(`It also requires a signature from an unknown key (${shortHash(s)}).`);
        }
      }
      const toOwn = new Map<string, bigint>();
      for (const o of tx.outputs) {
        if (o.party === 'own') add(toOwn, o.amounts);
        else if (o.party === 'exchange-treasury') continue;
        else if (profile.addresses.treasury) {
          differences.push(
            `Output ${o.index} sends ${describe(o.amounts, profile)} to an address that is neither yours nor the exchange’s treasury (${shortAddress(o.address)}).`,
          );
        } else {
          warnings.push(
            `Output ${o.index} sends ${describe(o.amounts, profile)} to ${shortAddress(o.address)} (the exchange’s treasury address is not known).`,
          );
        }
      }
      const expected = new Map(intent.amounts);
      add(expected, new Map([[LOVELACE, intent.statedFeeLovelace]]), -1n);
      if (!sameAmounts(toOwn, expected)) {
        differences.push(
          `It pays ${describe(toOwn, profile)} to you instead of ${describe(expected, profile)} (the amount less the ${ada(intent.statedFeeLovelace)} fee).`,
        );
      }
      break;
    }
  }
  return { differences, warnings };
};
