import { MARKETS } from './assets.js';
import type { PlaceOrder } from './engine.js';
import { ErrorCode, SandboxError } from './errors.js';
import {
  SnapshotError,
  amountMap,
  amountRows,
  big,
  int,
  list,
  str,
  unbig,
} from './snapshot-codec.js';

interface PendingBase {
  readonly txId: string;
  readonly txHex: string;
  readonly bodyHex: string;
  readonly accountId: string;
  readonly expiresAt: number;
  /** The key hash that must sign it. */
  readonly signer: string;
  /** The UTxOs it spends (`<tx id>#<index>`): once one is spent, this build can never be. */
  readonly inputs: readonly string[];
}

/** A transaction the sandbox built and still waits to see signed. */
export type PendingBuild =
  | (PendingBase & { kind: 'order'; order: Omit<PlaceOrder, 'utxoId' | 'at'> })
  | (PendingBase & { kind: 'cancel'; orderId: string })
  | (PendingBase & {
      kind: 'deposit';
      amounts: Map<string, bigint>;
      change: Map<string, bigint>;
      fee: bigint;
    })
  | (PendingBase & { kind: 'withdrawal'; amounts: Map<string, bigint>; fee: bigint });

export type PendingKind = PendingBuild['kind'];

/** Builds kept an hour past their expiry answer 4300; after that they are forgotten (4402). */
const KEEP_EXPIRED_MS = 60 * 60_000;

/**
 * Builds waiting for their signed transaction, the transactions already submitted, and the
 * builds that lost their inputs to another submit: what a submit is checked against (same body,
 * not expired, not a replay, nothing it spends already spent).
 */
export class PendingBuilds {
  private readonly byTx = new Map<string, PendingBuild>();
  private readonly orderTx = new Map<string, string>();
  /** Pending builds by the UTxOs they spend. */
  private readonly byInput = new Map<string, Set<string>>();
  /** Submitted transactions, until an hour past their expiry (4302). */
  private readonly submitted = new Map<string, number>();
  /** Builds whose inputs another submit spent, until an hour past their expiry (4301). */
  private readonly conflicted = new Map<string, number>();
  private lastPrune = 0;

  add(build: PendingBuild): void {
    this.byTx.set(build.txId, build);
    if (build.kind === 'order') this.orderTx.set(build.order.id, build.txId);
    for (const input of build.inputs) {
      let builds = this.byInput.get(input);
      if (!builds) {
        builds = new Set();
        this.byInput.set(input, builds);
      }
      builds.add(build.txId);
    }
  }

  /** The transaction built for an order not yet submitted, if any. */
  builtOrder(accountId: string, orderId: string): { txId: string; bodyHex: string } | undefined {
    const txId = this.orderTx.get(orderId);
    const p = txId === undefined ? undefined : this.byTx.get(txId);
    return p && p.accountId === accountId ? { txId: p.txId, bodyHex: p.bodyHex } : undefined;
  }

  /**
   * Finds the build a signed transaction answers, or refuses: 4302 if already submitted; 4301 if
   * another submit spent one of its inputs; for an order 4200 if never built (4302 if
   * `orderSubmitted`) and 4000 if the body differs; 4402 if no build of this kind for this
   * account has this body; 4300 if expired.
   */
  find(
    kind: PendingKind,
    accountId: string,
    txId: string,
    at: number,
    order?: { id: string; submitted: boolean },
  ): PendingBuild {
    this.refuseSpent(txId);
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
    this.refuseSpent(txId);
    const p = this.byTx.get(txId);
    if (!p || p.kind !== kind) {
      throw new SandboxError(ErrorCode.transactionNotFound, 'transaction not found');
    }
    if (at > p.expiresAt) {
      throw new SandboxError(ErrorCode.transactionExpired, 'transaction expired, build again');
    }
    return p as Extract<PendingBuild, { kind: K }>;
  }

  /**
   * Records a submit: the transaction cannot be submitted again, and every other build that
   * spends one of its inputs can never be (one UTxO, one spend).
   */
  markSubmitted(txId: string): void {
    const p = this.byTx.get(txId);
    if (!p) return;
    this.forget(p);
    this.submitted.set(txId, p.expiresAt);
    for (const input of p.inputs) {
      for (const other of this.byInput.get(input) ?? []) {
        const q = this.byTx.get(other);
        if (!q) continue;
        this.forget(q);
        this.conflicted.set(other, q.expiresAt);
      }
    }
  }

  /** Forgets builds and refusals long expired (at most once a minute). */
  prune(at: number): void {
    if (at - this.lastPrune <= 60_000) return;
    this.lastPrune = at;
    const before = at - KEEP_EXPIRED_MS;
    for (const p of this.byTx.values()) if (p.expiresAt < before) this.forget(p);
    for (const [txId, expiresAt] of this.submitted) {
      if (expiresAt < before) this.submitted.delete(txId);
    }
    for (const [txId, expiresAt] of this.conflicted) {
      if (expiresAt < before) this.conflicted.delete(txId);
    }
  }

  snapshot(): PendingSnapshot {
    return {
      builds: [...this.byTx.values()].map(buildRow),
      submitted: expiryRows(this.submitted),
      conflicted: expiryRows(this.conflicted),
      lastPrune: this.lastPrune,
    };
  }

  restore(s: PendingSnapshot): void {
    for (const row of list(s.builds)) this.add(buildFromRow(row as Record<string, unknown>));
    restoreExpiries(this.submitted, s.submitted);
    restoreExpiries(this.conflicted, s.conflicted);
    this.lastPrune = int(s.lastPrune);
  }

