import { z } from 'zod';

/** An amount of one asset in its smallest unit (seed 2.4). */
export const AmountEntry = z.object({
  unit: z.string().min(1).max(120),
  quantity: z.string().regex(/^\d{1,30}$/),
});

/**
 * An unspent output on Cardano (L1), in the seed's input-UTxO shape (2.5): what a deposit build
 * takes back as `input_utxos`, so it is kept exactly as the chain provider gave it.
 */
export const InputUtxo = z.object({
  input: z.object({
    tx_hash: z.string().regex(/^[0-9a-f]{64}$/),
    output_index: z.number().int().nonnegative(),
  }),
  output: z.object({
    address: z.string().min(1).max(200),
    amount: z.array(AmountEntry),
    data_hash: z.string().nullable(),
    plutus_data: z.string().nullable(),
    script_ref: z.string().nullable(),
    script_hash: z.string().nullable(),
  }),
});
export type InputUtxo = z.infer<typeof InputUtxo>;

/** Where the app reads a wallet's coins on L1: the sandbox's simulated ledger, Koios, Blockfrost… */
export interface ChainLookup {
  utxosAt(address: string): Promise<InputUtxo[]>;
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
