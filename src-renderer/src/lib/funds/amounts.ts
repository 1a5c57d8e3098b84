import type { FundsRules, WalletBalance } from '../../../../src-shared/contract';
import { LOVELACE } from '../../../../src-shared/assets';
import { fromSmallestUnit, Money, type Money as MoneyValue } from '../../../../src-shared/money';
import { exact } from '../trade/format';

/** The real service's published rules (real-service.md), used until the exchange states its own. */
export const PUBLISHED_RULES: FundsRules = {
  minDepositLovelace: '2000000',
  minWithdrawalLovelace: '2000000',
  withdrawalFeeLovelace: '1000000',
  withdrawalFeeFromPayout: true,
  // A deposit's fee for 20 coins at Cardano's published fee parameters, and its change's 1 ADA.
  depositReserveLovelace: '1300000',
  depositReservePerTokenLovelace: '400000',
  depositReserveCoins: 20,
  depositReservePerCoinLovelace: '2376',
};

/** One asset row of the deposit or withdrawal form. */
export interface AmountLine {
  unit: string;
  name: string;
  decimals: number;
  /** What the trader typed, in human units. */
  text: string;
  /** What can be moved at most (wallet coins for a deposit, free balance for a withdrawal). */
  available: MoneyValue | null;
}

export interface FormCheck {
  /** Problems by unit, shown under that asset's field. */
  problems: Record<string, string>;
  /** A problem of the whole form (nothing typed, the ADA minimum). */
  general: string | null;
  /** What to send to main when there is no problem: only the non-empty lines. */
  amounts: Array<{ unit: string; amount: string }>;
}

const PLAIN_DECIMAL = /^\d{1,20}(\.\d{1,20})?$/;

/** Parses one typed amount; a problem in words, or the value. */
export const readAmount = (
  text: string,
  decimals: number,
  name: string,
): { value: MoneyValue } | { problem: string } | null => {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return null;
  if (!PLAIN_DECIMAL.test(trimmed)) {
    return { problem: `Type an amount of ${name} as a number, such as 25 or 12.5.` };
  }
  const value = new Money(trimmed);
  if (value.decimalPlaces() > decimals) {
    return {
      problem:
        decimals === 0
          ? `${name} comes in whole units only.`
          : `${name} has at most ${decimals} decimal places.`,
    };
  }
  if (value.isZero()) return null;
  return { value };
};

const ada = (lovelace: string): MoneyValue => fromSmallestUnit(lovelace, 6);

/**
 * Checks the deposit or withdrawal form before anything is built: amounts readable, within the
 * asset's precision, within what is available, and the exchange's ADA minimum (every deposit and
 * withdrawal carries at least that much ADA) and, for a withdrawal, its ADA fee.
 */
export const checkFundsForm = (
  kind: 'deposit' | 'withdrawal',
  lines: readonly AmountLine[],
  rules: FundsRules,
): FormCheck => {
  const problems: Record<string, string> = {};
  const amounts: FormCheck['amounts'] = [];
  const minimum = ada(kind === 'deposit' ? rules.minDepositLovelace : rules.minWithdrawalLovelace);
  // A fee taken on top must be free beside the amount; one taken from the payout need not.
  const fee =
    kind === 'withdrawal' && !rules.withdrawalFeeFromPayout
      ? ada(rules.withdrawalFeeLovelace)
      : new Money(0);
  let adaAmount: MoneyValue | null = null;

  for (const line of lines) {
    const read = readAmount(line.text, line.decimals, line.name);
    if (read === null) continue;
    if ('problem' in read) {
      problems[line.unit] = read.problem;
      continue;
    }
    const isAda = line.unit === LOVELACE;
    const needed = isAda ? read.value.plus(fee) : read.value;
    if (line.available !== null && needed.greaterThan(line.available)) {
      problems[line.unit] =
        kind === 'deposit'
          ? `Your wallet holds ${exact(line.available)} ${line.name}.`
          : isAda && fee.greaterThan(0)
            ? `You have ${exact(line.available)} ${line.name} free; with the ${exact(fee)} ${line.name} fee you can withdraw at most ${exact(Money.max(line.available.minus(fee), 0))}.`
            : `You have ${exact(line.available)} ${line.name} free on the exchange.`;
      continue;
    }
    if (isAda) adaAmount = read.value;
    amounts.push({ unit: line.unit, amount: read.value.toFixed() });
  }

  let general: string | null = null;
  if (Object.keys(problems).length === 0) {
    if (amounts.length === 0) {
      general = `Type how much to ${kind === 'deposit' ? 'deposit' : 'withdraw'}.`;
    } else if (adaAmount === null || adaAmount.lessThan(minimum)) {
      general = `Every ${kind} carries at least ${minimum.toFixed()} ADA (the exchange's minimum): ${
        adaAmount === null ? 'add' : 'raise'
      } the ADA amount to ${minimum.toFixed()} or more.`;
      if (adaAmount !== null) problems[LOVELACE] = `At least ${minimum.toFixed()} ADA.`;
    }
  }
  return {
    problems,
    general,
    amounts: Object.keys(problems).length === 0 && general === null ? amounts : [],
  };
};

