import { smallestUnitText } from '../../../src-shared/money';
import {
  displayAmounts,
  LOVELACE,
  type Amounts,
  type DecodedOutput,
  type DecodedTransaction,
} from '../decode';
import type { Credential, LayoutAccount } from '../intent-datum';
import { idMatches } from '../intent-datum';
import { readAddress } from '../address';
import type { PlutusData } from '../plutus-data';
import type { ExchangeProfile } from '../profile';

/** The principle a difference breaks, as the trader reads it at the end of the message. */
export const WHY = {
  inputs: 'every coin it spends must be accounted for',
  value: 'only what you asked for may leave your keys',
  address: 'your money may only come back to your wallet’s own address',
  time: 'a signed transaction must not outlive its build',
  cancel: 'a cancel spends exactly the order it names',
  witnesses: 'signatures already in it must be genuine',
  extra: 'nothing unexplained may ride along',
  terms: 'what you typed is what gets signed',
  network: 'it must be for this network',
} as const;
export type Why = keyof typeof WHY;

export type OperationKind = 'place-order' | 'cancel-order' | 'deposit' | 'withdrawal';

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What the checks found: differences refuse; warnings need the trader's confirmation. */
export class Findings {
  readonly differences: string[] = [];
  readonly warnings: string[] = [];

  constructor(
    private readonly kind: OperationKind,
    /** Whether what cannot be verified becomes a warning (a trade on a 'warn' network). */
    private readonly warnWhenUnverified: boolean,
  ) {}

  refuse(text: string, why: Why): void {
    this.differences.push(`${capital(text)} (${WHY[why]}).`);
  }

  /** Something of the trader's terms that cannot be compared with the transaction. */
  unverified(what: string): void {
    const funds = this.kind === 'deposit' || this.kind === 'withdrawal';
    if (funds) {
      this.differences.push(
        `Countersign could not verify ${what}; it signs deposits and withdrawals only when it can verify everything.`,
      );
    } else if (this.warnWhenUnverified) {
      this.warnings.push(
        `Countersign could not verify ${what}. Sign only if you trust the exchange with this ${this.kind === 'place-order' ? 'order' : 'cancel'}.`,
      );
    } else {
      this.differences.push(
        `Countersign could not verify ${what}, and your setting for this network refuses ${this.kind === 'place-order' ? 'orders' : 'cancels'} it cannot verify.`,
      );
    }
  }
}

const ADA_DECIMALS = 6;

export const ada = (lovelace: bigint): string => `${smallestUnitText(lovelace, ADA_DECIMALS)} ADA`;

/** Amounts in human units: `12.5 ADA + 3 USDM`. */
export const describe = (amounts: Amounts, profile: ExchangeProfile): string =>
  displayAmounts(amounts, profile.assets)
    .filter((a) => a.quantity !== '0')
    .map((a) => `${a.amount} ${a.name}`)
    .join(' + ') || 'nothing';

export const one = (unit: string, quantity: bigint): Amounts => new Map([[unit, quantity]]);

export const add = (into: Map<string, bigint>, amounts: Amounts, sign = 1n): void => {
  for (const [unit, q] of amounts) into.set(unit, (into.get(unit) ?? 0n) + sign * q);
};

export const sameAmounts = (a: Amounts, b: Amounts): boolean => {
  const units = new Set([...a.keys(), ...b.keys()]);
  return [...units].every((u) => (a.get(u) ?? 0n) === (b.get(u) ?? 0n));
};

export const without = (amounts: Amounts, units: readonly string[]): Map<string, bigint> =>
  new Map([...amounts].filter(([u, q]) => !units.includes(u) && q !== 0n));

export const shortAddress = (address: string): string =>
  address.length > 30 ? `${address.slice(0, 18)}…${address.slice(-8)}` : address;

export const shortHash = (hash: string): string => `${hash.slice(0, 8)}…`;

