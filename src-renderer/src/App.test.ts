import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import { ErrorCode } from '../../src-shared/errors';
import { FakeMain, mainError } from './lib/testing/fake-main';
import { fakeMain, SETTINGS } from './lib/testing/frame';

beforeEach(() => {
  location.hash = '#/settings';
  localStorage.clear();
});
afterEach(() => {
  location.hash = '';
});

const start = (main: FakeMain) => {
  main.install();
  render(App);
  return main;
};

describe('the app frame', () => {
  it('starts a new install on onboarding, with the network and "No wallet" in the status bar', async () => {
    start(fakeMain({}, 'no-wallet'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome to Countersign' }),
    ).toBeTruthy();
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).toContain('Sandbox');
    expect(bar.textContent).toContain('No wallet');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('unlocks from the status bar with the spending password, and says so', async () => {
    const main = start(
      fakeMain(
        {
          'session:unlock': ({ password }) => {
            if (password !== 'the right password') {
              throw mainError(ErrorCode.WrongPassword, 'Wrong password. 4 more tries.');
            }
            return { state: 'unlocked', walletName: 'Main', walletId: null };
          },
        },
        'locked',
      ),
    );
    const bar = await screen.findByRole('contentinfo', { name: 'Status' });
    await fireEvent.click(await within(bar).findByRole('button', { name: 'Unlock' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Main' });
    expect(dialog.textContent).toContain('when you are away (15 min), or when');
    const field = within(dialog).getByLabelText('Spending password');
    await fireEvent.input(field, { target: { value: 'wrong' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Wrong password. 4 more tries.',
    );
    await fireEvent.input(field, { target: { value: 'the right password' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unlock Main' })).toBeNull());
    expect(bar.textContent).toContain('Unlocked');
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toContain('Unlocked');
    expect(main.callsTo('session:unlock')).toHaveLength(2);
  });

  it('locks with Ctrl+Shift+L and opens the shortcut list with ?', async () => {
    const main = start(
      fakeMain({
        'session:lock': () => ({ state: 'locked', walletName: 'Main', lockReason: 'user' }),
      }),
    );
    const bar = await screen.findByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(bar.textContent).toContain('Unlocked'));
    await fireEvent.keyDown(window, { key: 'L', code: 'KeyL', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(bar.textContent).toContain('Locked'));
    expect(main.callsTo('session:lock')).toHaveLength(1);
    await fireEvent.keyDown(window, { key: '?' });
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(help.textContent).toContain('Lock the wallet now');
    expect(help.textContent).toContain('Go to Funds');
    // The Trade screen's own, in their groups.
    expect(
      within(help).getByRole('region', { name: 'Trade: the order form' }).textContent,
    ).toContain('Place the order in the order form');
  });

  it('moves between sections with Alt and a number', async () => {
    start(fakeMain({}));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await fireEvent.keyDown(window, { code: 'Digit3', altKey: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Funds' })).toBeTruthy();
    expect(location.hash).toBe('#/funds');
  });

  it('fills the window with what to do when main cannot be reached', async () => {
    start(
      new FakeMain({
        'app:info': () => {
          throw mainError(ErrorCode.ForbiddenSender, 'The test harness refused or lost this page.');
        },
        // A refused page is refused on every channel (the update prompt asks too).
        'updates:status': () => {
          throw mainError(ErrorCode.ForbiddenSender, 'The test harness refused or lost this page.');
        },
        'session:status': () => ({ state: 'no-wallet', walletName: null }),
      }),
    );
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Countersign cannot reach its main process',
    });
    expect(heading.closest('[role="alert"]')?.textContent).toContain(
      'The test harness refused or lost this page.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('says across the whole screen when the exchange is unreachable, and what to do', async () => {
    const main = start(fakeMain({}));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    main.emit('exchange:connection', {
      state: 'offline',
      network: 'sandbox',
      detail: 'The practice exchange does not answer.',
      since: '2025-01-01T00:00:00Z',
    });
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('No connection to the exchange (Sandbox)');
    expect(banner.textContent).toContain('The practice exchange does not answer.');
    expect(within(banner).getByRole('button', { name: 'Try again now' })).toBeTruthy();
    main.emit('exchange:connection', {
      state: 'live',
      network: 'sandbox',
      detail: 'Streams up.',
      since: '2025-01-01T00:00:00Z',
    });
    await waitFor(() => expect(screen.queryByText(/No connection to the exchange/)).toBeNull());
  });

  it('offers the operations left unfinished by a crash, and submits one only when asked', async () => {
    const pendingOperation = {
      id: '9b2f3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
      kind: 'place-order' as const,
      title: 'Buy 100 ADA at 0.45 USDM',
      network: 'sandbox',
      signedAt: '2025-01-01T10:00:00Z',
      txId: 'ef'.repeat(32),
      state: 'not-submitted' as const,
      explanation: 'The exchange has no record of it.',
    };
    const main = start(
      fakeMain({
        'operations:pending': () => [pendingOperation],
        'operations:resolve': () => [],
      }),
    );
    const prompt = await screen.findByRole('dialog', {
      name: 'Unfinished operations from last time',
    });
    expect(prompt.textContent).toContain('Buy 100 ADA at 0.45 USDM');
    expect(prompt.textContent).toContain('Never reached the exchange');
    expect(main.callsTo('operations:resolve')).toEqual([]);
    await fireEvent.click(within(prompt).getByRole('button', { name: 'Submit now' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Unfinished operations from last time' }),
      ).toBeNull(),
    );
    expect(main.callsTo('operations:resolve')).toEqual([
      { id: pendingOperation.id, action: 'submit' },
    ]);
  });

  it('toasts a fill and keeps it in the activity list', async () => {
    const main = start(fakeMain({}));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    const order = {
      id: 'o-1',
      accountId: null,
      symbol: 'ADAUSDM',
      side: 'sell' as const,
      type: 'limit' as const,
      status: 'fully_filled' as const,
      price: '0.45',
      baseQty: '100',
      quoteQty: null,
      lockedBaseQty: '0',
      lockedQuoteQty: '0',
      executedBaseQty: '100',
      executedQuoteQty: '45',
      executedPrice: '0.45',
      openBaseQty: '0',
      marketOrderLimitPrice: null,
      slippageBp: null,
      commission: '0.045',
      commissionRateBp: 10,
      commissionUnit: 'USDM',
      activeOrderUtxoId: null,
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:00:00Z',
      executions: [
        {
          id: 'e-1',
          orderId: 'o-1',
          accountId: null,
          counterPartyOrderId: null,
          price: '0.45',
          baseQty: '100',
          quoteQty: '45',
          commission: '0.045',
          commissionUnit: 'USDM',
          role: 'maker' as const,
          createdAt: '2025-01-01T00:00:00Z',
        },
      ],
    };
    main.emit('orders:filled', { order, executionId: 'e-1' });
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts.textContent).toContain('Sold 100 at 0.45 on ADAUSDM'));
    await fireEvent.click(screen.getByRole('button', { name: /Activity/ }));
    const activity = await screen.findByRole('dialog', { name: 'Activity' });
    expect(activity.textContent).toContain('Order filled');
  });

  it('takes the theme from the settings main keeps', async () => {
    start(fakeMain({ 'settings:get': () => ({ ...SETTINGS, theme: 'light' }) }));
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBe('light'));
  });
});
