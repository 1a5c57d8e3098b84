import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import StatusBar from './StatusBar.svelte';

const info = {
  name: 'Countersign',
  version: '1.2.3',
  network: 'production' as const,
  dataDir: '/d',
  runtime: 'electron' as const,
};

const base = {
  info,
  network: 'production' as const,
  networkLabel: 'Production (mainnet)',
  connection: null,
};

describe('StatusBar', () => {
  it('shows the network, the exchange connection and the lock state a trader must always see', () => {
    render(StatusBar, {
      ...base,
      session: { state: 'unlocked', walletName: 'Savings' },
      connection: { state: 'live', network: 'production', detail: 'Streams up', since: '' },
    });
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).toContain('Production (mainnet)');
    expect(bar.textContent).toContain('Exchange: Live');
    expect(bar.textContent).toMatch(/Unlocked\s+· Savings/);
    expect(bar.textContent).toContain('v1.2.3');
    expect(bar.textContent).not.toContain('Harness');
  });

  it('says when there is no wallet and when the wallet is locked', async () => {
    const { rerender } = render(StatusBar, {
      ...base,
      session: { state: 'no-wallet', walletName: null },
    });
    expect(screen.getByTitle('Trading session').textContent).toContain('No wallet');
    await rerender({ ...base, session: { state: 'locked', walletName: 'Main' } });
    expect(screen.getByTitle('Trading session').textContent).toMatch(/Locked\s+· Main/);
  });

  it('offers Lock while unlocked and Unlock while locked', async () => {
    const onlock = vi.fn();
    const onunlock = vi.fn();
    const { rerender } = render(StatusBar, {
      ...base,
      session: { state: 'unlocked', walletName: 'Main' },
      onlock,
      onunlock,
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Lock' }));
    expect(onlock).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
    await rerender({ ...base, session: { state: 'locked', walletName: 'Main' }, onlock, onunlock });
    await fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(onunlock).toHaveBeenCalled();
  });

  it('says the exchange is offline in words, with main’s detail on hover', () => {
    render(StatusBar, {
      ...base,
      session: null,
      connection: {
        state: 'offline',
        network: 'production',
        detail: 'No answer from api.deltadefi.io for 30 s.',
        since: '',
      },
    });
    const item = screen.getByTitle('No answer from api.deltadefi.io for 30 s.');
    expect(item.textContent).toContain('Exchange: Offline');
  });

  it('lights the connection’s bars by its state: three live, two polling, one connecting, none offline', async () => {
    const { container, rerender } = render(StatusBar, { ...base, session: null });
    const litBars = () => container.querySelectorAll('.bars i.lit').length;
    expect(container.querySelectorAll('.bars i')).toHaveLength(3);
    expect(litBars()).toBe(0);
    for (const [state, lit] of [
      ['live', 3],
      ['polling', 2],
      ['connecting', 1],
      ['offline', 0],
    ] as const) {
      await rerender({
        ...base,
        session: null,
        connection: { state, network: 'production', detail: '', since: '' },
      });
      expect(litBars(), state).toBe(lit);
    }
  });

  it('names the watch-only wallet as such and counts unread activity', () => {
    render(StatusBar, {
      ...base,
      session: { state: 'locked', walletName: 'Cold', walletKind: 'watch-only' },
      unread: 3,
      onactivity: vi.fn(),
    });
    expect(screen.getByTitle('Trading session').textContent).toContain('(watch-only)');
    expect(screen.getByRole('button', { name: /Activity/ }).textContent).toContain('3');
  });

  it('offers the unfinished operations the trader put off, and only while there are some', async () => {
    const onunfinished = vi.fn();
    const session = { state: 'unlocked' as const, walletName: 'Main' };
    const { rerender } = render(StatusBar, { ...base, session, unfinished: 0, onunfinished });
    expect(screen.queryByRole('button', { name: /Unfinished operations/ })).toBeNull();
    await rerender({ ...base, session, unfinished: 2, onunfinished });
    const button = screen.getByRole('button', { name: 'Unfinished operations 2' });
    await fireEvent.click(button);
    expect(onunfinished).toHaveBeenCalledOnce();
  });
});
