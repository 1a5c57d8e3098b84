import type { InputUtxo } from '../exchange';

/**
 * The seed's input-UTxO shape (2.5) is the exchange's wire format, so it is defined with the
 * exchange's wire schemas; the chain providers produce it.
 */
export { AmountEntry, InputUtxo } from '../exchange';

/** What one output on chain holds and where: enough to tell whose coin an input spends. */
export interface CoinOutput {
  address: string;
  /** Smallest units by unit (`lovelace`, or policy id + asset name hex). */
  amounts: ReadonlyMap<string, bigint>;
}

/** Where the app reads a wallet's coins on L1: the sandbox's simulated ledger, Koios, Blockfrost… */
export interface ChainLookup {
  utxosAt(address: string, signal?: AbortSignal): Promise<InputUtxo[]>;
  /**
   * What each of these outputs (`<tx hash>#<index>`) holds and at which address, as far as the
   * chain knows it; null for an output the chain does not know (never created on L1, or, where
   * the provider forgets spent ones, already spent). Throws when the provider cannot answer.
   */
  resolve(refs: readonly string[], signal?: AbortSignal): Promise<Map<string, CoinOutput | null>>;
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

/** A UTxO's output as a `CoinOutput`. */
export const coinOf = (utxo: InputUtxo): CoinOutput => ({
  address: utxo.output.address,
  amounts: new Map(utxo.output.amount.map((a) => [a.unit, BigInt(a.quantity)])),
});

/** The most coins one transaction of the app spends (a transaction's size is bounded). */
export const MOST_COINS_SPENT = 100;

/** The ADA a UTxO holds, in lovelace. */
export const lovelaceOf = (utxo: InputUtxo): bigint =>
  utxo.output.amount.reduce(
    (sum, a) => (a.unit === 'lovelace' ? sum + BigInt(a.quantity) : sum),
    0n,
  );

/**
 * The `count` coins holding the most ADA, most first (all of them when there are no more): those
 * a transaction that may spend no more than `count` spends to move the most ADA it can.
 */
export const richestCoins = (utxos: readonly InputUtxo[], count = MOST_COINS_SPENT): InputUtxo[] =>
  utxos
    .map((utxo) => ({ utxo, lovelace: lovelaceOf(utxo) }))
    .sort((a, b) => (a.lovelace > b.lovelace ? -1 : a.lovelace < b.lovelace ? 1 : 0))
    .slice(0, count)
    .map(({ utxo }) => utxo);

/**
 * The `count` coins that carry the most of a transaction moving these tokens (`units`): those
 * holding one of the tokens first, then the rest, each group by the ADA it holds, most first.
 * With no tokens, the richest coins.
 */
export const coinsCovering = (
  utxos: readonly InputUtxo[],
  units: ReadonlySet<string>,
  count = MOST_COINS_SPENT,
): InputUtxo[] => {
  const richest = richestCoins(utxos, utxos.length);
  const moves = (utxo: InputUtxo) => utxo.output.amount.some((a) => units.has(a.unit));
  return [...richest.filter(moves), ...richest.filter((utxo) => !moves(utxo))].slice(0, count);
};

/** `<tx hash>#<index>` of a UTxO. */
export const refOf = (utxo: InputUtxo): string =>
  `${utxo.input.tx_hash}#${utxo.input.output_index}`;

/** Coin references as the chain writes them: 64 hex, `#`, an output index. */
export const COIN_REF = /^[0-9a-f]{64}#\d{1,5}$/;
