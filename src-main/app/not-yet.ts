import type { Handlers } from '../../src-shared/contract';
import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * TEMPORARY, removed before this work lands: the areas whose services are being built answer
 * that they are not ready, so the contract and the composition compile while they are written.
 */
const notReady = async (): Promise<never> => {
  throw new AppError(ErrorCode.Internal, 'This part of Countersign is not ready yet.');
};

const area = <K extends string>(methods: readonly K[]) =>
  Object.fromEntries(methods.map((m) => [m, notReady])) as Record<K, typeof notReady>;

export const notYetHandlers = (): Pick<
  Handlers,
  'settings' | 'market' | 'trading' | 'funds' | 'orders' | 'operations'
> => ({
  settings: area([
    'get',
    'setNetwork',
    'update',
    'importOperationKey',
    'connection',
    'resetSandbox',
  ]),
  market: area(['markets', 'ticker', 'depth', 'candles', 'trades', 'watch']),
  trading: area(['preview', 'prepareOrder', 'prepareCancel', 'cancelAll']),
  funds: area(['overview', 'wallet', 'rules', 'prepareDeposit', 'prepareWithdrawal']),
  orders: area(['list', 'all', 'get', 'exportCsv']),
  operations: area(['confirm', 'discard', 'pending', 'resolve']),
});
