import { Money, smallestUnitText } from '../../../src-shared/money';
import type { DecodedOutput, DecodedTransaction } from '../decode';
import {
  readIntentDatum,
  readIntentRedeemer,
  idMatches,
  showId,
  type LayoutOrder,
} from '../intent-datum';
import type { OrderTerms, PlaceOrderIntent } from '../intent';
import { fieldsOf, plutusEquals, type PlutusData } from '../plutus-data';
import type { ExchangeProfile } from '../profile';
import {
  ada,
  checkAccount,
  checkPlainOutput,
  datumOf,
  describe,
  intentPolicyOf,
  LOVELACE,
  one,
  outputText,
  theIntentOutput,
  without,
  type Findings,
} from './shared';

/**
 * An order: it spends only the trader's exchange account, mints exactly one intent token, leaves
 * exactly one intent at the intent address whose datum states the order the trader typed (side,
 * price, size, fee rate, account and the order id the exchange answered) and locks exactly what
 * that order needs, and returns the rest to the trader's exchange account.
 */

const TWO_ADA = 2_000_000n;
const BILLION = 1_000_000_000n;

const decimalsOf = (unit: string, profile: ExchangeProfile): number | null =>
  unit === LOVELACE ? 6 : (profile.assets?.get(unit)?.decimals ?? null);

const nameOf = (unit: string, profile: ExchangeProfile): string =>
  unit === LOVELACE ? 'ADA' : (profile.assets?.get(unit)?.name ?? `${unit.slice(0, 8)}…`);

const priceText = (p9: bigint): string => smallestUnitText(p9, 9);

/** What an order locks: its size of base for a sell, ⌈size × price⌉ of quote for a buy. */
const needed = (
  order: LayoutOrder,
  baseDecimals: number,
  quoteDecimals: number,
): { unit: string; quantity: bigint } | null => {
  if (!order.isLong) return { unit: order.longUnit, quantity: order.size };
  if (order.priceTimes1e9 === 0n) return null;
  const n = order.size * order.priceTimes1e9 * 10n ** BigInt(quoteDecimals);
  const d = BILLION * 10n ** BigInt(baseDecimals);
  return { unit: order.shortUnit, quantity: (n + d - 1n) / d };
};

const checkTerms = (
  order: LayoutOrder,
  terms: OrderTerms,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  if (!idMatches(order.orderId, terms.orderId)) {
    f.refuse(
      `The order’s datum names order ${showId(order.orderId)}, not ${terms.orderId}, the one the exchange answered`,
      'terms',
    );
  }
  if (order.longUnit !== terms.baseUnit || order.shortUnit !== terms.quoteUnit) {
    f.refuse(
      `The order trades ${nameOf(order.longUnit, profile)} for ${nameOf(order.shortUnit, profile)} instead of ${nameOf(terms.baseUnit, profile)} for ${nameOf(terms.quoteUnit, profile)}`,
      'terms',
    );
  }
  const side = order.isLong ? 'buy' : 'sell';
  if (side !== terms.side) f.refuse(`The order would ${side} instead of ${terms.side}`, 'terms');
  if (order.size !== terms.quantityUnits) {
    const decimals = decimalsOf(terms.baseUnit, profile);
    const show = (q: bigint) =>
      decimals === null
        ? `${q} units`
        : `${smallestUnitText(q, decimals)} ${nameOf(terms.baseUnit, profile)}`;
    f.refuse(
      `The order’s size is ${show(order.size)} instead of ${show(terms.quantityUnits)}`,
      'terms',
    );
  }
  const price = order.priceTimes1e9;
  const typed = terms.price === null ? null : terms.price.times(1e9);
  const quote = nameOf(terms.quoteUnit, profile);
  if (terms.type === 'limit') {
    if (typed === null) {
      f.unverified('the order’s price, because no limit price was given for a limit order');
    } else if (typed.minus(price.toString()).abs().greaterThan(1)) {
      f.refuse(
        `The order’s price is ${priceText(price)} ${quote} instead of ${terms.price?.toFixed()} ${quote}`,
        'terms',
      );
    }
  } else if (typed !== null) {
    const limit = new Money(price.toString());
    const worse =
      terms.side === 'buy'
        ? price === 0n || limit.greaterThan(typed.plus(1))
        : limit.lessThan(typed.minus(1));
    if (worse) {
      f.refuse(
        `The market order may fill at ${price === 0n ? 'any price' : `${priceText(price)} ${quote}`}, worse than the ${terms.price?.toFixed()} ${quote} you accept`,
        'terms',
      );
    }
  }
  if (profile.tradingFeeBp === undefined) {
    f.unverified('the order’s fee rate, because the exchange’s published rate is not known');
  } else if (order.feeBp !== BigInt(profile.tradingFeeBp)) {
    f.refuse(
      `The order’s fee rate is ${order.feeBp} bp instead of the ${profile.tradingFeeBp} bp the exchange publishes`,
      'terms',
    );
  }
};

