import { FUNDS_WATCH_HOURS, FundsSettled } from '../../../../src-shared/contract/funds';

/** A toast for a deposit or withdrawal that left the "on its way" list; null for a bad payload. */
export const describeSettled = (
  payload: unknown,
): { tone: 'success' | 'warning'; title: string; detail: string } | null => {
  const parsed = FundsSettled.safeParse(payload);
  if (!parsed.success) return null;
  const { kind, title, txHash, outcome } = parsed.data;
  if (outcome === 'landed') {
    return kind === 'deposit'
      ? { tone: 'success', title: 'Deposit credited', detail: `${title}: now on the exchange.` }
      : { tone: 'success', title: 'Withdrawal arrived', detail: `${title}: now in your wallet.` };
  }
  const what = kind === 'deposit' ? 'Deposit' : 'Withdrawal';
  return {
    tone: 'warning',
    title: `${what} not seen to land`,
    detail: `${title}: Countersign stopped watching it after ${FUNDS_WATCH_HOURS} hours. Check your balances on the Funds screen, and look up its transaction in a Cardano explorer: ${txHash}.`,
  };
};
