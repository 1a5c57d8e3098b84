import { z } from 'zod';
import type { Api, FundsRules, WalletBalance } from '../../../../src-shared/contract';
import { FundsOverview } from '../../../../src-shared/contract/funds';
import { PreparedOperation } from '../../../../src-shared/contract/operations';
import { ErrorCode } from '../../../../src-shared/errors';
import { ApiError, messageOf, unwrap } from '../api';

export interface LoadProblem {
  /** The session is locked: unlocking fixes it. */
  locked: boolean;
  message: string;
}

const problemOf = (error: unknown): LoadProblem => ({
  locked: error instanceof ApiError && error.code === ErrorCode.Locked,
  message: messageOf(error),
});

export type Overview = ReturnType<typeof FundsOverview.parse>;

/**
 * What the trader holds: free and locked per asset on the exchange (kept current by
 * `funds:changed`), the wallet's coins on Cardano, the deposits and withdrawals on their way, and
 * the exchange's minimums and fee. Each part loads on its own, so one failing does not hide the
 * others.
 */
export class FundsState {
  overview = $state<Overview | null>(null);
  overviewProblem = $state<LoadProblem | null>(null);
  wallet = $state<WalletBalance | null>(null);
  walletProblem = $state<LoadProblem | null>(null);
  rules = $state<FundsRules | null>(null);
  /** A watch-only wallet's deposits and withdrawals saved for its offline device, not sent yet. */
  awaiting = $state<PreparedOperation[]>([]);
  loading = $state(true);

  private readonly stop: () => void;
  private readonly stopProgress: () => void;

  constructor(private readonly api: Api) {
    this.stop = api.on('funds:changed', (payload) => {
      const parsed = FundsOverview.safeParse(payload);
      if (parsed.success) {
        const landed = this.overview?.pending.some(
          (p) => !parsed.data.pending.some((q) => q.txHash === p.txHash),
        );
        this.overview = parsed.data;
        this.overviewProblem = null;
        // A deposit or withdrawal landed: the wallet's coins changed too.
        if (landed) void this.loadWallet();
      }
    });
    // Saved, sent or discarded: the list of those waiting for a signature follows.
    this.stopProgress = api.on('operations:progress', () => void this.loadAwaiting());
  }

  async load(): Promise<void> {
    this.loading = true;
    await Promise.all([
      this.loadOverview(),
      this.loadWallet(),
      this.loadRules(),
      this.loadAwaiting(),
    ]);
    this.loading = false;
  }

  async loadOverview(): Promise<void> {
    try {
      const value = await unwrap(this.api.funds.overview());
      const parsed = FundsOverview.safeParse(value);
      if (!parsed.success) throw new Error('unreadable overview');
      this.overview = parsed.data;
      this.overviewProblem = null;
    } catch (error) {
      this.overviewProblem = problemOf(error);
    }
  }

  async loadWallet(): Promise<void> {
    try {
      this.wallet = await unwrap(this.api.wallet.balance({}));
      this.walletProblem = null;
    } catch (error) {
      this.walletProblem = problemOf(error);
    }
  }

  async loadRules(): Promise<void> {
    try {
      this.rules = await unwrap(this.api.funds.rules());
    } catch {
      // Without the exchange's rules the forms fall back to the published ones.
    }
  }

  async loadAwaiting(): Promise<void> {
    const answer = await this.api.operations.awaitingSignature();
    const parsed = answer.ok ? z.array(PreparedOperation).safeParse(answer.value) : null;
    // Not readable: the list stays as it was (each entry is still reachable from its toast).
    if (parsed?.success) this.awaiting = parsed.data;
  }

  dispose(): void {
    this.stop();
    this.stopProgress();
  }
}
