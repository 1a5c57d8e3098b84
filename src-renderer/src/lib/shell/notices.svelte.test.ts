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
});
