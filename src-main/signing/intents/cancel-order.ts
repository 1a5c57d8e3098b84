import type { DecodedTransaction } from '../decode';
import { idMatches, readIntentDatum, showId } from '../intent-datum';
import type { CancelOrderIntent } from '../intent';
import type { ExchangeProfile } from '../profile';
import {
  ada,
  add,
  checkAccount,
  checkPlainOutput,
  datumOf,
  describe,
  intentPolicyOf,
  LOVELACE,
  outputText,
  sameAmounts,
  theIntentOutput,
  without,
  type Findings,
} from './shared';

const TWO_ADA = 2_000_000n;

/**
 * A cancel: it spends exactly the order it names and nothing else, leaves one intent at the
 * intent address naming that order and the trader's account (carrying only the order's intent
 * token), mints nothing, and returns what the order locked to the trader's exchange account.
 */
export const checkCancelOrder = (
  tx: DecodedTransaction,
  intent: CancelOrderIntent,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  if (!tx.inputs.some((i) => i.id === intent.orderUtxo)) {
    f.refuse(`It does not spend the order being cancelled (${intent.orderUtxo})`, 'cancel');
  }
  for (const input of tx.inputs) {
    if (input.id === intent.orderUtxo) continue;
    const ours = input.known?.party === 'own' || input.known?.party === 'own-other';
    f.refuse(
      `It also spends ${input.id}${ours ? ', a coin of your keys,' : ''} besides the order being cancelled`,
      'cancel',
    );
  }
  if (tx.mint.size) f.refuse(`It mints or burns tokens; a cancel never does`, 'extra');
  if (tx.redeemers.length || tx.flags.scriptDataHash) {
    f.refuse('It carries redeemers; a cancel needs none', 'extra');
  }
  const refund = new Map<string, bigint>();
  for (const o of tx.outputs) {
    if (o.party === 'exchange-intent') continue;
    if (o.party === 'exchange-account') {
      checkPlainOutput(o, f, profile);
      add(refund, o.amounts);
    } else {
      f.refuse(
        `${outputText(o, profile)}; a cancel only returns the order’s funds to your exchange account`,
        'value',
      );
    }
  }
  if (!profile.addresses.account) {
    f.unverified(
      'where the cancel returns the order’s funds, because your exchange account’s address is not known',
    );
  }
  // Tokens come back exactly; ADA at least as locked (an order's minimum ADA may come back too).
  // Where the record's figure is only a floor, at least that of every asset.
  const expected = intent.refund;
  const short = expected
    ? intent.refundAtLeast
      ? [...expected].some(([unit, q]) => (refund.get(unit) ?? 0n) < q)
      : !sameAmounts(without(refund, [LOVELACE]), without(expected, [LOVELACE])) ||
        (refund.get(LOVELACE) ?? 0n) < (expected.get(LOVELACE) ?? 0n)
    : false;
  if (expected && short) {
    f.refuse(
      `It returns ${describe(refund, profile)} to your exchange account instead of ${intent.refundAtLeast ? 'at least ' : ''}the ${describe(expected, profile)} the order locks`,
      'value',
    );
  }
  const out = theIntentOutput(tx, f, 'cancel');
  if (!out) return;
  const token = intentPolicyOf(profile);
  const carried = without(out.amounts, [LOVELACE, ...(token ? [token] : [])]);
  if (carried.size || (token !== null && out.amounts.get(token) !== 1n)) {
    f.refuse(
      `Output ${out.index} (the cancel) carries ${describe(out.amounts, profile)} instead of only the order’s intent token`,
      'value',
    );
  }
  // The ADA beside the token comes out of the order being cancelled, so it is the trader's: the
  // intent keeps no more than an output's minimum, whatever the refund figure (the exchange's
  // own record, when it is known at all) says the order locks.
  const kept = out.amounts.get(LOVELACE) ?? 0n;
  const minAda = profile.maxOrderMinAdaLovelace ?? TWO_ADA;
  if (kept > minAda) {
    f.refuse(
      `Output ${out.index} (the cancel) keeps ${ada(kept)} at the exchange’s intent address instead of returning it to your exchange account; an intent needs at most ${ada(minAda)}`,
      'value',
    );
  }
  const datum = datumOf(out, f, 'cancel');
  if (datum === null) return;
  const read = readIntentDatum(datum);
  if (!read.ok) {
    f.unverified(`the cancel, because ${read.problem}`);
    return;
  }
  if (read.value.intent !== 'cancel-order') {
    f.refuse(
      `Output ${out.index} states a ${read.value.intent} intent instead of a cancel`,
      'cancel',
    );
    return;
  }
  if (!idMatches(read.value.orderId, intent.orderId)) {
    f.refuse(
      `The cancel names order ${showId(read.value.orderId)}, not ${intent.orderId}`,
      'cancel',
    );
  }
  checkAccount(read.value.account, 'the cancel’s account', f, tx, profile, [
    profile.operationKeyHash,
  ]);
};
