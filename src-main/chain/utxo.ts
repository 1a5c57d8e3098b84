import type { InputUtxo } from '../exchange';

/**
 * The seed's input-UTxO shape (2.5) is the exchange's wire format, so it is defined with the
 * exchange's wire schemas; the chain providers produce it.
 */
export { AmountEntry, InputUtxo } from '../exchange';

/** Where the app reads a wallet's coins on L1: the sandbox's simulated ledger, Koios, Blockfrost… */
export interface ChainLookup {
  utxosAt(address: string, signal?: AbortSignal): Promise<InputUtxo[]>;
}

/** Adds up what a set of UTxOs holds, per unit, in smallest units. */
export const totalOf = (utxos: readonly InputUtxo[]): Map<string, bigint> => {
  const total = new Map<string, bigint>();
  for (const utxo of utxos) {
    for (const { unit, quantity } of utxo.output.amount) {
      total.set(unit, (total.get(unit) ?? 0n) + BigInt(quantity));
    }
  }
  return total;
};
