import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import { FakeMain, mainError } from '../testing/fake-main';
import { fakeMain, INFO, SETTINGS, WALLET_ID } from '../testing/frame';
import { ADA_USDM, NIGHT_USDM } from '../trade/fake-api';
import { AppStatus } from './app-status.svelte';

describe('AppStatus, the one truth of the frame', () => {
  it('loads the app, the lock state, the settings, the wallets and the connection', async () => {
    const main = fakeMain({
      'settings:connection': () => ({
        state: 'live',
        network: 'sandbox',
        detail: 'Streams up.',
        since: '2025-01-01T00:00:00Z',
      }),
    });
    const status = new AppStatus(main.api);
    await status.load();
    expect(status.info).toEqual(INFO);
    expect(status.session?.state).toBe('unlocked');
    expect(status.settings?.theme).toBe('dark');
    expect(status.activeWallet?.id).toBe(WALLET_ID);
    expect(status.connection?.state).toBe('live');
    expect(status.networkLabel).toBe('Sandbox');
    expect(status.loading).toBe(false);
    expect(status.mainLost).toBeNull();
  });

  it('follows main’s events for the session, the settings and the connection until disposed', async () => {
    const main = fakeMain();
    const status = new AppStatus(main.api);
    await status.load();
    main.emit('session:changed', { state: 'locked', walletName: 'Main', lockReason: 'idle' });
    expect(status.session).toEqual({ state: 'locked', walletName: 'Main', lockReason: 'idle' });
    expect(status.unlocked).toBe(false);
    main.emit('settings:changed', { ...SETTINGS, network: { name: 'staging' } });
    expect(status.network).toBe('staging');
    expect(status.networkLabel).toBe('Staging (preprod)');
    main.emit('exchange:connection', {
      state: 'offline',
      network: 'staging',
      detail: 'No answer for 30 s.',
      since: '2025-01-01T00:00:00Z',
    });
    expect(status.connection?.state).toBe('offline');
    status.dispose();
    expect(main.listenerCount('session:changed')).toBe(0);
    expect(main.listenerCount('exchange:connection')).toBe(0);
  });

  it('keeps main’s repair notices until the trader closes them; a new one shows again', async () => {
    const main = fakeMain();
    const status = new AppStatus(main.api);
    await status.load();
    expect(status.repairs).toEqual([]);
    main.emit('session:changed', { state: 'locked', walletName: 'Main', notices: ['A'] });
    expect(status.repairs).toEqual(['A']);
    status.dismissRepairs();
    expect(status.repairs).toEqual([]);
    main.emit('session:changed', { state: 'locked', walletName: 'Main', notices: ['A', 'B'] });
    expect(status.repairs).toEqual(['B']);
    status.dispose();
  });

  it('still works when the settings cannot be read, and says why', async () => {
    const main = fakeMain({
      'settings:get': () => {
        throw mainError(ErrorCode.Internal, 'The settings file could not be read.');
      },
    });
    const status = new AppStatus(main.api);
    await status.load();
    expect(status.settings).toBeNull();
    expect(status.settingsError).toBe('The settings file could not be read.');
    expect(status.network).toBe('sandbox');
    expect(status.session?.state).toBe('unlocked');
  });

  it("shows main's message when the frame cannot load", async () => {
    const main = new FakeMain({
      'app:info': () => {
        throw mainError(ErrorCode.Internal, 'Something went wrong. Try again.');
      },
      'session:status': () => ({ state: 'no-wallet', walletName: null }),
    });
    const status = new AppStatus(main.api);
    await status.load();
    expect(status.error).toBe('Something went wrong. Try again.');
    expect(status.info).toBeNull();
    expect(status.mainLost).toBeNull();
  });

  it('marks main as lost when the page is refused', async () => {
    const main = new FakeMain({
      'app:info': () => {
        throw mainError(ErrorCode.ForbiddenSender, 'Open the address the harness printed.');
      },
      'session:status': () => ({ state: 'no-wallet', walletName: null }),
    });
    const status = new AppStatus(main.api);
    await status.load();
    expect(status.mainLost).toBe('Open the address the harness printed.');
  });

  it('switches network through main and takes main’s answer as the truth', async () => {
    const main = fakeMain({
      'settings:setNetwork': ({ network }) => ({ ...SETTINGS, network }),
    });
    const status = new AppStatus(main.api);
    await status.load();
    await status.setNetwork({ name: 'staging' });
    expect(main.callsTo('settings:setNetwork')).toEqual([{ network: { name: 'staging' } }]);
    expect(status.network).toBe('staging');
    // The lock state and the wallets are read again: nothing of one network shows on another.
    expect(main.callsTo('session:status')).toHaveLength(2);
    expect(main.callsTo('wallet:list')).toHaveLength(2);
  });

  it('shows another exchange’s markets once the network changes, and only then', async () => {
    const sandbox = [ADA_USDM, NIGHT_USDM];
    let markets = sandbox;
    const main = fakeMain({
      'market:markets': () => markets,
      'settings:setNetwork': ({ network }) => ({ ...SETTINGS, network }),
    });
    const status = new AppStatus(main.api);
    await status.load();
    await status.markets.read();
    // Another setting (the theme) keeps the list.
    main.emit('settings:changed', { ...SETTINGS, theme: 'light' });
    expect(status.markets.list).toHaveLength(2);
    markets = [ADA_USDM];
    await status.setNetwork({ name: 'staging' });
    await vi.waitFor(() => expect(status.markets.list.map((m) => m.symbol)).toEqual(['ADAUSDM']));
    // Main's event of a switch made elsewhere (a custom exchange's address) does the same.
    markets = sandbox;
    main.emit('settings:changed', {
      ...SETTINGS,
      network: { name: 'custom', baseUrl: 'https://exchange.example', networkId: 0 },
    });
    await vi.waitFor(() => expect(status.markets.list).toHaveLength(2));
    expect(main.callsTo('market:markets')).toHaveLength(3);
  });
});