/**
 * What a deposit of nearly everything leaves in the wallet now: its fee and change, more for
 * each kind of token that stays there (one not typed in full in its line), and more for the fee
 * of each coin beyond those the rules' reserve pays for (`coins`: how many the wallet holds),
 * that part rounded up to 0.1 ADA.
 */
export const depositReserve = (
  lines: readonly AmountLine[],
  rules: FundsRules,
  coins = 0,
): MoneyValue => {
  let staying = 0;
  for (const line of lines) {
    if (line.unit === LOVELACE || !line.available || line.available.isZero()) continue;
    const read = readAmount(line.text, line.decimals, line.name);
    const all = read !== null && 'value' in read && read.value.equals(line.available);
    if (!all) staying++;
  }
  const moreCoins = Math.max(0, coins - rules.depositReserveCoins);
  const forCoins = ada(rules.depositReservePerCoinLovelace)
    .times(moreCoins)
    .toDecimalPlaces(1, Money.ROUND_UP);
  return ada(rules.depositReserveLovelace)
    .plus(ada(rules.depositReservePerTokenLovelace).times(staying))
    .plus(forCoins);
};

/** What one transaction can spend of the wallet (see `WalletBalance`). */
export type OneTransaction = WalletBalance['oneTransaction'];

/**
 * What one deposit of these lines can spend: with a token typed, the coins led by that token's
 * (from a wallet of more than 100 coins, those may hold less ADA than the 100 richest). With
 * several tokens typed, the least of their figures; main's build is the judge of the exact set.
 */
export const spendingFor = (
  one: OneTransaction,
  lines: readonly AmountLine[],
): { coins: number; lovelace: string } => {
  let spending: { coins: number; lovelace: string } = one;
  for (const line of lines) {
    if (line.unit === LOVELACE) continue;
    const read = readAmount(line.text, line.decimals, line.name);
    const withToken = read !== null && 'value' in read ? one.withToken[line.unit] : undefined;
    if (withToken && BigInt(withToken.lovelace) < BigInt(spending.lovelace)) spending = withToken;
  }
  return spending;
};

/**
 * The most of one line that can be moved, what "Max" fills in: a token's whole amount; for a
 * withdrawal of ADA, the free ADA less a fee taken on top; for a deposit of ADA, the ADA one
 * transaction can spend (all the wallet's, unless it holds more than 100 coins) less what the
 * deposit must leave there (see `depositReserve`). Null when nothing can.
 */
export const mostToMove = (
  kind: 'deposit' | 'withdrawal',
  line: AmountLine,
  lines: readonly AmountLine[],
  rules: FundsRules,
  /** For a deposit: the coins it can spend and their ADA (its reserve grows with the coins). */
  oneTransaction?: OneTransaction,
): MoneyValue | null => {
  if (!line.available) return null;
  let available = line.available;
  let keep = new Money(0);
  if (line.unit === LOVELACE) {
    if (kind === 'deposit') {
      const spending = oneTransaction && spendingFor(oneTransaction, lines);
      keep = depositReserve(lines, rules, spending?.coins ?? 0);
      if (spending) available = Money.min(available, ada(spending.lovelace));
    } else if (!rules.withdrawalFeeFromPayout) keep = ada(rules.withdrawalFeeLovelace);
  }
  const most = available.minus(keep);
  return most.greaterThan(0) ? most : null;
};
