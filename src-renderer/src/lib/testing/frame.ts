import type { Api } from '../../../../src-shared/contract';
import { AppStatus } from '../shell/app-status.svelte';
import type { AppContext } from '../shell/context';
import { Notices } from '../shell/notices.svelte';
import { FakeMain, type FakeHandlers } from './fake-main';

export const INFO = {
  name: 'Countersign',
  version: '0.1.0',
  network: 'sandbox' as const,
  dataDir: '/data',
  runtime: 'harness' as const,
};

export const WALLET_ID = '0b6f1d9e-2f7c-4c1e-9a51-0d2b7f3f0a11';

export const SETTINGS = {
  network: { name: 'sandbox' as const },
  autoLock: 15 as const,
  theme: 'dark' as const,
  limits: { maxOrderValue: null, maxOpenOrders: null },
  skipOrderConfirmation: false,
  notifyFills: true,
  unverifiedOrders: {
    staging: 'refuse' as const,
    production: 'refuse' as const,
    custom: 'refuse' as const,
  },
};

export const walletSummary = (
  over: Partial<{ name: string; kind: 'full' | 'watch-only' }> = {},
) => ({
  id: WALLET_ID,
  name: over.name ?? 'Main',
  kind: over.kind ?? ('full' as const),
  active: true,
  operationKeyHash: 'ab'.repeat(28),
  createdAt: '2025-01-02T03:04:05.000Z',
  apiKey: '••••b4d7',
  blockfrost: null,
  exchangeAccountId: '2f4b0b93-0000-4000-8000-000000000000',
});

/** A main process with a wallet, unlocked unless told otherwise, on the sandbox. */
export const fakeMain = (
  handlers: FakeHandlers = {},
  state: 'unlocked' | 'locked' | 'no-wallet' = 'unlocked',
) =>
  new FakeMain({
    'app:info': () => INFO,
    'session:status': () => ({
      state,
      walletName: state === 'no-wallet' ? null : 'Main',
      walletId: state === 'no-wallet' ? null : WALLET_ID,
      walletKind: state === 'no-wallet' ? null : 'full',
      autoLock: 15,
      lockReason: state === 'locked' ? 'start' : null,
      nextUnlockAttemptAt: null,
    }),
    'settings:get': () => SETTINGS,
    'wallet:list': () => ({
      wallets: state === 'no-wallet' ? [] : [walletSummary()],
      activeWalletId: state === 'no-wallet' ? null : WALLET_ID,
    }),
    ...handlers,
  });

type Frame = AppContext & { status: AppStatus; notices: Notices };

const frameWith = (status: AppStatus): Frame => ({
  status,
  notices: new Notices(),
  requestUnlock: async () => true,
});

/** The frame's contexts over a fake main (installed as `window.api`), loaded. */
export const frameOver = async (main: FakeMain): Promise<Frame> => {
  main.install();
  const status = new AppStatus(main.api);
  await status.load();
  return frameWith(status);
};

/**
 * The frame's contexts over a test's own `Api`, loading in the background as the app's do (a
 * screen shows what it has until main answers).
 */
export const frameOf = (api: Api): Frame => {
  const status = new AppStatus(api);
  void status.load();
  return frameWith(status);
};
