import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import type { Component } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import { connectionEvent } from '../testing/connection';
import type { FakeMain } from '../testing/fake-main';
import { mainError } from '../testing/fake-main';
import { fakeMain, frameOver, SETTINGS, WALLET_ID, walletSummary } from '../testing/frame';
import WithApp from '../testing/WithApp.svelte';
import { Theme } from '../theme/theme.svelte';
import SettingsView from './SettingsView.svelte';

const show = async (main: FakeMain) => {
  const app = await frameOver(main);
  const onaddwallet = vi.fn();
  const theme = new Theme(null, null, () => app.status.settings?.theme ?? null);
  render(WithApp, {
    props: {
      app,
      run: vi.fn(async () => null),
      // WithApp takes any screen; its props are checked by the screen itself.
      component: SettingsView as unknown as Component<Record<string, unknown>>,
      props: { theme, onaddwallet },
    },
  });
  return { app, onaddwallet, main };
};

const panel = (name: string) => screen.getByRole('region', { name });

describe('Settings', () => {
  it('switches network through main and says so', async () => {
    const { main, app } = await show(
      fakeMain({ 'settings:setNetwork': ({ network }) => ({ ...SETTINGS, network }) }),
    );
    const network = panel('Network');
    // Nothing to switch to while the network in use is the one chosen.
    expect(within(network).queryByRole('button', { name: /^Switch to/ })).toBeNull();
    await fireEvent.click(within(network).getByRole('radio', { name: /Staging \(preprod\)/ }));
    await fireEvent.click(
      within(network).getByRole('button', { name: 'Switch to Staging (preprod)' }),
    );
    await waitFor(() => expect(app.notices.all[0]?.title).toBe('Now on Staging (preprod)'));
    expect(app.status.network).toBe('staging');
    expect(main.callsTo('settings:setNetwork')).toEqual([{ network: { name: 'staging' } }]);
  });

  it('says how it is connected in one plain sentence, and why when live updates are down', async () => {
    const { main } = await show(fakeMain());
    const line = within(panel('Network')).getByTestId('connection');
    main.emit(
      'exchange:connection',
      connectionEvent('polling', 'No live updates: the connection was refused. Retrying in 4 s.'),
    );
    await waitFor(() =>
      expect(line.textContent?.replace(/\s+/g, ' ').trim()).toBe(
        'Connected, refreshed every few seconds. No live updates: the connection was refused. Retrying in 4 s.',
      ),
    );
    main.emit('exchange:connection', connectionEvent('live', 'Live.'));
    await waitFor(() => expect(line.textContent?.trim()).toBe('Connected, with live updates.'));
  });

  it('refuses a custom address that would leak the API key, in words', async () => {
    const { main } = await show(fakeMain());
    const network = panel('Network');
    await fireEvent.click(within(network).getByRole('radio', { name: /^Custom/ }));
    await fireEvent.input(within(network).getByLabelText('Exchange address'), {
      target: { value: 'http://exchange.example.com' },
    });
    expect(network.textContent).toContain('would send your API key in the clear');
    expect(
      (within(network).getByRole('button', { name: 'Switch to Custom' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(main.callsTo('settings:setNetwork')).toEqual([]);
  });

  it('reads coins through Koios until a Blockfrost project id is saved, checked before it is sent', async () => {
    const PROJECT = `preprod${'Ab3'.repeat(10)}xy`;
    const { main } = await show(
      fakeMain({
        'settings:get': () => ({ ...SETTINGS, network: { name: 'staging' } }),
        'wallet:setBlockfrost': ({ projectId }) => ({
          ...walletSummary(),
          blockfrost: projectId ? '••••3Axy' : null,
        }),
      }),
    );
    const chain = panel('Coins on Cardano');
    expect(within(chain).getByTestId('chain-provider').textContent).toContain('Koios');
    const id = within(chain).getByLabelText('Blockfrost project id') as HTMLInputElement;
    expect(id.type).toBe('password');
    const password = within(chain).getByLabelText('Spending password');
    await fireEvent.input(id, { target: { value: `mainnet-from-the-wrong-place` } });
    await fireEvent.input(password, { target: { value: 'my spending password' } });
    await fireEvent.click(within(chain).getByRole('button', { name: 'Use Blockfrost' }));
    expect(chain.textContent).toContain('reads like preprod followed by 32 letters and digits');
    expect(main.callsTo('wallet:setBlockfrost')).toEqual([]);
    await fireEvent.input(id, { target: { value: ` ${PROJECT} ` } });
    await fireEvent.click(within(chain).getByRole('button', { name: 'Use Blockfrost' }));
    await waitFor(() =>
      expect(main.callsTo('wallet:setBlockfrost')).toEqual([
        { walletId: WALLET_ID, projectId: PROJECT, password: 'my spending password' },
      ]),
    );
    expect(id.value).toBe('');
  });

  it('offers no Blockfrost on the practice exchange, which keeps its own coins', async () => {
    await show(fakeMain());
    expect(screen.queryByRole('region', { name: 'Coins on Cardano' })).toBeNull();
  });

  it('shows the API key masked only, and saves a new one sealed with the password', async () => {
    const { main } = await show(
      fakeMain({
        'settings:get': () => ({ ...SETTINGS, network: { name: 'staging' } }),
        'wallet:setApiKey': () => walletSummary(),
      }),
    );
    const access = panel('Exchange access');
    expect(access.textContent).toContain('••••b4d7');
    const key = within(access).getByLabelText('Replace with a new API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    await fireEvent.input(key, { target: { value: 'K'.repeat(32) } });
    await fireEvent.input(within(access).getAllByLabelText('Spending password')[0] as HTMLElement, {
      target: { value: 'my spending password' },
    });
    await fireEvent.click(within(access).getByRole('button', { name: 'Save API key' }));
    await waitFor(() =>
      expect(main.callsTo('wallet:setApiKey')).toEqual([
        { walletId: WALLET_ID, apiKey: 'K'.repeat(32), password: 'my spending password' },
      ]),
    );
    expect(key.value).toBe('');
  });

  it('imports the exchange’s operation key with both passwords', async () => {
    const { main, app } = await show(
      fakeMain({
        'settings:get': () => ({ ...SETTINGS, network: { name: 'production' } }),
        'settings:importOperationKey': () => walletSummary(),
      }),
    );
    const access = panel('Exchange access');
    await fireEvent.input(within(access).getByLabelText('Trading password (from the exchange)'), {
      target: { value: 'trading-pass' },
    });
    const spending = within(access).getAllByLabelText('Spending password');
    await fireEvent.input(spending[1] as HTMLElement, { target: { value: 'spending-pass' } });
    await fireEvent.click(within(access).getByRole('button', { name: 'Import trading key' }));
    await waitFor(() =>
      expect(main.callsTo('settings:importOperationKey')).toEqual([
        { walletId: WALLET_ID, tradingPassword: 'trading-pass', password: 'spending-pass' },
      ]),
    );
    // The session that held the old key was closed by main: the trader is told to unlock.
    await waitFor(() => expect(app.notices.all[0]?.title).toBe('Trading key imported'));
    expect(app.notices.all[0]?.detail).toBe(
      "Main now trades with the exchange's key. Unlock again to trade with it.",
    );
  });

  it('renames, switches and removes wallets, removal only after re-typing the name', async () => {
    const other = {
      ...walletSummary({ name: 'Savings' }),
      id: '3c9e2b1a-0f4d-4e5c-9b8a-7d6c5b4a3f2e',
      active: false,
    };
    const { main, onaddwallet } = await show(
      fakeMain({
        'wallet:list': () => ({ wallets: [walletSummary(), other], activeWalletId: WALLET_ID }),
        'wallet:rename': ({ name }) => ({ ...walletSummary(), name }),
        'wallet:select': () => other,
        'wallet:remove': () => ({ wallets: [walletSummary()], activeWalletId: WALLET_ID }),
      }),
    );
    const wallets = panel('Wallets');
    await fireEvent.click(within(wallets).getByRole('button', { name: 'Rename Main' }));
    const name = within(wallets).getByLabelText('New name');
    await fireEvent.input(name, { target: { value: 'Trading' } });
    await fireEvent.click(within(wallets).getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(within(wallets).queryByLabelText('New name')).toBeNull());
    expect(main.callsTo('wallet:rename')).toEqual([{ walletId: WALLET_ID, name: 'Trading' }]);

    const switchButton = within(wallets).getByRole('button', {
      name: 'Switch to it',
    }) as HTMLButtonElement;
    await waitFor(() => expect(switchButton.disabled).toBe(false));
    await fireEvent.click(switchButton);
    await waitFor(() => expect(main.callsTo('wallet:select')).toEqual([{ walletId: other.id }]));
    await waitFor(() => expect(main.callsTo('wallet:list').length).toBeGreaterThanOrEqual(3));

    await fireEvent.click(within(wallets).getByRole('button', { name: 'Remove Savings' }));
    const confirm = within(wallets).getByLabelText('Type “Savings” to confirm');
    await fireEvent.input(confirm, { target: { value: 'Saving' } });
    const button = within(wallets).getByRole('button', {
      name: 'Remove Savings from this computer',
    }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await fireEvent.input(confirm, { target: { value: 'savings' } });
    // Destroying keys needs the password that opens them.
    expect(button.disabled).toBe(true);
    await fireEvent.input(within(wallets).getByLabelText('Spending password'), {
      target: { value: 'violet tractor sunrise' },
    });
    expect(button.disabled).toBe(false);
    await fireEvent.click(button);
    await waitFor(() =>
      expect(main.callsTo('wallet:remove')).toEqual([
        { walletId: other.id, confirmName: 'savings', password: 'violet tractor sunrise' },
      ]),
    );

    await fireEvent.click(within(wallets).getByRole('button', { name: 'Add a wallet' }));
    expect(onaddwallet).toHaveBeenCalled();
  });

  it('saves the auto-lock, skip-confirmation and limits through main', async () => {
    const { main } = await show(
      fakeMain({
        'session:setAutoLock': ({ autoLock }) => ({
          state: 'unlocked',
          walletName: 'Main',
          autoLock,
        }),
        'settings:update': (patch) => ({ ...SETTINGS, ...patch }) as typeof SETTINGS,
      }),
    );
    const security = panel('Security');
    await fireEvent.change(within(security).getByLabelText('Lock the wallet when I am away'), {
      target: { value: '5' },
    });
    await waitFor(() => expect(main.callsTo('session:setAutoLock')).toEqual([{ autoLock: 5 }]));
    await fireEvent.click(
      within(security).getByRole('checkbox', { name: /without the confirmation dialog/ }),
    );
    await waitFor(() =>
      expect(main.callsTo('settings:update')).toContainEqual({ skipOrderConfirmation: true }),
    );

    const trading = panel('Trading');
    await fireEvent.input(within(trading).getByLabelText(/Largest order value/), {
      target: { value: '1e5' },
    });
    await fireEvent.click(within(trading).getByRole('button', { name: 'Save limits' }));
    expect(within(trading).getByRole('alert').textContent).toContain('positive number');
    await fireEvent.input(within(trading).getByLabelText(/Largest order value/), {
      target: { value: '500' },
    });
    await fireEvent.input(within(trading).getByLabelText('Most open orders at once'), {
      target: { value: '20' },
    });
    await fireEvent.click(within(trading).getByRole('button', { name: 'Save limits' }));
    await waitFor(() =>
      expect(main.callsTo('settings:update')).toContainEqual({
        limits: { maxOrderValue: '500', maxOpenOrders: 20 },
      }),
    );
  });

  it('states the unverified-order policy for each real network plainly', async () => {
    await show(fakeMain());
    const trading = panel('Trading');
    for (const label of ['Staging (preprod)', 'Production (mainnet)', 'Custom']) {
      const select = within(trading).getByLabelText(label) as HTMLSelectElement;
      expect(select.selectedOptions[0]?.textContent).toBe(
        'Refuse them: never sign an order I cannot verify',
      );
    }
  });

  it('resets the practice exchange only with the password and an explicit tick', async () => {
    const { main, app } = await show(
      fakeMain({
        'settings:resetSandbox': ({ password }) => {
          if (password !== 'right') throw mainError(ErrorCode.WrongPassword, 'Wrong password.');
          return null;
        },
      }),
    );
    const reset = panel('Practice exchange');
    const button = within(reset).getByRole('button', {
      name: 'Reset the practice exchange',
    }) as HTMLButtonElement;
    await fireEvent.input(within(reset).getByLabelText('Spending password'), {
      target: { value: 'wrong' },
    });
    expect(button.disabled).toBe(true);
    await fireEvent.click(within(reset).getByRole('checkbox'));
    await fireEvent.click(button);
    expect((await within(reset).findByRole('alert')).textContent).toBe('Wrong password.');
    await fireEvent.input(within(reset).getByLabelText('Spending password'), {
      target: { value: 'right' },
    });
    await fireEvent.click(button);
    await waitFor(() => expect(main.callsTo('settings:resetSandbox')).toHaveLength(2));
    // Main joins the wallet in use to the fresh exchange at once: nothing is left to do.
    await waitFor(() => expect(app.notices.all[0]?.title).toBe('Practice exchange reset'));
    expect(app.notices.all[0]?.detail).toBe(
      'Every account, order and coin on it was wiped. Main has a new practice account there, with practice coins.',
    );
  });

  it('saves the theme with the other settings', async () => {
    const { main } = await show(
      fakeMain({ 'settings:update': (patch) => ({ ...SETTINGS, ...patch }) as typeof SETTINGS }),
    );
    await fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() => expect(main.callsTo('settings:update')).toEqual([{ theme: 'light' }]));
  });
});
