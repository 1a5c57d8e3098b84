import type { Api, FundsRules, WalletBalance } from '../../../../src-shared/contract';
import { FundsOverview } from '../../../../src-shared/contract/funds';
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
  loading = $state(true);

  private readonly stop: () => void;

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
  }

  async load(): Promise<void> {
    this.loading = true;
    await Promise.all([this.loadOverview(), this.loadWallet(), this.loadRules()]);
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

  dispose(): void {
    this.stop();
  }
}
