import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import { ErrorCode } from '../../src-shared/errors';
import { connectionEvent } from './lib/testing/connection';
import { FakeMain, mainError } from './lib/testing/fake-main';
import { fakeMain, SETTINGS } from './lib/testing/frame';
import { ADA_USDM } from './lib/trade/fake-api';

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

  it('shows another section from its top, not at the height the last one was scrolled to', async () => {
    start(fakeMain({}));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    const area = heading.closest('.section');
    if (!area) throw new Error('no scrolling area');
    area.scrollTop = 600;
    expect(area.scrollTop).toBe(600);
    await fireEvent.keyDown(window, { code: 'Digit3', altKey: true });
    await screen.findByRole('heading', { level: 1, name: 'Funds' });
    expect(area.scrollTop).toBe(0);
  });

  it('reads the markets once for the frame and every screen that shows them', async () => {
    location.hash = '#/trade';
    const main = start(fakeMain({ 'market:markets': () => [ADA_USDM] }));
    // The Trade screen names its market by the list's units.
    await screen.findByRole('heading', { level: 1, name: 'Trade ADA/USDM' });
    await fireEvent.keyDown(window, { code: 'Digit2', altKey: true });
    await screen.findByRole('heading', { level: 1, name: 'Orders' });
    // The Orders screen's market filter offers the same list.
    const filter = await screen.findByRole('combobox', { name: 'Market' });
    await waitFor(() =>
      expect(within(filter).getByRole('option', { name: 'ADA/USDM' })).toBeTruthy(),
    );
    await fireEvent.keyDown(window, { code: 'Digit1', altKey: true });
    await screen.findByRole('heading', { level: 1, name: 'Trade ADA/USDM' });
    expect(main.callsTo('market:markets')).toHaveLength(1);
  });

  it('fills the window with what to do when main cannot be reached', async () => {
    start(
      new FakeMain({
        'app:info': () => {
          throw mainError(ErrorCode.ForbiddenSender, 'The test harness refused or lost this page.');
        },
        // A refused page is refused on every channel (the update prompt and the frame's market
        // list ask too).
        'updates:status': () => {
          throw mainError(ErrorCode.ForbiddenSender, 'The test harness refused or lost this page.');
        },
        'market:markets': () => {
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
    main.emit(
      'exchange:connection',
      connectionEvent('offline', 'The practice exchange does not answer.'),
    );
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('No connection to the exchange (Sandbox)');
    expect(banner.textContent).toContain('The practice exchange does not answer.');
    expect(within(banner).getByRole('button', { name: 'Try again now' })).toBeTruthy();
    main.emit('exchange:connection', connectionEvent('live', 'Streams up.'));
    await waitFor(() => expect(screen.queryByText(/No connection to the exchange/)).toBeNull());
  });

  it('shows what main repaired (the practice exchange started afresh) in words, with what to do, until closed', async () => {
    location.hash = '#/trade';
    const damaged =
      "The practice exchange's saved data could not be read (journal.ndjson: line 1 cannot be read), so a fresh practice exchange was started: earlier practice accounts, balances and orders are not in it. To trade on it again, reset the practice exchange in Settings › Practice exchange with your spending password.";
    const session = {
      state: 'locked' as const,
      walletName: 'Main',
      walletId: null,
      walletKind: 'full' as const,
      lockReason: 'start' as const,
    };
    // Main answers the status before the sandbox has announced itself, then pushes it.
    const main = start(fakeMain({ 'session:status': () => ({ ...session, notices: [] }) }));
    await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByRole('heading', { name: 'Some saved data could not be read' })).toBeNull();
    main.emit('session:changed', { ...session, notices: [damaged] });
    const heading = await screen.findByRole('heading', {
      name: 'Some saved data could not be read',
    });
    const notice = heading.closest('[role="alert"]') as HTMLElement;
    expect(notice.textContent).toContain('a fresh practice exchange was started');
    expect(notice.textContent).toContain('reset the practice exchange in Settings');
    await fireEvent.click(within(notice).getByRole('button', { name: 'Open Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    // Closed, it stays closed, also when the status is pushed again with the same notice.
    await fireEvent.click(within(notice).getByRole('button', { name: 'Close this notice' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: 'Some saved data could not be read' }),
      ).toBeNull(),
    );
    main.emit('session:changed', { ...session, notices: [damaged] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('heading', { name: 'Some saved data could not be read' })).toBeNull();
  });

  it('shows a repair notice on the welcome screen too (the wallet list itself was damaged)', async () => {
    const damaged =
      'The wallet list (wallets.json) was damaged (not JSON). It was moved aside as wallets.json.damaged-1; no wallet could be recovered from it. Your keys are still in the system keychain: restore any missing wallet from its recovery phrase.';
    start(
      fakeMain(
        {
          'session:status': () => ({
            state: 'no-wallet',
            walletName: null,
            walletId: null,
            notices: [damaged],
          }),
        },
        'no-wallet',
      ),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome to Countersign' }),
    ).toBeTruthy();
    const notice = screen
      .getByRole('heading', { name: 'Some saved data could not be read' })
      .closest('[role="alert"]') as HTMLElement;
    expect(notice.textContent).toContain('restore any missing wallet from its recovery phrase');
    expect(within(notice).queryByRole('button', { name: 'Open Settings' })).toBeNull();
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

  it('after a restart (locked), offers to unlock before anything can be submitted, then shows what the exchange says', async () => {
    const deposit = {
      id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      kind: 'deposit' as const,
      title: 'Deposit 100 ADA',
      network: 'Sandbox',
      signedAt: '2025-01-01T10:00:00Z',
      txId: 'ab'.repeat(32),
      state: 'not-submitted' as const,
      explanation: 'It was signed but never sent. You can submit it or discard it.',
    };
    let unlocked = false;
    const main = start(
      fakeMain(
        {
          'operations:pending': () => [deposit],
          'session:unlock': () => {
            unlocked = true;
            return { state: 'unlocked', walletName: 'Main', walletId: null };
          },
        },
        'locked',
      ),
    );
    const prompt = await screen.findByRole('dialog', {
      name: 'Unfinished operations from last time',
    });
    expect(prompt.textContent).toContain('Your wallet is locked. Unlock it to submit any of these');
    expect(within(prompt).queryByRole('button', { name: 'Submit now' })).toBeNull();
    expect(within(prompt).getByRole('button', { name: 'Discard' })).toBeTruthy();
    const loadsBefore = main.callsTo('operations:pending').length;

    // Not now: the prompt comes back as it was.
    await fireEvent.click(within(prompt).getByRole('button', { name: 'Unlock' }));
    const notNow = await screen.findByRole('dialog', { name: 'Unlock Main' });
    expect(
      screen.queryByRole('dialog', { name: 'Unfinished operations from last time' }),
    ).toBeNull();
    await fireEvent.click(within(notNow).getByRole('button', { name: 'Cancel' }));
    const back = await screen.findByRole('dialog', {
      name: 'Unfinished operations from last time',
    });
    expect(back.textContent).toContain('Your wallet is locked');

    await fireEvent.click(within(back).getByRole('button', { name: 'Unlock' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Main' });
    await fireEvent.input(within(dialog).getByLabelText('Spending password'), {
      target: { value: 'the password' },
    });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(unlocked).toBe(true);
    // Back, read again now that the exchange can be asked, and now it can be sent.
    const again = await screen.findByRole('dialog', {
      name: 'Unfinished operations from last time',
    });
    expect(main.callsTo('operations:pending').length).toBeGreaterThan(loadsBefore);
    expect(await within(again).findByRole('button', { name: 'Submit now' })).toBeTruthy();
    expect(again.textContent).not.toContain('Your wallet is locked');
    expect(main.callsTo('operations:resolve')).toEqual([]);
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
    // The markets could not be read at start, nor at that fill; the next fill reads them, and
    // the fills after it are told in the market's units.
    expect(main.callsTo('market:markets')).toHaveLength(2);
    main.handle('market:markets', () => [ADA_USDM]);
    main.emit('orders:filled', { order, executionId: 'e-1' });
    await waitFor(() => expect(main.callsTo('market:markets')).toHaveLength(3));
    await new Promise((done) => setTimeout(done, 0));
    expect(toasts.textContent).not.toContain('Sold 100 ADA');
    main.emit('orders:filled', { order, executionId: 'e-1' });
    await waitFor(() => expect(toasts.textContent).toContain('Sold 100 ADA at 0.4500 USDM'));
    await fireEvent.click(screen.getByRole('button', { name: /Activity/ }));
    const activity = await screen.findByRole('dialog', { name: 'Activity' });
    expect(activity.textContent).toContain('Order filled');
  });

  it('toasts a deposit credited and one not seen to land, whatever screen is open', async () => {
    const main = start(fakeMain({}));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    const txHash = 'cd'.repeat(32);
    main.emit('funds:settled', {
      kind: 'deposit',
      txHash,
      title: 'Deposit 100 ADA',
      outcome: 'landed',
    });
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts.textContent).toContain('Deposit credited'));
    expect(toasts.textContent).toContain('Deposit 100 ADA: now on the exchange.');
    main.emit('funds:settled', {
      kind: 'withdrawal',
      txHash,
      title: 'Withdraw 20 ADA',
      outcome: 'unconfirmed',
    });
    await waitFor(() => expect(toasts.textContent).toContain('Withdrawal not seen to land'));
  });

  it('takes the theme from the settings main keeps', async () => {
    start(fakeMain({ 'settings:get': () => ({ ...SETTINGS, theme: 'light' }) }));
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBe('light'));
  });
});
