import { z } from 'zod';
import { event, operation } from './define';

/**
 * `no-wallet`: nothing to unlock yet. `locked`: a wallet exists, its keys are encrypted.
 * `unlocked`: the operation key is in memory for a trading session.
 */
export const LockState = z.enum(['no-wallet', 'locked', 'unlocked']);
export type LockState = z.infer<typeof LockState>;

/** Minutes of inactivity before the session locks itself, or never. Default 15. */
export const AutoLock = z.union([
  z.literal(1),
  z.literal(5),
  z.literal(15),
  z.literal(60),
  z.literal('never'),
]);
export type AutoLock = z.infer<typeof AutoLock>;
export const DEFAULT_AUTO_LOCK: AutoLock = 15;

/** Why the session last locked, so the UI can say it. */
export const LockReason = z.enum([
  'start',
  'user',
  'idle',
  'suspend',
  'screen-lock',
  'wallet-changed',
  'network-changed',
  'shutdown',
]);
export type LockReason = z.infer<typeof LockReason>;

export interface SessionStatus {
  state: LockState;
  /** Name of the active wallet, when there is one. */
  walletName: string | null;
  /** The fields below are always filled by the session service (optional for older callers). */
  walletId?: string | null;
  /** A watch-only wallet can trade (its operation key is local) but not move funds itself. */
  walletKind?: 'full' | 'watch-only' | null;
  autoLock?: AutoLock;
  /** Why it is locked (null while unlocked or with no wallet). */
  lockReason?: LockReason | null;
  /** Epoch ms before which an unlock attempt is refused (after too many wrong passwords). */
  nextUnlockAttemptAt?: number | null;
}

export const SessionStatusSchema = z.object({
  state: LockState,
  walletName: z.string().nullable(),
  walletId: z.string().nullable().optional(),
  walletKind: z.enum(['full', 'watch-only']).nullable().optional(),
  autoLock: AutoLock.optional(),
  lockReason: LockReason.nullable().optional(),
  nextUnlockAttemptAt: z.number().nullable().optional(),
});

export const session = {
  status: operation<SessionStatus>().request(z.undefined()),
  /** Opens the trading session with the spending password. */
  unlock: operation<SessionStatus>().request(z.object({ password: z.string().min(1).max(1024) })),
  lock: operation<SessionStatus>().request(z.undefined()),
  setAutoLock: operation<SessionStatus>().request(z.object({ autoLock: AutoLock })),
  /** The trader is using the app (a click or a key, at most every 30 s): restart the idle countdown. */
  touch: operation<null>().request(z.undefined()),
} as const;

export const sessionEvents = {
  'session:changed': event(SessionStatusSchema),
} as const;
