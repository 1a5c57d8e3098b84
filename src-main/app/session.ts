import type { SessionStatus } from '../../src-shared/contract';

/**
 * The trading session's lock state. The wallet area owns the keys; this service reports what the
 * status bar shows and pushes `session:changed` when it moves.
 */
export interface SessionStatusSource {
  status(): SessionStatus;
}

/** Before any wallet exists there is nothing to unlock. */
export const noWalletYet: SessionStatusSource = {
  status: () => ({ state: 'no-wallet', walletName: null }),
};
