import type { Handlers } from '../../../src-shared/contract';
import type { FundsService } from './service';

export const fundsHandlers = (funds: FundsService): Handlers['funds'] => ({
  overview: () => funds.overview(),
  wallet: () => funds.wallet(),
  rules: () => funds.rules(),
  prepareDeposit: (request) => funds.prepareDeposit(request),
  prepareWithdrawal: (request) => funds.prepareWithdrawal(request),
});
