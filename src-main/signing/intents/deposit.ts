import type { DecodedTransaction } from '../decode';
import { readDepositRequest } from '../intent-datum';
import type { DepositIntent } from '../intent';
import type { ExchangeProfile } from '../profile';
import {
  add,
  checkAccount,
  checkPlainOutput,
  describe,
  LOVELACE,
  outputText,
  sameAmounts,
  type Findings,
} from './shared';

/**
 * A deposit: it spends exactly the coins the trader chose, pays exactly the amount asked to the
 * exchange's deposit address under a deposit request naming the trader's account, and returns
 * everything else, less the fee, to the wallet's own address.
 */
export const checkDeposit = (
  tx: DecodedTransaction,
  intent: DepositIntent,
  profile: ExchangeProfile,
  f: Findings,
): void => {
  const chosen = new Set(intent.inputs.keys());
  const spent = new Set(tx.inputs.map((i) => i.id));
  for (const id of spent) {
    if (!chosen.has(id)) f.refuse(`It spends ${id}, which you did not choose`, 'inputs');
  }
  for (const id of chosen) {
    if (!spent.has(id)) f.refuse(`It does not spend ${id}, which you chose`, 'inputs');
  }
  if (tx.mint.size) f.refuse('It mints or burns tokens; a deposit never does', 'extra');
  if (tx.redeemers.length || tx.flags.scriptDataHash) {
    f.refuse('It carries redeemers; a deposit needs none', 'extra');
  }
  if (!profile.addresses.deposit) {
    f.refuse(
      'The exchange’s deposit address is not known, so the destination cannot be checked',
      'value',
    );
  }
  const toExchange = new Map<string, bigint>();
  const toOwn = new Map<string, bigint>();
  const deposits = tx.outputs.filter((o) => o.party === 'exchange-deposit');
  for (const o of tx.outputs) {
    if (o.party === 'exchange-deposit') add(toExchange, o.amounts);
    else if (o.party === 'own') {
      checkPlainOutput(o, f, profile);
      add(toOwn, o.amounts);
    } else
      f.refuse(
        `${outputText(o, profile)}; a deposit pays only the exchange and your wallet`,
        'address',
      );
  }
  if (!sameAmounts(toExchange, intent.amounts)) {
    f.refuse(
      `It pays ${describe(toExchange, profile)} to the exchange instead of ${describe(intent.amounts, profile)}`,
      'value',
    );
  }
  if (deposits.length !== 1) {
    f.refuse(`It pays the deposit address in ${deposits.length} outputs instead of one`, 'value');
  }
  for (const o of deposits) {
    if (o.datum !== 'inline' || o.inlineDatum === null) {
      f.refuse(
        `Output ${o.index} (the deposit) carries ${o.datum === 'hash' ? 'a datum hash instead of its deposit request' : o.datum === 'inline' ? `an unreadable datum (${o.datumProblem ?? 'unknown'})` : 'no deposit request'}, so the account it credits cannot be checked`,
        'terms',
      );
      continue;
    }
    const read = readDepositRequest(o.inlineDatum);
    if (!read.ok) {
      f.refuse(
        `Output ${o.index} (the deposit) is not a deposit request: ${read.problem}`,
        'terms',
      );
      continue;
    }
    checkAccount(read.value.account, 'the deposit’s account', f, tx, profile, [
      profile.operationKeyHash,
      ...(tx.ownPaymentKeyHash ? [tx.ownPaymentKeyHash] : []),
    ]);
    if (!sameAmounts(read.value.amount, o.amounts)) {
      f.refuse(
        `The deposit request states ${describe(read.value.amount, profile)} while output ${o.index} pays ${describe(o.amounts, profile)}`,
        'terms',
      );
    }
  }
  // What comes back: everything chosen, less the deposit and the fee.
  const expectedChange = new Map<string, bigint>();
  for (const input of intent.inputs.values()) add(expectedChange, input.amounts);
  add(expectedChange, intent.amounts, -1n);
  add(expectedChange, new Map([[LOVELACE, tx.fee]]), -1n);
  if (!sameAmounts(toOwn, expectedChange)) {
    f.refuse(
      `It returns ${describe(toOwn, profile)} to your wallet instead of ${describe(expectedChange, profile)}`,
      'value',
    );
  }
};
