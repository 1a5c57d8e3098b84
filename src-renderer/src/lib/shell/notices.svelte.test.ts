import { afterEach, describe, expect, it, vi } from 'vitest';
import { Notices } from './notices.svelte';

afterEach(() => vi.useRealTimers());

describe('Notices', () => {
  it('shows each outcome as a toast and keeps it, newest first, in the activity list', () => {
    const notices = new Notices(() => 1_000);
    notices.success('Deposit submitted', 'Deposit 25 ADA');
    notices.error('Order not placed', 'Insufficient balance.');
    expect(notices.toasts.map((t) => t.title)).toEqual(['Deposit submitted', 'Order not placed']);
    expect(notices.all.map((t) => t.title)).toEqual(['Order not placed', 'Deposit submitted']);
    expect(notices.unread).toBe(2);
    notices.markAllRead();
    expect(notices.unread).toBe(0);
  });

  it('takes a success off the screen after a while but leaves an error until dismissed', () => {
    vi.useFakeTimers();
    const notices = new Notices();
    notices.success('Order placed');
    const error = notices.error('Withdrawal not made', 'The exchange is unreachable.');
    vi.advanceTimersByTime(60_000);
    expect(notices.toasts.map((t) => t.title)).toEqual(['Withdrawal not made']);
    notices.dismiss(error.id);
    expect(notices.toasts).toEqual([]);
    expect(notices.all).toHaveLength(2);
  });

  it('keeps at most three toasts on screen (they must not cover the trading panels)', () => {
    const notices = new Notices();
    for (let i = 0; i < 6; i += 1) notices.error(`failure ${i}`);
    expect(notices.toasts.map((t) => t.title)).toEqual(['failure 3', 'failure 4', 'failure 5']);
    expect(notices.all).toHaveLength(6);
    notices.dispose();
  });

  it('shows one toast for each order: its fill takes the place of its placing, in either order', () => {
    const notices = new Notices();
    notices.success('Order placed', 'Buy 10 ADA at 0.65 USDM', {
      topic: 'order:a',
      earlierStep: true,
    });
    notices.success('Deposit credited', '2000 ADA');
    notices.success('Order filled', 'Bought 10 ADA at 0.65 USDM', { topic: 'order:a' });
    expect(notices.toasts.map((t) => t.title)).toEqual(['Deposit credited', 'Order filled']);
    // A market order's fill can arrive before the answer that it was placed.
    notices.success('Order filled', 'Sold 5 ADA at 0.64 USDM', { topic: 'order:b' });
    notices.success('Order placed', 'Sell 5 ADA at market', {
      topic: 'order:b',
      earlierStep: true,
    });
    expect(notices.toasts.map((t) => t.title)).toEqual([
      'Deposit credited',
      'Order filled',
      'Order filled',
    ]);
    expect(notices.toasts.map((t) => t.detail)).toContain('Sold 5 ADA at 0.64 USDM');
    // Partial fills of one order follow each other in one toast; everything stays in the list.
    notices.success('Order partly filled', 'Bought 1 ADA', { topic: 'order:c' });
    notices.success('Order partly filled', 'Bought 2 ADA', { topic: 'order:c' });
    expect(notices.toasts.filter((t) => t.topic === 'order:c').map((t) => t.detail)).toEqual([
      'Bought 2 ADA',
    ]);
    expect(notices.all).toHaveLength(7);
    // Another order's placing is shown.
    notices.success('Order placed', 'Buy 1 ADA', { topic: 'order:d', earlierStep: true });
    expect(notices.toasts.at(-1)?.title).toBe('Order placed');
    notices.dispose();
  });

  it('lists a placing told after its fill below the fill, at the fill’s time', () => {
    let now = 1_000;
    const notices = new Notices(() => now);
    const fill = notices.success('Order filled', 'Bought 12 ADA at 0.6536 USDM', {
      topic: 'order:m',
    });
    notices.dismiss(fill.id);
    now = 3_000;
    notices.success('Deposit credited', '2000 ADA');
    now = 4_000;
    notices.success('Order placed', 'Market buy 12 ADA', { topic: 'order:m', earlierStep: true });
    expect(notices.all.map((n) => [n.title, n.at])).toEqual([
      ['Deposit credited', 3_000],
      ['Order filled', 1_000],
      ['Order placed', 1_000],
    ]);
    // Told of after the fill's toast has gone: still no toast for the earlier step.
    expect(notices.toasts.map((t) => t.title)).toEqual(['Deposit credited']);
    expect(notices.unread).toBe(3);
    notices.dispose();
  });
});
