import type { DecodedTransaction } from '../decode';
import { readIntentDatum, readIntentRedeemer } from '../intent-datum';
import type { WithdrawalIntent } from '../intent';
import { fieldsOf, plutusEquals } from '../plutus-data';
import type { ExchangeProfile } from '../profile';
import {
  add,
  ada,
  checkAccount,
  checkPlainOutput,
  datumOf,
  describe,
  intentPolicyOf,
  LOVELACE,
  outputText,
  sameAmounts,
  shortAddress,
  theIntentOutput,
  without,
  type Findings,
} from './shared';

/**
 * A withdrawal: it spends none of the trader's coins, pays exactly the typed amount (less the
 * published fee) to the wallet's own address, and leaves one withdrawal intent naming the
 * trader's account and exactly that amount, with the one intent token it mints.
 */
export const checkWithdrawal = (
  tx: DecodedTransaction,
  intent: WithdrawalIntent,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  const own = intent.ownUtxos ?? new Set<string>();
  for (const i of tx.inputs) {
    const party = i.known?.party;
    if (own.has(i.id) || party === 'own' || party === 'own-other') {
      f.refuse(
        `It spends a coin of your keys (${i.id}${i.known ? `, ${describe(i.known.amounts, profile)}` : ''}); a withdrawal never does`,
        'inputs',
      );
    } else if (i.known && party === 'foreign') {
      f.refuse(
        `It spends ${i.id}, a coin at ${shortAddress(i.known.address)} that is neither the exchange’s nor yours`,
        'inputs',
      );
    }
  }
  // Every coin it spends must be the exchange's: a coin the wallet does not list could still be
  // payable to one of its keys (parked at another address). Coins the chain was asked about are
  // judged by their address above (one it does not know is no coin of ours); should any input
  // not have been looked up, it may spend exactly one coin: the exchange's payout.
  const exchange = intent.exchangeUtxos;
  if (exchange === undefined) {
    const unchecked = tx.inputs.filter((i) => i.known === null && !i.absent);
    if (unchecked.length && tx.inputs.length !== 1) {
      f.refuse(
        `It spends ${tx.inputs.length} coins instead of the exchange’s one payout coin`,
        'inputs',
      );
    }
  } else {
    for (const i of tx.inputs) {
      if (exchange.has(i.id) && !own.has(i.id)) continue;
      f.refuse(`It spends ${i.id}, which is not one of the exchange’s coins`, 'inputs');
    }
  }
  for (const id of tx.collateralInputs) {
    if (own.has(id)) f.refuse(`It pledges your coins (${id}) as collateral`, 'inputs');
  }
  const toOwn = new Map<string, bigint>();
  for (const o of tx.outputs) {
    if (o.party === 'own') {
      checkPlainOutput(o, f, profile);
      add(toOwn, o.amounts);
    } else if (o.party === 'exchange-treasury') checkPlainOutput(o, f, profile);
    else if (o.party !== 'exchange-intent') {
      f.refuse(`${outputText(o, profile)}; a withdrawal pays only your wallet`, 'address');
    }
  }
  // The trader's own balance at the exchange, where a withdrawal spends a coin of it: only the
  // payout, the stated fee and the transaction's fee may leave it; the exchange moving the rest
  // (say, to its treasury) under the wallet key's signature is not what was asked.
  const fromAccount = new Map<string, bigint>();
  for (const i of tx.inputs) {
    if (i.known?.party === 'exchange-account') add(fromAccount, i.known.amounts);
  }
  if (fromAccount.size) {
    const elsewhere = new Map(fromAccount);
    add(elsewhere, toOwn, -1n);
    add(elsewhere, new Map([[LOVELACE, tx.fee + intent.statedFeeLovelace]]), -1n);
    const lost = new Map([...elsewhere].filter(([, q]) => q > 0n));
    if (lost.size) {
      f.refuse(
        `It takes ${describe(fromAccount, profile)} from your exchange account, but pays only ${describe(toOwn, profile)} to your wallet: ${describe(lost, profile)} of it go elsewhere`,
        'value',
      );
    }
  }
  const expected = new Map(intent.amounts);
  add(expected, new Map([[LOVELACE, intent.statedFeeLovelace]]), -1n);
  if (!sameAmounts(toOwn, expected)) {
    f.refuse(
      `It pays ${describe(toOwn, profile)} to your wallet instead of ${describe(expected, profile)} (the amount less the ${ada(intent.statedFeeLovelace)} fee)`,
      'value',
    );
  }
  // The intent: exactly one token minted for it, and its datum states exactly what was typed.
  const token = intentPolicyOf(profile);
  if (token === null) {
    f.refuse(
      'The exchange’s intent policy is not known, so the withdrawal’s token cannot be checked',
      'extra',
    );
  } else {
    const minted = [...tx.mint];
    if (minted.length !== 1 || minted[0]?.[0] !== token || minted[0][1] !== 1n) {
      f.refuse(
        minted.length
          ? `It mints or burns ${describe(tx.mint, profile)} instead of one intent token`
          : 'It mints no intent token for the withdrawal',
        'extra',
      );
    }
  }
  const out = theIntentOutput(tx, f, 'withdrawal request');
  if (!out) return;
  const carried = without(out.amounts, [LOVELACE, ...(token ? [token] : [])]);
  if (carried.size || (token !== null && out.amounts.get(token) !== 1n)) {
    f.refuse(
      `Output ${out.index} (the withdrawal request) carries ${describe(out.amounts, profile)} instead of only its intent token`,
      'value',
    );
  }
  const datum = datumOf(out, f, 'withdrawal request');
  if (datum === null) return;
  const read = readIntentDatum(datum);
  if (!read.ok) {
    f.refuse(`Output ${out.index} is not a withdrawal request: ${read.problem}`, 'terms');
    return;
  }
  if (read.value.intent !== 'withdrawal') {
    f.refuse(
      `Output ${out.index} states a ${read.value.intent} intent instead of a withdrawal`,
      'terms',
    );
    return;
  }
  if (!sameAmounts(read.value.amount, intent.amounts)) {
    f.refuse(
      `The withdrawal request asks for ${describe(read.value.amount, profile)} instead of the ${describe(intent.amounts, profile)} you typed`,
      'terms',
    );
  }
  checkAccount(read.value.account, 'the withdrawal’s account', f, tx, profile, [
    profile.operationKeyHash,
    ...(tx.ownPaymentKeyHash ? [tx.ownPaymentKeyHash] : []),
  ]);
  const redeemers = tx.redeemers;
  const mint = redeemers.find((r) => r.tag === 'mint' && r.index === 0);
  if (redeemers.length !== 1 || !mint) {
    f.refuse(
      `It carries ${redeemers.length} redeemers instead of the one for its intent token`,
      'extra',
    );
  } else {
    const redeemer = readIntentRedeemer(mint.data);
    const same =
      redeemer.ok &&
      redeemer.value.intent === 'withdrawal' &&
      plutusEquals(fieldsOf(mint.data)[0] ?? 0n, fieldsOf(datum)[0] ?? 1n) &&
      plutusEquals(fieldsOf(mint.data)[1] ?? 0n, fieldsOf(datum)[1] ?? 1n);
    if (!same)
      f.refuse(
        'The intent token’s redeemer does not carry the same withdrawal as the datum',
        'terms',
      );
  }
  if (!tx.flags.scriptDataHash)
    f.refuse('Its redeemers are not covered by a script data hash', 'extra');
};
