import type { Handlers } from '../../../src-shared/contract';
import type { SessionService } from './service';

export const sessionHandlers = (session: SessionService): Handlers['session'] => ({
  status: () => session.status(),
  unlock: ({ password }) => session.unlock(password),
  lock: () => session.lock('user'),
  setAutoLock: ({ autoLock }) => session.setAutoLock(autoLock),
  touch: async () => {
    session.touch();
    return null;
  },
});
