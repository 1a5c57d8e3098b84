import type { PlaceOrder } from './engine.js';
import { ErrorCode, SandboxError } from './errors.js';

interface PendingBase {
  readonly txId: string;
  readonly txHex: string;
  readonly bodyHex: string;
  readonly accountId: string;
  readonly expiresAt: number;
  /** The key hash that must sign it. */
  readonly signer: string;
}

/** A transaction the sandbox built and still waits to see signed. */
export type PendingBuild =
  | (PendingBase & { kind: 'order'; order: Omit<PlaceOrder, 'utxoId' | 'at'> })
  | (PendingBase & { kind: 'cancel'; orderId: string })
  | (PendingBase & {
      kind: 'deposit';
      inputs: readonly string[];
      amounts: Map<string, bigint>;
      change: Map<string, bigint>;
      fee: bigint;
    })
  | (PendingBase & { kind: 'withdrawal'; amounts: Map<string, bigint>; fee: bigint });

export type PendingKind = PendingBuild['kind'];

/** Builds kept an hour past their expiry answer 4300; after that they are forgotten (4402). */
const KEEP_EXPIRED_MS = 60 * 60_000;

/**
 * Builds waiting for their signed transaction, and the ids of transactions already submitted:
 * what a submit is checked against (same body, not expired, not a replay).
 */
export class PendingBuilds {
  private readonly byTx = new Map<string, PendingBuild>();
  private readonly orderTx = new Map<string, string>();
  private readonly submitted = new Set<string>();
  private lastPrune = 0;

  add(build: PendingBuild): void {
    this.byTx.set(build.txId, build);
    if (build.kind === 'order') this.orderTx.set(build.order.id, build.txId);
  }

  /** The transaction built for an order not yet submitted, if any. */
  builtOrder(accountId: string, orderId: string): { txId: string; bodyHex: string } | undefined {
    const txId = this.orderTx.get(orderId);
    const p = txId === undefined ? undefined : this.byTx.get(txId);
    return p && p.accountId === accountId ? { txId: p.txId, bodyHex: p.bodyHex } : undefined;
  }

  /**
   * Finds the build a signed transaction answers, or refuses: 4302 if already submitted; for an
   * order 4200 if never built (4302 if `orderSubmitted`) and 4000 if the body differs; 4402 if
   * no build of this kind for this account has this body; 4300 if expired.
   */
  find(
    kind: PendingKind,
    accountId: string,
    txId: string,
    at: number,
    order?: { id: string; submitted: boolean },
  ): PendingBuild {
    if (this.submitted.has(txId)) {
      throw new SandboxError(ErrorCode.alreadySubmitted, 'transaction already submitted');
    }
    let p = this.byTx.get(txId);
    if (order) {
      const builtTx = this.orderTx.get(order.id);
      if (!builtTx) {
        if (order.submitted) {
          throw new SandboxError(ErrorCode.alreadySubmitted, 'order already submitted');
        }
        throw new SandboxError(ErrorCode.orderNotFound, 'order not found');
      }
      if (builtTx !== txId) {
        throw new SandboxError(
          ErrorCode.invalidRequest,
          'transaction body differs from the one built for this order',
        );
      }
      p = this.byTx.get(builtTx);
    }
    if (!p || p.kind !== kind || p.accountId !== accountId) {
      throw new SandboxError(
        ErrorCode.transactionNotFound,
        'transaction not found: its body differs from every transaction built for this account',
      );
    }
    if (at > p.expiresAt) {
      throw new SandboxError(ErrorCode.transactionExpired, 'transaction expired, build again');
    }
    return p;
  }

  /** The build a journaled submit refers to, checked again at its time. */
  take<K extends PendingKind>(
    kind: K,
    txId: string,
    at: number,
  ): Extract<PendingBuild, { kind: K }> {
    const p = this.byTx.get(txId);
    if (this.submitted.has(txId)) {
      throw new SandboxError(ErrorCode.alreadySubmitted, 'transaction already submitted');
    }
    if (!p || p.kind !== kind) {
      throw new SandboxError(ErrorCode.transactionNotFound, 'transaction not found');
    }
    if (at > p.expiresAt) {
      throw new SandboxError(ErrorCode.transactionExpired, 'transaction expired, build again');
    }
    return p as Extract<PendingBuild, { kind: K }>;
  }

  markSubmitted(txId: string): void {
    const p = this.byTx.get(txId);
    this.byTx.delete(txId);
    if (p?.kind === 'order') this.orderTx.delete(p.order.id);
    this.submitted.add(txId);
  }

  /** Forgets builds long expired (at most once a minute). */
  prune(at: number): void {
    if (at - this.lastPrune <= 60_000) return;
    this.lastPrune = at;
    for (const [txId, p] of this.byTx) {
      if (p.expiresAt < at - KEEP_EXPIRED_MS) {
        this.byTx.delete(txId);
        if (p.kind === 'order') this.orderTx.delete(p.order.id);
      }
    }
  }
}
