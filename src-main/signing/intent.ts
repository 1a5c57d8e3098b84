import type { Money } from '../../src-shared/money';
import type { Amounts, DecodedTransaction } from './decode';
import { keyHashOf, witnessVerifies } from './transaction-bytes';
import { checkCancelOrder } from './intents/cancel-order';
import { checkDeposit } from './intents/deposit';
import { checkPlaceOrder } from './intents/place-order';
import { ada, describe, Findings, outputText, shortHash } from './intents/shared';
import { checkWithdrawal } from './intents/withdrawal';
import {
  buildExpiryOf,
  CLOCK_SKEW_SECONDS,
  slotZeroOf,
  unverifiedOrdersOf,
  type ExchangeProfile,
} from './profile';

/**
 * What the trader asked for, and the proof that the exchange's transaction does exactly that and
 * nothing else. Each operation kind has its own check (`intents/`); what every transaction must
 * satisfy is checked here: the network, the time it stays valid, the fee, the signatures it asks
 * for and already carries, and the structures no exchange operation needs. Every difference is
 * described in words; the signer refuses while there is any.
 */

/** What the trader typed for an order, with the order id the build answered. */
export interface OrderTerms {
  orderId: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  /** Units of the market's base and quote (`lovelace` or policy id + asset name hex). */
  baseUnit: string;
  quoteUnit: string;
  /** Base quantity in smallest units. */
  quantityUnits: bigint;
  /**
   * Quote per base: a limit order's price; for a market order the worst price the trader
   * accepts (its slippage limit), or null when it may fill at any price.
   */
  price: Money | null;
}

export interface PlaceOrderIntent {
  kind: 'place-order';
  /**
   * What the order locks: the base asset for a sell, the quote for a buy (smallest units).
   * `upTo`: a market buy without a price limit may lock less than `quantity` (never more).
   */
  lock: { unit: string; quantity: bigint; upTo?: boolean };
  /** What the trader asked for; without them the order is unverified. */
  terms?: OrderTerms;
  /** The account's exchange-side UTxO the order must spend, when the app knows it. */
  accountUtxo?: string;
}

export interface CancelOrderIntent {
  kind: 'cancel-order';
  /** The order being cancelled (its id). */
  orderId: string;
  /** The order's UTxO, `txId#index` (the order record's `active_order_utxo_id`). */
  orderUtxo: string;
  /** What the order still locks, when known: the cancel must return exactly that. */
  refund?: Amounts;
  /**
   * The refund is a floor, not an exact figure (the real service's records state what an order
   * locks in human units, which may round): the cancel must return at least that of each asset.
   */
  refundAtLeast?: boolean;
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
  /**
   * The exchange's coins it may spend (its treasury's UTxOs, looked up by the app), with their
   * content: every input must be one of them, and the transaction must balance against them.
   */
  exchangeUtxos?: ReadonlyMap<string, { address: string; amounts: Amounts }>;
}

export type SigningIntent = PlaceOrderIntent | CancelOrderIntent | DepositIntent | WithdrawalIntent;

export interface IntentReport {
  /** Differences from the intent: any one of them refuses the signature. */
  differences: string[];
  /** What could not be verified, on a network that allows it: the trader must confirm. */
  warnings: string[];
}

export interface CheckOptions {
  /** This computer's time, ms (default: now). */
  now?: number;
}

const TWO_ADA = 2_000_000n;

