import type { Handlers } from '../../../src-shared/contract';
import type { OfflineSigningService } from './service';

export const offlineHandlers = (offline: OfflineSigningService): Handlers['offline'] => ({
  readTransactionFile: (request) => offline.readTransactionFile(request),
  signTransactionFile: (request) => offline.signTransactionFile(request),
  signTransaction: (request) => offline.signTransaction(request),
});
