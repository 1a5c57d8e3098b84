import type { Handlers } from '../../../src-shared/contract';
import type { WalletService } from './service';

export const walletHandlers = (wallet: WalletService): Handlers['wallet'] => ({
  list: () => wallet.list(),
  create: (request) => wallet.create(request),
  confirmCreate: (request) => wallet.confirmCreate(request),
  restore: (request) => wallet.restore(request),
  importWatchOnly: (request) => wallet.importWatchOnly(request),
  select: (request) => wallet.select(request),
  rename: (request) => wallet.rename(request),
  remove: (request) => wallet.remove(request),
  setApiKey: (request) => wallet.setApiKey(request),
  setBlockfrost: (request) => wallet.setBlockfrost(request),
  addresses: (request) => wallet.addresses(request),
  joinExchange: (request) => wallet.joinExchange(request),
  balance: (request) => wallet.balance(request),
});