/** A duration in the unit a person would use. */
const duration = (seconds: number): string => {
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return plural(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  return hours < 48 ? plural(hours, 'hour') : plural(Math.round(seconds / 86_400), 'day');
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Structures no exchange operation needs (a mint only where the operation says so). Reference
 * inputs are left to the operations: they spend nothing, and the intent token's script is read
 * from one (scripts in the witness set are refused below).
 */
const checkStructure = (tx: DecodedTransaction, f: Findings): void => {
  const { flags } = tx;
  const present = (count: number | null, what: string, many: string, plain: string) => {
    if (count === null) return;
    f.refuse(
      count === 0
        ? `It carries an empty ${plain} field`
        : `It carries ${plural(count, what, many)}`,
      'extra',
    );
  };
  present(
    flags.certificates,
    'certificate (staking or delegation change)',
    'certificates (staking or delegation changes)',
    'certificates',
  );
  present(
    flags.withdrawals,
    'staking reward withdrawal',
    'staking reward withdrawals',
    'reward withdrawals',
  );
  present(flags.votes, 'governance vote', 'governance votes', 'votes');
  present(flags.proposals, 'governance proposal', 'governance proposals', 'proposals');
  present(
    flags.treasury,
    'treasury field (a donation or the treasury value)',
    'treasury fields (a donation or the treasury value)',
    'treasury',
  );
  present(
    flags.collateral,
    'collateral field (coins lost if a script fails)',
    'collateral fields (coins lost if a script fails)',
    'collateral',
  );
  present(flags.scripts, 'script in its witnesses', 'scripts in its witnesses', 'scripts');
  present(flags.datums, 'datum in its witnesses', 'datums in its witnesses', 'datums');
  present(flags.bootstrapWitnesses, 'Byron-era witness', 'Byron-era witnesses', 'Byron witnesses');
  if (flags.invalid) f.refuse('It is marked as failing its scripts (is_valid false)', 'extra');
  // Metadata moves no coin, yet it is published on the chain as part of what our key signed (a
  // message, a claim, a registration): no exchange operation needs any, so none rides along.
  if (flags.metadataMismatch)
    f.refuse('Its metadata does not match the hash its body states', 'extra');
  else if (tx.metadata)
    f.refuse(
      'It carries metadata, which no exchange operation needs and which would be published on the chain under your signature',
      'extra',
    );
  for (const o of tx.outputs) {
    if (o.hasScriptRef) f.refuse(`Output ${o.index} carries a reference script`, 'extra');
  }
};

const checkNetwork = (tx: DecodedTransaction, profile: ExchangeProfile, f: Findings): void => {
  if (tx.networkId !== null && tx.networkId !== profile.networkId) {
    f.refuse(
      `It is for network ${tx.networkId === 1 ? 'mainnet' : 'testnet'}, not ${profile.network}`,
      'network',
    );
  }
  for (const o of tx.outputs) {
    if (o.networkId === null) {
      f.refuse(`${outputText(o, profile)}, a Byron-era address that names no network`, 'network');
    } else if (o.networkId !== profile.networkId) {
      f.refuse(`${outputText(o, profile)}, an address of another network`, 'network');
    }
  }
};

/** Valid from no later than now, until no later than the build expiry from now. */
const checkTime = (
  tx: DecodedTransaction,
  profile: ExchangeProfile,
  funds: boolean,
  now: number,
  f: Findings,
): void => {
  const slotZero = slotZeroOf(profile);
  const nowSlot = Math.floor(now / 1000) - slotZero;
  const expiry = buildExpiryOf(profile);
  const limit = funds ? expiry.fundsSeconds : expiry.orderSeconds;
  const at = (slot: number) =>
    new Date((slot + slotZero) * 1000).toISOString().replace('.000Z', 'Z');
  if (tx.validFromSlot !== null && tx.validFromSlot > nowSlot + CLOCK_SKEW_SECONDS) {
    f.refuse(`It only becomes valid at ${at(tx.validFromSlot)}, in the future`, 'time');
  }
  const until = tx.validUntilSlot;
  if (until === null) {
    f.refuse('It has no expiry: it would stay valid forever', 'time');
  } else if (until > nowSlot + limit + CLOCK_SKEW_SECONDS) {
    f.refuse(
      `It stays valid until ${at(until)}, ${duration(until - nowSlot)} from now, longer than the ${duration(limit)} a build of the exchange lasts`,
      'time',
    );
  } else if (until <= nowSlot - CLOCK_SKEW_SECONDS) {
    f.refuse(`It expired at ${at(until)}`, 'time');
  }
};

const checkFee = (
  tx: DecodedTransaction,
  profile: ExchangeProfile,
  funds: boolean,
  f: Findings,
) => {
  const limit = funds
    ? (profile.maxFundsFeeLovelace ?? TWO_ADA)
    : (profile.maxTradeFeeLovelace ?? 0n);
  if (tx.fee > limit) {
    f.refuse(`The fee is ${ada(tx.fee)}, above the ${ada(limit)} this operation may cost`, 'value');
  }
};

/**
 * The signatures it asks for: the one key this operation signs with (and the exchange's own);
 * and the witnesses it already carries for our keys: verified, since a bad one must never pass
 * for our signature (the signer replaces one of the signing key; another key's is refused).
 */
const checkSigners = (
  tx: DecodedTransaction,
  profile: ExchangeProfile,
  signingKeyHash: string | null,
  keyName: string,
  ourKeys: ReadonlyMap<string, string>,
  f: Findings,
): void => {
  if (!signingKeyHash || !tx.requiredSigners.includes(signingKeyHash)) {
    f.refuse(`It does not ask for your ${keyName}’s signature`, 'extra');
  }
  const exchangeKeys = new Set(profile.exchangeKeyHashes ?? []);
  for (const s of tx.requiredSigners) {
    if (s === signingKeyHash || exchangeKeys.has(s)) continue;
    const ours = ourKeys.get(s);
    f.refuse(
      ours
        ? `It also asks for your ${ours}’s signature, which this operation does not use`
        : `It also asks for the signature of an unknown key (${shortHash(s)})`,
      'extra',
    );
  }
  const id = Buffer.from(tx.id, 'hex');
  for (const w of tx.witnesses) {
    const hash = keyHashOf(w.vkey);
    const ours = ourKeys.get(hash);
    if (!ours || hash === signingKeyHash) continue;
    f.refuse(
      witnessVerifies(w, id)
        ? `It already carries a signature of your ${ours}, which this operation does not use`
        : `It carries a signature claiming to be your ${ours}’s that does not verify`,
      'witnesses',
    );
  }
};

/**
 * When the wallet knows what every spent input holds (its own coins, the exchange UTxO the app
 * looked up), the transaction must balance exactly as the ledger counts it: inputs plus mint
 * equal outputs plus fee. Anything else means an output claims coins the inputs do not explain,
 * or coins go somewhere the outputs do not show.
 */
const checkBalance = (tx: DecodedTransaction, profile: ExchangeProfile, f: Findings): void => {
  if (tx.inputs.some((i) => i.known === null)) return;
  const net = new Map<string, bigint>();
  const add = (unit: string, q: bigint) => net.set(unit, (net.get(unit) ?? 0n) + q);
  for (const i of tx.inputs) for (const [u, q] of i.known?.amounts ?? []) add(u, q);
  for (const [u, q] of tx.mint) add(u, q);
  for (const o of tx.outputs) for (const [u, q] of o.amounts) add(u, -q);
  add('lovelace', -tx.fee);
  const surplus = new Map([...net].filter(([, q]) => q > 0n));
  const deficit = new Map([...net].filter(([, q]) => q < 0n).map(([u, q]) => [u, -q]));
  if (surplus.size) {
    f.refuse(
      `Its inputs hold ${describe(surplus, profile)} more than its outputs and fee account for`,
      'inputs',
    );
  }
  if (deficit.size) {
    f.refuse(
      `Its outputs hold ${describe(deficit, profile)} more than its inputs provide`,
      'value',
    );
  }
};

const findingsFor = (intent: SigningIntent, profile: ExchangeProfile): Findings => {
  const funds = intent.kind === 'deposit' || intent.kind === 'withdrawal';
  return new Findings(intent.kind, !funds && unverifiedOrdersOf(profile) === 'warn');
};

/**
 * What the trader asked for, checked against the transaction: every difference (refused) and
 * every warning (signed only once the trader accepts it). The clock's part comes first.
 */
export const checkIntent = (
  tx: DecodedTransaction,
  intent: SigningIntent,
  profile: ExchangeProfile,
  options: CheckOptions = {},
): IntentReport => {
  const timed = checkIntentTime(tx, intent, profile, options);
  const rest = checkIntentTimeless(tx, intent, profile);
  return {
    differences: [...timed.differences, ...rest.differences],
    warnings: [...timed.warnings, ...rest.warnings],
  };
};

/**
 * The part of `checkIntent` that depends on the clock (the validity interval against now), alone:
 * all that can change between the review of some bytes and their signature.
 */
export const checkIntentTime = (
  tx: DecodedTransaction,
  intent: SigningIntent,
  profile: ExchangeProfile,
  options: CheckOptions = {},
): IntentReport => {
  const funds = intent.kind === 'deposit' || intent.kind === 'withdrawal';
  const f = findingsFor(intent, profile);
  checkTime(tx, profile, funds, options.now ?? Date.now(), f);
  return { differences: f.differences, warnings: f.warnings };
};

/** Everything `checkIntent` checks but the clock: the same for the same transaction and intent. */
export const checkIntentTimeless = (
  tx: DecodedTransaction,
  intent: SigningIntent,
  profile: ExchangeProfile,
): IntentReport => {
  const funds = intent.kind === 'deposit' || intent.kind === 'withdrawal';
  const f = findingsFor(intent, profile);
  checkNetwork(tx, profile, f);
  checkStructure(tx, f);
  checkFee(tx, profile, funds, f);
  checkBalance(tx, profile, f);
  const ourKeys = new Map<string, string>([[profile.operationKeyHash, 'trading key']]);
  if (tx.ownStakeKeyHash) ourKeys.set(tx.ownStakeKeyHash, 'stake key');
  if (tx.ownPaymentKeyHash) ourKeys.set(tx.ownPaymentKeyHash, 'wallet key');
  checkSigners(
    tx,
    profile,
    funds ? tx.ownPaymentKeyHash : profile.operationKeyHash,
    funds ? 'wallet key' : 'trading key',
    ourKeys,
    f,
  );
  switch (intent.kind) {
    case 'place-order':
      checkPlaceOrder(tx, intent, profile, f);
      break;
    case 'cancel-order':
      checkCancelOrder(tx, intent, profile, f);
      break;
    case 'deposit':
      checkDeposit(tx, intent, profile, f);
      break;
    case 'withdrawal':
      checkWithdrawal(tx, intent, profile, f);
      break;
  }
  return { differences: f.differences, warnings: f.warnings };
};
