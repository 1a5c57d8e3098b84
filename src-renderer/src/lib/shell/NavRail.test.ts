import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import NavRail from './NavRail.svelte';

describe('NavRail', () => {
  it('lists the four sections and marks the current one', () => {
    render(NavRail, { current: 'funds', onselect: vi.fn() });
    const buttons = screen.getAllByRole('button').map((b) => b.textContent?.trim());
    expect(buttons).toEqual(['Trade', 'Orders', 'Funds', 'Settings']);
    expect(screen.getByRole('button', { name: 'Funds' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Trade' }).getAttribute('aria-current')).toBeNull();
  });

  it('asks to go where the trader clicks', async () => {
    const onselect = vi.fn();
    render(NavRail, { current: 'trade', onselect });
    await fireEvent.click(screen.getByRole('button', { name: 'Orders' }));
    expect(onselect).toHaveBeenCalledWith('orders');
  });
});
