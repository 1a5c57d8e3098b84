import { Cardano } from '@cardano-sdk/core';
import { roundRobinRandomImprove, type SelectionSkeleton } from '@cardano-sdk/input-selection';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { refOf, type InputUtxo } from '../../chain';

const LOVELACE = 'lovelace';

const valueOf = (amounts: ReadonlyMap<string, bigint>): Cardano.Value => {
  const assets = new Map<Cardano.AssetId, bigint>();
  for (const [unit, quantity] of amounts) {
    if (unit !== LOVELACE && quantity > 0n) assets.set(Cardano.AssetId(unit), quantity);
  }
  return { coins: amounts.get(LOVELACE) ?? 0n, ...(assets.size ? { assets } : {}) };
};

const amountsOfUtxo = (utxo: InputUtxo): Map<string, bigint> =>
  new Map(utxo.output.amount.map((a) => [a.unit, BigInt(a.quantity)]));

/** A rough upper bound of a deposit's size in bytes, to estimate its fee before it is built. */
const estimatedSize = (skeleton: SelectionSkeleton): number => {
  const outputs = [...skeleton.outputs, ...skeleton.change];
  const outputBytes = outputs.reduce((sum, o) => sum + 70 + 45 * (o.value.assets?.size ?? 0), 0);
  return 160 + 45 * skeleton.inputs.size + outputBytes + 110;
};

export interface FeeParameters {
  a: bigint;
  b: bigint;
}

/**
 * Picks which of the wallet's coins pay for a deposit, covering the amount, the L1 fee and a
 * change output of at least its minimum, with the SDK's random-improve selection (the one the
 * Cardano wallets use). Answers the chosen UTxOs exactly as the chain provider gave them.
 */
export const selectCoins = async (
  utxos: readonly InputUtxo[],
  amounts: ReadonlyMap<string, bigint>,
  changeAddress: string,
  fee: FeeParameters,
): Promise<InputUtxo[]> => {
  const byId = new Map(utxos.map((u) => [refOf(u), u]));
  const available = new Set<Cardano.Utxo>(
    utxos.map((u) => [
      {
        txId: Cardano.TransactionId(u.input.tx_hash),
        index: u.input.output_index,
        address: Cardano.PaymentAddress(u.output.address),
      },
      { address: Cardano.PaymentAddress(u.output.address), value: valueOf(amountsOfUtxo(u)) },
    ]),
  );
  const selector = roundRobinRandomImprove({
    changeAddressResolver: {
      resolve: async (selection) =>
        selection.change.map((change) => ({
          ...change,
          address: Cardano.PaymentAddress(changeAddress),
        })),
    },
  });
  try {
    const result = await selector.select({
      preSelectedUtxo: new Set(),
      utxo: available,
      outputs: new Set([
        { address: Cardano.PaymentAddress(changeAddress), value: valueOf(amounts) },
      ]),
      constraints: {
        computeMinimumCost: async (skeleton) => ({
          fee: ((fee.b + fee.a * BigInt(estimatedSize(skeleton))) * 12n) / 10n,
        }),
        // The exchange wants change of at least 1 ADA; an output holding tokens needs more.
        computeMinimumCoinQuantity: (output) =>
          1_000_000n + 350_000n * BigInt(output.value.assets?.size ?? 0),
        tokenBundleSizeExceedsLimit: () => false,
        computeSelectionLimit: async () => 100,
      },
    });
    return [...result.selection.inputs].map(([input]) => {
      const chosen = byId.get(`${input.txId}#${input.index}`);
      if (!chosen) throw new Error('coin selection answered a coin the wallet does not have');
      return chosen;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      ErrorCode.InvalidInput,
      'Your wallet does not hold enough to deposit this and pay the network fee (about 0.2 ADA) with at least 1 ADA of change. Deposit less, or add coins to your wallet first.',
      { cause: error },
    );
  }
};
