import type { WalletAddress } from './addresses.js';
import { ADA, assetByUnit } from './assets.js';
import type { MatchingEngine } from './engine.js';
import { ErrorCode, SandboxError } from './errors.js';
import type { IdSequence } from './ids.js';
import { fromAmountRecord, type AmountRecord } from './journal-entries.js';
import { utxoId, type L1Ledger } from './l1-ledger.js';
import type { PendingBuilds } from './pending-builds.js';
import type { AccountKeys } from './intent-layout.js';
import { depositOutput, withdrawalTransaction } from './intent-transactions.js';
import { amountMap, amountRows, int, list, str, type AmountRows } from './snapshot-codec.js';
import { buildTransaction, l1Fee, slotAt, type TxOutputSpec } from './transactions.js';

/** Minimum deposit and withdrawal, and the withdrawal fee, in lovelace. */
export const MIN_FUNDS_LOVELACE = 2_000_000n;
export const WITHDRAWAL_FEE_LOVELACE = 1_000_000n;
/** Smallest change output a deposit may leave behind. */
const MIN_CHANGE_LOVELACE = 1_000_000n;
/** A fee big enough to size the transaction before the real fee is known (same CBOR width). */
const FEE_PLACEHOLDER = 200_000n;

export function addAmount(map: Map<string, bigint>, unit: string, q: bigint): void {
  map.set(unit, (map.get(unit) ?? 0n) + q);
}

/** Parses `[{unit, quantity}]` amounts: known units, positive integers, at least 2 ADA. */
export function parseFundsAmounts(
  entries: readonly { unit: string; quantity: string }[],
): Map<string, bigint> {
  const amounts = new Map<string, bigint>();
  for (const { unit, quantity } of entries) {
    if (!assetByUnit(unit))
      throw new SandboxError(ErrorCode.invalidRequest, `unknown unit ${unit}`);
    if (!/^[0-9]+$/.test(quantity) || BigInt(quantity) <= 0n) {
      throw new SandboxError(
        ErrorCode.invalidRequest,
        `quantity of ${unit} must be a positive integer in the smallest unit`,
      );
    }
    if (amounts.has(unit))
      throw new SandboxError(ErrorCode.invalidRequest, `unit ${unit} repeated`);
    amounts.set(unit, BigInt(quantity));
  }
  if ((amounts.get(ADA.unit) ?? 0n) < MIN_FUNDS_LOVELACE) {
    throw new SandboxError(
      ErrorCode.invalidRequest,
      'the amount must include at least 2 ADA (2000000 lovelace)',
    );
  }
  return amounts;
}

/** Funds on their way: a deposit waiting for confirmation, a withdrawal not yet on L1. */
interface InFlight {
  readonly accountId: string;
  readonly address: string;
  readonly txId: string;
  readonly amounts: Map<string, bigint>;
  readonly dueAt: number;
}

type InFlightRow = [string, string, string, AmountRows, number];

export interface FundsSnapshot {
  deposits: InFlightRow[];
  withdrawals: InFlightRow[];
  treasuryUtxo: string;
}

export interface FundsContext {
  readonly engine: MatchingEngine;
  readonly l1: L1Ledger;
  readonly pending: PendingBuilds;
  readonly ids: IdSequence;
  readonly fundsTtlMs: number;
  /** L1 fees paid, gone from every balance. */
  readonly burned: Map<string, bigint>;
  wallet(accountId: string): WalletAddress;
  /** How the account's intents and deposit requests name it. */
  keys(accountId: string): AccountKeys;
}

/**
 * Deposits and withdrawals: real L1 transactions between the wallet address and the exchange.
 * A deposit is locked until its confirmation time; a withdrawal leaves `free` at once and lands
 * on L1 as a UTxO of the wallet address at its settlement time.
 */
export class Funds {
  private readonly deposits: InFlight[] = [];
  private readonly withdrawals: InFlight[] = [];
  private treasuryUtxo: string;

  constructor(private readonly x: FundsContext) {
    this.treasuryUtxo = utxoId(x.ids.hash(), 0);
  }

