import { getContext, setContext } from 'svelte';
import type { OperationResult, PreparedOperation } from '../../../../src-shared/contract';
import type { Serialized } from '../../../../src-shared/domain/amount';
import type { Result } from '../../../../src-shared/result';

/**
 * How any screen runs a state change: it hands over the `prepare…` call (which builds and checks
 * the transaction in main); the runner shows the one confirmation dialog (or skips it for orders
 * when the trader chose so, never the intent check), asks the spending password when funds move,
 * confirms, follows the steps and reports the outcome as a toast kept in the activity list.
 * Resolves with the result, or null when the trader cancelled or it failed (already reported).
 */
export type RunOperation = (
  prepare: () => Promise<Result<Serialized<PreparedOperation>>>,
) => Promise<Serialized<OperationResult> | null>;

const KEY = Symbol('run-operation');

export const provideRunOperation = (run: RunOperation): void => {
  setContext(KEY, run);
};

export const useRunOperation = (): RunOperation => {
  const run = getContext<RunOperation | undefined>(KEY);
  if (!run) throw new Error('useRunOperation: no operation runner was provided by the app');
  return run;
};
