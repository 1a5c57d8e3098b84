import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import StatusBar from './StatusBar.svelte';

const info = {
  name: 'Countersign',
  version: '1.2.3',
  network: 'production' as const,
  dataDir: '/d',
  runtime: 'electron' as const,
};

describe('StatusBar', () => {
  it('shows the network and the lock state a trader must always see', () => {
    render(StatusBar, {
      info,
      session: { state: 'unlocked', walletName: 'Savings' },
      error: null,
    });
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).toContain('Production (mainnet)');
    expect(bar.textContent).toContain('Unlocked · Savings');
    expect(bar.textContent).toContain('v1.2.3');
    expect(bar.textContent).not.toContain('Harness');
  });

  it('says when there is no wallet and when the wallet is locked', async () => {
    const { rerender } = render(StatusBar, {
      info,
      session: { state: 'no-wallet', walletName: null },
      error: null,
    });
    expect(screen.getByTitle('Trading session').textContent).toContain('No wallet');
    await rerender({ info, session: { state: 'locked', walletName: 'Main' }, error: null });
    expect(screen.getByTitle('Trading session').textContent).toContain('Locked · Main');
  });

  it('shows a failure to reach main as an alert, in words', () => {
    render(StatusBar, { info: null, session: null, error: 'Countersign lost contact.' });
    expect(screen.getByRole('alert').textContent).toBe('Countersign lost contact.');
  });
});
