import { getContext, setContext } from 'svelte';
import type { AppStatus } from './app-status.svelte';
import type { Notices } from './notices.svelte';

/**
 * What every screen may read from the frame: the one truth about wallet, lock state, network,
 * settings and exchange connection (`status`), and the toasts + activity list (`notices`).
 */
export interface AppContext {
  status: AppStatus;
  notices: Notices;
  /** Opens the unlock dialog; resolves true once the session is unlocked. */
  requestUnlock: () => Promise<boolean>;
}

const KEY = Symbol('app');

export const provideApp = (app: AppContext): void => {
  setContext(KEY, app);
};

export const useApp = (): AppContext => {
  const app = getContext<AppContext | undefined>(KEY);
  if (!app) throw new Error('useApp: the app frame was not provided');
  return app;
};
