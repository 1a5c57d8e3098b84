import { z } from 'zod';
import { event, operation } from './define';
import { Balance, DecimalText, Timestamp } from '../domain';
import type { PreparedOperation } from './operations';
import type { WalletBalance } from './wallet';

export const FundsAmount = z.object({
  /** On-chain unit: `lovelace` or policy id + asset name hex. */
  unit: z.string().min(1).max(120),
  /** Human units as typed (ADA, not lovelace). */
  amount: DecimalText,
});

/** A deposit or withdrawal signed and submitted, shown until it lands. */
export const PendingFunds = z.object({
  kind: z.enum(['deposit', 'withdrawal']),
  txHash: z.string(),
  title: z.string(),
  submittedAt: Timestamp,
});
export type PendingFunds = z.infer<typeof PendingFunds>;

export const FundsOverview = z.object({
  /** Free and locked per asset on the exchange. */
  exchange: z.array(Balance),
  /** When the exchange balance was read (ISO). */
  readAt: Timestamp,
  pending: z.array(PendingFunds),
});
export type FundsOverview = z.output<typeof FundsOverview>;

export interface FundsRules {
  minDepositLovelace: string;
  minWithdrawalLovelace: string;
  withdrawalFeeLovelace: string;
  /** Whether the fee comes out of the ADA paid out (else it is taken on top from free ADA). */
  withdrawalFeeFromPayout: boolean;
  /**
   * What a deposit of nearly everything leaves in the wallet for its network fee and its
   * change, and how much more for each kind of token that stays there: what "Max" keeps back.
   * `depositReserveLovelace` pays for spending up to `depositReserveCoins` coins; each coin the
   * wallet holds beyond those adds `depositReservePerCoinLovelace` (a deposit of nearly
   * everything spends them all).
   */
  depositReserveLovelace: string;
  depositReservePerTokenLovelace: string;
  depositReserveCoins: number;
  depositReservePerCoinLovelace: string;
}

const utxoId = z.string().regex(/^[0-9a-f]{64}#\d{1,5}$/);

export const funds = {
  /** Exchange balances and the deposits and withdrawals on their way. */
  overview: operation<FundsOverview>().request(z.undefined()),
  /** The wallet's coins on Cardano (L1), what a deposit can spend. */
  wallet: operation<WalletBalance>().request(z.undefined()),
  rules: operation<FundsRules>().request(z.undefined()),
  /**
   * Builds a deposit: coins picked automatically to cover the amount and the fee, or exactly the
   * UTxOs the trader chose (`txId#index`).
   */
  prepareDeposit: operation<PreparedOperation>().request(
    z.object({
      amounts: z.array(FundsAmount).min(1).max(10),
      utxos: z.array(utxoId).min(1).max(100).optional(),
    }),
  ),
  prepareWithdrawal: operation<PreparedOperation>().request(
    z.object({ amounts: z.array(FundsAmount).min(1).max(10) }),
  ),
} as const;

/** How long main watches a deposit or withdrawal for it to land before it stops (`unconfirmed`). */
export const FUNDS_WATCH_HOURS = 3;

/**
 * A deposit or withdrawal left the "on its way" list: `landed` (credited on the exchange, or the
 * coin is in the wallet) or `unconfirmed` (not seen to land within FUNDS_WATCH_HOURS: no longer
 * watched).
 */
export const FundsSettled = PendingFunds.omit({ submittedAt: true }).extend({
  outcome: z.enum(['landed', 'unconfirmed']),
});
export type FundsSettled = z.infer<typeof FundsSettled>;

export const fundsEvents = {
  'funds:changed': event(FundsOverview),
  'funds:settled': event(FundsSettled),
} as const;