/** Where an output goes, in the trader's words. */
export const destination = (o: DecodedOutput): string => {
  switch (o.party) {
    case 'own':
      return 'your wallet';
    case 'own-other':
      return `another address of your keys (${shortAddress(o.address)}), which your balance does not show`;
    case 'exchange-intent':
      return 'the exchange’s intent address';
    case 'exchange-deposit':
      return 'the exchange’s deposit address';
    case 'exchange-treasury':
      return 'the exchange’s treasury';
    case 'exchange-account':
      return 'your exchange account';
    default:
      return `an address that is neither yours nor the exchange’s (${shortAddress(o.address)})`;
  }
};

export const outputText = (o: DecodedOutput, profile: ExchangeProfile): string =>
  `Output ${o.index} sends ${describe(o.amounts, profile)} to ${destination(o)}`;

/** The intent token's policy: the profile's, or the intent address's script hash. */
export const intentPolicyOf = (profile: ExchangeProfile): string | null => {
  if (profile.intentPolicyId) return profile.intentPolicyId;
  const intent = profile.addresses.intent;
  const read = intent ? readAddress(intent) : null;
  return read?.payment?.type === 'script' ? read.payment.hash : null;
};

/** Outputs that carry something no output of this operation should carry. */
export const checkPlainOutput = (o: DecodedOutput, f: Findings, profile: ExchangeProfile): void => {
  if (o.datum !== 'none') {
    f.refuse(`${outputText(o, profile)} with a datum it does not need`, 'extra');
  }
};

/** The keys an account names are this wallet's; `what` is `the order’s account` etc. */
export const checkAccount = (
  account: LayoutAccount,
  what: string,
  f: Findings,
  tx: DecodedTransaction,
  profile: ExchangeProfile,
  operationKeys: readonly string[],
): void => {
  if (account.kind !== 'spot') {
    f.refuse(`${what} is a ${account.kind} account, not your trading (spot) account`, 'terms');
  }
  if (profile.accountId === undefined) {
    f.unverified(`${what}’s id, because your account id at the exchange is not known`);
  } else if (!idMatches(account.accountId, profile.accountId)) {
    f.refuse(`${what} is another account than yours`, 'terms');
  }
  const isKey = (c: Credential, hashes: readonly string[]) =>
    c.type === 'key' && hashes.includes(c.hash);
  if (!tx.ownPaymentKeyHash || !isKey(account.masterKey, [tx.ownPaymentKeyHash])) {
    f.refuse(`${what} names another master key than your wallet’s`, 'terms');
  }
  if (!isKey(account.operationKey, operationKeys)) {
    f.refuse(`${what} names another trading key than yours`, 'terms');
  }
};

/** The one output at the intent address and its datum, or a difference. */
export const theIntentOutput = (
  tx: DecodedTransaction,
  f: Findings,
  what: string,
): DecodedOutput | null => {
  const intents = tx.outputs.filter((o) => o.party === 'exchange-intent');
  if (intents.length !== 1) {
    f.refuse(
      `It leaves ${intents.length} intents at the exchange’s intent address instead of one ${what}`,
      'extra',
    );
    return null;
  }
  const out = intents[0] as DecodedOutput;
  if (out.datum === 'hash') {
    f.refuse(
      `Output ${out.index} (the ${what}) carries a datum hash instead of its datum, so its terms cannot be read`,
      'terms',
    );
    return null;
  }
  if (out.datum === 'none') {
    f.refuse(`Output ${out.index} (the ${what}) carries no datum`, 'terms');
    return null;
  }
  return out;
};

/** The datum itself, or why it cannot be read (to the unverified path). */
export const datumOf = (out: DecodedOutput, f: Findings, what: string): PlutusData | null => {
  if (out.inlineDatum === null) {
    f.unverified(
      `the ${what}, whose datum is not Plutus data (${out.datumProblem ?? 'unreadable'})`,
    );
    return null;
  }
  return out.inlineDatum;
};

export { LOVELACE };