  /** Confirms deposits and settles withdrawals due by `at`. */
  settle(at: number): void {
    while (this.deposits.length && (this.deposits[0] as InFlight).dueAt <= at) {
      const d = this.deposits.shift() as InFlight;
      for (const [unit, q] of d.amounts) {
        const b = this.x.engine.balance(d.accountId, unit);
        b.locked -= q;
        b.free += q;
      }
    }
    while (this.withdrawals.length && (this.withdrawals[0] as InFlight).dueAt <= at) {
      const w = this.withdrawals.shift() as InFlight;
      this.x.l1.add({ txHash: w.txId, index: 0, address: w.address, amounts: w.amounts });
    }
  }

  snapshot(): FundsSnapshot {
    const row = (f: InFlight): InFlightRow => [
      f.accountId,
      f.address,
      f.txId,
      amountRows(f.amounts),
      f.dueAt,
    ];
    return {
      deposits: this.deposits.map(row),
      withdrawals: this.withdrawals.map(row),
      treasuryUtxo: this.treasuryUtxo,
    };
  }

  restore(s: FundsSnapshot): void {
    const inFlight = (raw: unknown): InFlight => {
      const [accountId, address, txId, amounts, dueAt] = list(raw);
      return {
        accountId: str(accountId),
        address: str(address),
        txId: str(txId),
        amounts: amountMap(amounts),
        dueAt: int(dueAt),
      };
    };
    this.deposits.push(...list(s.deposits).map(inFlight));
    this.withdrawals.push(...list(s.withdrawals).map(inFlight));
    this.treasuryUtxo = str(s.treasuryUtxo);
  }

  /** Withdrawals submitted but not yet on L1, by unit. */
  inFlightWithdrawals(): Map<string, bigint> {
    const total = new Map<string, bigint>();
    for (const w of this.withdrawals) for (const [unit, q] of w.amounts) addAmount(total, unit, q);
    return total;
  }

