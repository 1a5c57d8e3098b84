import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { TRADE_SHORTCUTS } from '../trade';
import ShortcutHelp from './ShortcutHelp.svelte';
import { SHORTCUT_GROUPS } from './shortcuts';

/** A group's rows as the trader reads them: the keys pressed, and what they do. */
const rowsOf = (title: string) =>
  within(screen.getByRole('region', { name: title }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [keys, does] = within(row).getAllByRole('cell');
      const pressed = [...(keys?.querySelectorAll('kbd') ?? [])].map((k) => k.textContent);
      return [pressed.join('+'), does?.textContent?.trim()];
    });

describe('the shortcut help panel', () => {
  it('lists the Trade screen’s shortcuts, grouped by where they act', () => {
    render(ShortcutHelp, { props: { groups: SHORTCUT_GROUPS, onclose: vi.fn() } });
    const titles = within(screen.getByRole('dialog'))
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(titles).toEqual([
      'Everywhere',
      'Trade: the order form',
      'Trade: the order book and your open orders',
    ]);
    expect(rowsOf('Trade: the order form')).toEqual([
      ['Ctrl+Enter', 'Place the order in the order form'],
      ['B', 'Switch the order form to Buy'],
      ['S', 'Switch the order form to Sell'],
      ['L', 'Switch the order form to a limit order'],
      ['M', 'Switch the order form to a market order'],
      ['P', 'Focus the price field'],
      ['Q', 'Focus the quantity field'],
    ]);
    expect(rowsOf('Trade: the order book and your open orders')).toEqual([
      ['O', 'Focus the order book (arrows move, Enter takes the price)'],
      ['Delete', 'Cancel the selected open order'],
    ]);
    // Every key the Trade screen answers to is in the panel, once.
    const listed = SHORTCUT_GROUPS.slice(1).flatMap((g) => g.shortcuts.map((s) => s.keys));
    expect(listed.sort()).toEqual(TRADE_SHORTCUTS.map((s) => s.keys).sort());
    // And the frame's own are still first.
    expect(rowsOf('Everywhere')[0]).toEqual(['?', 'Show or hide this list of shortcuts']);
  });

  it('closes from its button', async () => {
    const onclose = vi.fn();
    render(ShortcutHelp, { props: { groups: SHORTCUT_GROUPS, onclose } });
    const dialog = screen.getByRole('dialog');
    const buttons = within(dialog).getAllByRole('button', { name: 'Close' });
    await fireEvent.click(buttons.at(-1) as HTMLElement);
    expect(onclose).toHaveBeenCalledOnce();
  });
});
