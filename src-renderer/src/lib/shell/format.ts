import type { Party } from '../../../../src-shared/contract';

/** A long hash or address, shortened to what a trader compares by eye: start…end. */
export const shorten = (text: string, head = 10, tail = 6): string =>
  text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`;

/** Whose an address is, in the trader's words. */
export const PARTY_LABELS: Readonly<Record<Party, string>> = {
  own: 'Your wallet',
  'own-other': 'Another address of your keys (not in your balance)',
  'not-on-chain': 'The exchange (not a coin on the chain, so not yours)',
  'exchange-account': 'Your exchange account',
  'exchange-order': 'Exchange order book (your order)',
  'exchange-deposit': 'Exchange deposit address',
  'exchange-treasury': 'Exchange treasury',
  'exchange-intent': 'Exchange request address',
  unknown: 'An address Countersign does not know',
};

/**
 * What the data attached to an output (its datum) is, by who receives it: the exchange's
 * contracts read an order's terms, a deposit's account or a request from it.
 */
export const datumLabel = (party: Party): string => {
  switch (party) {
    case 'exchange-order':
      return 'with the order’s terms';
    case 'exchange-deposit':
      return 'with the account to credit';
    case 'exchange-intent':
      return 'with your request';
    default:
      return 'with attached data';
  }
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A moment as a trader reads it: local date and time to the second. */
export const formatDateTime = (iso: string | Date): string => {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

export const formatTime = (at: Date | number): string => {
  const date = typeof at === 'number' ? new Date(at) : at;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/** "in 1 min 05 s", "in 12 s", or "expired". */
export const formatCountdown = (ms: number): string => {
  if (ms <= 0) return 'expired';
  const seconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${pad(seconds % 60)} s` : `${seconds} s`;
};

/** Groups the integer part of a decimal string with thin spaces, keeping every digit exact. */
export const groupDigits = (decimal: string): string => {
  const [whole = '', fraction] = decimal.split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
};
