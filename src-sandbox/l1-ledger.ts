import { amountMap, amountRows, int, list, str, type AmountRows } from './snapshot-codec.js';

/** One unspent output on the sandbox's simulated L1. */
export interface L1Utxo {
  readonly txHash: string;
  readonly index: number;
  readonly address: string;
  /** Smallest units by on-chain unit (`lovelace`, policy id + name hex). */
  readonly amounts: ReadonlyMap<string, bigint>;
}

export function utxoId(txHash: string, index: number): string {
  return `${txHash}#${index}`;
}

/** The simulated L1: unspent outputs by id and by address, and the ids already spent. */
export class L1Ledger {
  private readonly unspent = new Map<string, L1Utxo>();
  private readonly byAddress = new Map<string, Set<string>>();
  private readonly spent = new Set<string>();

  add(utxo: L1Utxo): void {
    const id = utxoId(utxo.txHash, utxo.index);
    this.unspent.set(id, utxo);
    let ids = this.byAddress.get(utxo.address);
    if (!ids) {
      ids = new Set();
      this.byAddress.set(utxo.address, ids);
    }
    ids.add(id);
  }

  get(id: string): L1Utxo | undefined {
    return this.unspent.get(id);
  }

  isSpent(id: string): boolean {
    return this.spent.has(id);
  }

  spend(id: string): void {
    const utxo = this.unspent.get(id);
    if (!utxo) return;
    this.unspent.delete(id);
    this.byAddress.get(utxo.address)?.delete(id);
    this.spent.add(id);
  }

  at(address: string): L1Utxo[] {
    const ids = this.byAddress.get(address);
    if (!ids) return [];
    return [...ids].map((id) => this.unspent.get(id) as L1Utxo);
  }

  snapshot(): L1Snapshot {
    return {
      unspent: [...this.unspent.values()].map((u) => [
        u.txHash,
        u.index,
        u.address,
        amountRows(u.amounts),
      ]),
      spent: [...this.spent],
    };
  }

  restore(s: L1Snapshot): void {
    for (const row of list(s.unspent)) {
      const [txHash, index, address, amounts] = list(row);
      this.add({
        txHash: str(txHash),
        index: int(index),
        address: str(address),
        amounts: amountMap(amounts),
      });
    }
    for (const id of list(s.spent)) this.spent.add(str(id));
  }

  /** Sum of every unspent output, by unit. */
  totals(): Map<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const utxo of this.unspent.values()) {
      for (const [unit, q] of utxo.amounts) totals.set(unit, (totals.get(unit) ?? 0n) + q);
    }
    return totals;
  }
}

export interface L1Snapshot {
  unspent: [string, number, string, AmountRows][];
  spent: string[];
}