  private refuseSpent(txId: string): void {
    if (this.submitted.has(txId)) {
      throw new SandboxError(ErrorCode.alreadySubmitted, 'transaction already submitted');
    }
    if (this.conflicted.has(txId)) {
      throw new SandboxError(
        ErrorCode.utxoSpent,
        'UTxO already spent: another transaction spending the same UTxO was submitted first; build again',
      );
    }
  }

  private forget(p: PendingBuild): void {
    this.byTx.delete(p.txId);
    if (p.kind === 'order' && this.orderTx.get(p.order.id) === p.txId) {
      this.orderTx.delete(p.order.id);
    }
    for (const input of p.inputs) {
      const builds = this.byInput.get(input);
      builds?.delete(p.txId);
      if (builds?.size === 0) this.byInput.delete(input);
    }
  }
}

export interface PendingSnapshot {
  builds: Record<string, unknown>[];
  submitted: ExpiryRows;
  conflicted: ExpiryRows;
  lastPrune: number;
}

/**
 * Transaction ids with when they are forgotten: `[[txId, expiresAt]…]`, or, when every id is a
 * transaction hash (64 hex digits), the ids as one string and the times as one list. A busy
 * hour submits tens of thousands of transactions, and a start reads them all: one string parses
 * several times faster than as many small lists.
 */
type ExpiryRows = [string, number][] | { ids: string; expiresAt: number[] };

const TX_HASH = /^[0-9a-f]{64}$/;

function expiryRows(expiries: ReadonlyMap<string, number>): ExpiryRows {
  const ids = [...expiries.keys()];
  if (!ids.every((id) => TX_HASH.test(id))) return [...expiries];
  return { ids: ids.join(''), expiresAt: [...expiries.values()] };
}

function restoreExpiries(into: Map<string, number>, rows: unknown): void {
  if (Array.isArray(rows)) {
    for (const row of rows) {
      const [txId, expiresAt] = list(row);
      into.set(str(txId), int(expiresAt));
    }
    return;
  }
  const { ids, expiresAt } = (rows ?? {}) as { ids?: unknown; expiresAt?: unknown };
  const times = list(expiresAt);
  const text = str(ids);
  if (text.length !== times.length * 64) {
    throw new SnapshotError('submitted transactions are not hashes');
  }
  for (let i = 0; i < times.length; i++) into.set(text.slice(i * 64, i * 64 + 64), int(times[i]));
}

function buildRow(p: PendingBuild): Record<string, unknown> {
  const base = {
    kind: p.kind,
    txId: p.txId,
    txHex: p.txHex,
    bodyHex: p.bodyHex,
    accountId: p.accountId,
    expiresAt: p.expiresAt,
    signer: p.signer,
    inputs: p.inputs,
  };
  switch (p.kind) {
    case 'order': {
      const o = p.order;
      return {
        ...base,
        order: {
          id: o.id,
          accountId: o.accountId,
          symbol: o.market.symbol,
          side: o.side,
          type: o.type,
          quantity: big(o.quantity),
          priceTicks: big(o.priceTicks),
          marketLimitTicks: o.marketLimitTicks === null ? null : big(o.marketLimitTicks),
          slippageBp: o.slippageBp,
          postOnly: o.postOnly,
          commissionRateBp: o.commissionRateBp,
        },
      };
    }
    case 'cancel':
      return { ...base, orderId: p.orderId };
    case 'deposit':
      return {
        ...base,
        amounts: amountRows(p.amounts),
        change: amountRows(p.change),
        fee: big(p.fee),
      };
    case 'withdrawal':
      return { ...base, amounts: amountRows(p.amounts), fee: big(p.fee) };
  }
}

function buildFromRow(r: Record<string, unknown>): PendingBuild {
  const base = {
    txId: str(r.txId),
    txHex: str(r.txHex),
    bodyHex: str(r.bodyHex),
    accountId: str(r.accountId),
    expiresAt: int(r.expiresAt),
    signer: str(r.signer),
    inputs: list(r.inputs).map(str),
  };
  switch (r.kind) {
    case 'order': {
      const o = r.order as Record<string, unknown>;
      const market = MARKETS.find((m) => m.symbol === o.symbol);
      if (!market) throw new SnapshotError('a pending order of an unknown market');
      return {
        ...base,
        kind: 'order',
        order: {
          id: str(o.id),
          accountId: str(o.accountId),
          market,
          side: o.side === 'buy' ? 'buy' : 'sell',
          type: o.type === 'limit' ? 'limit' : 'market',
          quantity: unbig(o.quantity),
          priceTicks: unbig(o.priceTicks),
          marketLimitTicks: o.marketLimitTicks === null ? null : unbig(o.marketLimitTicks),
          slippageBp: int(o.slippageBp),
          postOnly: o.postOnly === true,
          commissionRateBp: int(o.commissionRateBp),
        },
      };
    }
    case 'cancel':
      return { ...base, kind: 'cancel', orderId: str(r.orderId) };
    case 'deposit':
      return {
        ...base,
        kind: 'deposit',
        amounts: amountMap(r.amounts),
        change: amountMap(r.change),
        fee: unbig(r.fee),
      };
    case 'withdrawal':
      return { ...base, kind: 'withdrawal', amounts: amountMap(r.amounts), fee: unbig(r.fee) };
    default:
      throw new SnapshotError('a pending build of an unknown kind');
  }
}