/** The intent output holds exactly the intent token and what the order needs. */
const checkLocked = (
  out: DecodedOutput,
  order: LayoutOrder | null,
  intent: PlaceOrderIntent,
  token: string | null,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  const what = `Output ${out.index} (the order)`;
  if (token !== null && (out.amounts.get(token) ?? 0n) !== 1n) {
    f.refuse(`${what} does not hold exactly one intent token`, 'extra');
  }
  const { unit, quantity, upTo } = intent.lock;
  const locked = out.amounts.get(unit) ?? 0n;
  const fits = upTo ? locked > 0n && locked <= quantity : locked === quantity;
  if (!fits) {
    f.refuse(
      `${what} locks ${describe(one(unit, locked), profile)} instead of ${upTo ? 'at most ' : ''}${describe(one(unit, quantity), profile)}`,
      'value',
    );
  }
  const extra = without(out.amounts, [unit, LOVELACE, ...(token ? [token] : [])]);
  if (extra.size) f.refuse(`${what} also locks ${describe(extra, profile)}`, 'value');
  const lovelace = out.amounts.get(LOVELACE) ?? 0n;
  const minAda = profile.maxOrderMinAdaLovelace ?? TWO_ADA;
  if (unit !== LOVELACE && lovelace > minAda) {
    f.refuse(`${what} also locks ${ada(lovelace)}, more than its ${ada(minAda)} minimum`, 'value');
  }
  if (!order) return;
  const baseDecimals = decimalsOf(order.longUnit, profile);
  const quoteDecimals = decimalsOf(order.shortUnit, profile);
  if (baseDecimals === null || quoteDecimals === null) {
    f.unverified('what the order needs to lock, because the decimals of its assets are not known');
    return;
  }
  const need = needed(order, baseDecimals, quoteDecimals);
  if (need === null) {
    // A market buy without a price limit locks what the trader allowed (`lock`, checked above).
    if (!upTo || unit !== order.shortUnit) {
      f.refuse(`The order may buy at any price, which you did not ask for`, 'terms');
    }
    return;
  }
  const held = out.amounts.get(need.unit) ?? 0n;
  if (held !== need.quantity && !(upTo && need.unit === unit)) {
    f.refuse(
      `${what} locks ${describe(one(need.unit, held), profile)}, but the order its datum states needs ${describe(one(need.unit, need.quantity), profile)}`,
      'value',
    );
  }
};

export const checkPlaceOrder = (
  tx: DecodedTransaction,
  intent: PlaceOrderIntent,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  // Inputs: only the exchange's, never a coin of the trader's keys.
  for (const input of tx.inputs) {
    const party = input.known?.party;
    if (party === 'own' || party === 'own-other') {
      f.refuse(`It spends coins of your keys (${input.id}); an order never does`, 'inputs');
    }
  }
  // Exactly one input: the trader's exchange account (the one the app names, when it knows it).
  const named = intent.accountUtxo;
  if (tx.inputs.length !== 1 || (named !== undefined && tx.inputs[0]?.id !== named)) {
    f.refuse(
      `It spends ${tx.inputs.length === 1 ? `${tx.inputs[0]?.id}` : `${tx.inputs.length} inputs`} instead of only your exchange account’s${named ? ` ${named}` : ''}`,
      'inputs',
    );
  }
  // Outputs besides the intent: only back to the trader's exchange account, plain.
  for (const o of tx.outputs) {
    if (o.party === 'exchange-intent') continue;
    if (o.party === 'exchange-account') checkPlainOutput(o, f, profile);
    else
      f.refuse(
        `${outputText(o, profile)}; an order only returns change to your exchange account`,
        'value',
      );
  }
  if (!profile.addresses.account) {
    f.unverified(
      'where the order’s change goes, because your exchange account’s address is not known',
    );
  }
  // The mint: exactly one intent token, for the same order as the datum.
  const policy = intentPolicyOf(profile);
  const token = policy; // the token's unit: policy id + empty name
  if (token === null) {
    f.unverified('the order’s intent token, because the exchange’s intent policy is not known');
  } else {
    const minted = [...tx.mint];
    if (minted.length !== 1 || minted[0]?.[0] !== token || minted[0][1] !== 1n) {
      f.refuse(
        minted.length
          ? `It mints or burns ${minted.map(([u, q]) => `${q} of ${u === token ? 'the intent token' : u}`).join(', ')} instead of one intent token`
          : 'It mints no intent token for the order',
        'extra',
      );
    }
  }
  const out = theIntentOutput(tx, f, 'order');
  let datumOrder: PlutusData | null = null;
  let order: LayoutOrder | null = null;
  if (out) {
    const datum = datumOf(out, f, 'order');
    if (datum !== null) {
      const read = readIntentDatum(datum);
      if (!read.ok) f.unverified(`the order, because ${read.problem}`);
      else if (read.value.intent !== 'place-order') {
        f.refuse(
          `Output ${out.index} states a ${read.value.intent} intent instead of an order`,
          'terms',
        );
      } else {
        order = read.value.order;
        datumOrder = fieldsOf(datum)[0] ?? null;
        checkAccount(order.account, 'the order’s account', f, tx, profile, [
          profile.operationKeyHash,
        ]);
        if (intent.terms) checkTerms(order, intent.terms, profile, f);
        else f.unverified('the order’s terms, because they were not given to the signer');
      }
    }
    checkLocked(out, order, intent, token, profile, f);
  }
  // The redeemer of the mint carries the same order.
  const redeemers = tx.redeemers;
  const mintRedeemer = redeemers.find((r) => r.tag === 'mint' && r.index === 0);
  if (redeemers.length !== 1 || !mintRedeemer) {
    f.refuse(
      `It carries ${redeemers.length} redeemers instead of the one for its intent token`,
      'extra',
    );
  } else if (datumOrder !== null) {
    const read = readIntentRedeemer(mintRedeemer.data);
    const redeemerOrder = fieldsOf(mintRedeemer.data)[0];
    const same =
      read.ok &&
      read.value.intent === 'place-order' &&
      redeemerOrder !== undefined &&
      plutusEquals(redeemerOrder, datumOrder);
    if (!same)
      f.refuse('The intent token’s redeemer does not carry the same order as the datum', 'terms');
  }
  if (!tx.flags.scriptDataHash && redeemers.length) {
    f.refuse('Its redeemers are not covered by a script data hash', 'extra');
  }
};
