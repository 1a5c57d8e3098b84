import { FUNDS_WATCH_HOURS, FundsSettled } from '../../../../src-shared/contract/funds';
import { transactionTopic } from '../shell/notices.svelte';

/** A toast for a deposit or withdrawal that left the "on its way" list; null for a bad payload. */
export const describeSettled = (
  payload: unknown,
): { tone: 'success' | 'warning'; title: string; detail: string; topic: string } | null => {
  const parsed = FundsSettled.safeParse(payload);
  if (!parsed.success) return null;
  const { kind, title, txHash, outcome } = parsed.data;
  // About the same transaction as the toast that said it was sent, which this one replaces.
  const topic = transactionTopic(txHash);
  if (outcome === 'landed') {
    return kind === 'deposit'
      ? {
          tone: 'success',
          title: 'Deposit credited',
          detail: `${title}: now on the exchange.`,
          topic,
        }
      : {
          tone: 'success',
          title: 'Withdrawal arrived',
          detail: `${title}: now in your wallet.`,
          topic,
        };
  }
  const what = kind === 'deposit' ? 'Deposit' : 'Withdrawal';
  return {
    topic,
    tone: 'warning',
    title: `${what} not seen to land`,
    detail: `${title}: Countersign stopped watching it after ${FUNDS_WATCH_HOURS} hours. Check your balances on the Funds screen, and look up its transaction in a Cardano explorer: ${txHash}.`,
  };
};
