import { describe, expect, it } from 'vitest';
import { transactionTopic } from '../shell/notices.svelte';
import { describeSettled } from './settled';

const TX = 'ab'.repeat(32);

describe('a deposit or withdrawal leaving the list', () => {
  it('says a credited deposit is on the exchange and an arrived withdrawal in the wallet', () => {
    expect(
      describeSettled({ kind: 'deposit', txHash: TX, title: 'Deposit 100 ADA', outcome: 'landed' }),
    ).toEqual({
      tone: 'success',
      title: 'Deposit credited',
      detail: 'Deposit 100 ADA: now on the exchange.',
      // The same topic as the toast that said it was sent: this one takes its place.
      topic: transactionTopic(TX),
    });
    expect(
      describeSettled({
        kind: 'withdrawal',
        txHash: TX,
        title: 'Withdraw 20 ADA',
        outcome: 'landed',
      }),
    ).toMatchObject({ tone: 'success', title: 'Withdrawal arrived' });
  });

  it('warns, never reports success, for one no longer watched, naming its transaction', () => {
    const told = describeSettled({
      kind: 'deposit',
      txHash: TX,
      title: 'Deposit 100 ADA',
      outcome: 'unconfirmed',
    });
    expect(told?.tone).toBe('warning');
    expect(told?.title).toBe('Deposit not seen to land');
    // Whole, to be copied from the activity list into an explorer.
    expect(told?.detail).toContain(TX);
    expect(told?.detail).not.toMatch(/credited|arrived/);
  });

  it('ignores a payload that is not one', () => {
    expect(describeSettled({ kind: 'deposit', outcome: 'landed' })).toBeNull();
    expect(
      describeSettled({ kind: 'refund', txHash: TX, title: 'x', outcome: 'landed' }),
    ).toBeNull();
  });
});