  buildDeposit(
    accountId: string,
    amountRecord: AmountRecord,
    inputs: readonly string[],
    at: number,
  ): { tx_hex: string } {
    const wallet = this.x.wallet(accountId);
    const amounts = fromAmountRecord(amountRecord);
    const available = new Map<string, bigint>();
    for (const id of inputs) {
      if (this.x.l1.isSpent(id)) {
        throw new SandboxError(ErrorCode.utxoSpent, `UTxO ${id} already spent`);
      }
      const utxo = this.x.l1.get(id);
      if (!utxo) throw new SandboxError(ErrorCode.invalidRequest, `UTxO ${id} does not exist`);
      if (utxo.address !== wallet.bech32) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          `UTxO ${id} does not belong to the account's wallet address`,
        );
      }
      for (const [unit, q] of utxo.amounts) addAmount(available, unit, q);
    }
    const signer = wallet.paymentKeyHash;
    const ttlSlot = slotAt(at + this.x.fundsTtlMs);
    const build = (fee: bigint) => {
      const change = new Map(available);
      for (const [unit, q] of amounts) addAmount(change, unit, -q);
      addAmount(change, ADA.unit, -fee);
      for (const [unit, q] of change) {
        if (q < 0n) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            `input UTxOs do not cover the deposit and the fee (short of ${unit})`,
          );
        }
        if (q === 0n) change.delete(unit);
      }
      if (change.size > 0 && (change.get(ADA.unit) ?? 0n) < MIN_CHANGE_LOVELACE) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          'input UTxOs leave a change output below 1 ADA',
        );
      }
      const outputs: TxOutputSpec[] = [depositOutput(this.x.keys(accountId), amounts)];
      if (change.size > 0) outputs.push({ address: wallet.bech32, amounts: change });
      return {
        change,
        tx: buildTransaction({ inputs, outputs, fee, ttlSlot, requiredSigners: [signer] }),
      };
    };
    const fee = l1Fee(build(FEE_PLACEHOLDER).tx.txHex, 1);
    const { tx, change } = build(fee);
    this.x.pending.add({
      kind: 'deposit',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.x.fundsTtlMs,
      signer,
      inputs,
      amounts,
      change,
      fee,
    });
    return { tx_hex: tx.txHex };
  }

  submitDeposit(txId: string, at: number, confirmAt: number): { tx_hash: string } {
    const p = this.x.pending.take('deposit', txId, at);
    for (const id of p.inputs) {
      if (!this.x.l1.get(id)) {
        throw new SandboxError(ErrorCode.utxoSpent, `UTxO ${id} already spent`);
      }
    }
    const wallet = this.x.wallet(p.accountId);
    for (const id of p.inputs) this.x.l1.spend(id);
    if (p.change.size > 0) {
      this.x.l1.add({ txHash: txId, index: 1, address: wallet.bech32, amounts: p.change });
    }
    addAmount(this.x.burned, ADA.unit, p.fee);
    for (const [unit, q] of p.amounts) this.x.engine.balance(p.accountId, unit).locked += q;
    this.deposits.push({
      accountId: p.accountId,
      address: wallet.bech32,
      txId,
      amounts: p.amounts,
      dueAt: confirmAt,
    });
    this.deposits.sort((a, b) => a.dueAt - b.dueAt);
    this.x.pending.markSubmitted(txId);
    return { tx_hash: txId };
  }

  private checkWithdrawable(accountId: string, amounts: Map<string, bigint>): void {
    for (const [unit, q] of amounts) {
      const needed = q + (unit === ADA.unit ? WITHDRAWAL_FEE_LOVELACE : 0n);
      if (this.x.engine.balance(accountId, unit).free < needed) {
        throw new SandboxError(
          ErrorCode.insufficientBalance,
          `insufficient free balance of ${assetByUnit(unit)?.name ?? unit} (the withdrawal fee is 1 ADA)`,
        );
      }
    }
  }

  buildWithdrawal(accountId: string, amountRecord: AmountRecord, at: number): { tx_hex: string } {
    const wallet = this.x.wallet(accountId);
    const amounts = fromAmountRecord(amountRecord);
    this.checkWithdrawable(accountId, amounts);
    const signer = wallet.paymentKeyHash;
    const spec = {
      treasuryUtxo: this.treasuryUtxo,
      walletAddress: wallet.bech32,
      account: this.x.keys(accountId),
      amounts,
      ttlSlot: slotAt(at + this.x.fundsTtlMs),
    };
    // Two witnesses: the wallet's and the exchange's own after submit.
    const fee = l1Fee(withdrawalTransaction({ ...spec, fee: FEE_PLACEHOLDER }).txHex, 2);
    const tx = withdrawalTransaction({ ...spec, fee });
    this.x.pending.add({
      kind: 'withdrawal',
      txId: tx.txId,
      txHex: tx.txHex,
      bodyHex: tx.bodyHex,
      accountId,
      expiresAt: at + this.x.fundsTtlMs,
      signer,
      inputs: [this.treasuryUtxo],
      amounts,
      fee,
    });
    return { tx_hex: tx.txHex };
  }

  submitWithdrawal(txId: string, at: number, settleAt: number): { tx_hash: string } {
    const p = this.x.pending.take('withdrawal', txId, at);
    this.checkWithdrawable(p.accountId, p.amounts);
    const engine = this.x.engine;
    for (const [unit, q] of p.amounts) engine.balance(p.accountId, unit).free -= q;
    engine.balance(p.accountId, ADA.unit).free -= WITHDRAWAL_FEE_LOVELACE;
    addAmount(engine.fees, ADA.unit, WITHDRAWAL_FEE_LOVELACE - p.fee);
    addAmount(this.x.burned, ADA.unit, p.fee);
    this.withdrawals.push({
      accountId: p.accountId,
      address: this.x.wallet(p.accountId).bech32,
      txId,
      amounts: p.amounts,
      dueAt: settleAt,
    });
    this.withdrawals.sort((a, b) => a.dueAt - b.dueAt);
    this.treasuryUtxo = utxoId(this.x.ids.hash(), 0);
    this.x.pending.markSubmitted(txId);
    return { tx_hash: txId };
  }
}
