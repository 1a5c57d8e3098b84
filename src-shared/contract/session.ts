import { z } from 'zod';
import { event, operation } from './define';

/**
 * `no-wallet`: nothing to unlock yet. `locked`: a wallet exists, its keys are encrypted.
 * `unlocked`: the operation key is in memory for a trading session.
 */
export const LockState = z.enum(['no-wallet', 'locked', 'unlocked']);
export type LockState = z.infer<typeof LockState>;

export interface SessionStatus {
  state: LockState;
  /** Name of the active wallet, when there is one. */
  walletName: string | null;
}

export const SessionStatusSchema = z.object({
  state: LockState,
  walletName: z.string().nullable(),
});

export const session = {
  status: operation<SessionStatus>().request(z.undefined()),
} as const;

export const sessionEvents = {
  'session:changed': event(SessionStatusSchema),
} as const;
