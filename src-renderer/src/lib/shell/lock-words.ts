import type { LockReason, SessionStatus } from '../../../../src-shared/contract';

/** Why the session is locked, in a sentence. */
export const lockReasonText = (status: SessionStatus): string | null => {
  const reason: LockReason | null | undefined = status.lockReason;
  switch (reason) {
    case 'idle':
      return typeof status.autoLock === 'number'
        ? `Locked after ${status.autoLock} ${status.autoLock === 1 ? 'minute' : 'minutes'} without use.`
        : 'Locked after a while without use.';
    case 'suspend':
      return 'Locked when the computer went to sleep.';
    case 'screen-lock':
      return 'Locked when the screen locked.';
    case 'user':
      return 'You locked it.';
    case 'wallet-changed':
      return 'Locked because the active wallet changed.';
    case 'start':
      return 'Countersign always starts locked.';
    default:
      return null;
  }
};

/** The lock state in two or three words, for the status bar. */
export const lockLabel = (status: SessionStatus | null): string => {
  switch (status?.state) {
    case 'unlocked':
      return 'Unlocked';
    case 'locked':
      return 'Locked';
    case 'no-wallet':
      return 'No wallet';
    default:
      return '…';
  }
};
