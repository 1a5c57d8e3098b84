import { Cardano } from '@cardano-sdk/core';
import {
  InputSelectionError,
  InputSelectionFailure,
  roundRobinRandomImprove,
  type SelectionSkeleton,
} from '@cardano-sdk/input-selection';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import { coinsCovering, MOST_COINS_SPENT, refOf, type InputUtxo } from '../../chain';

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
const estimatedBytes = (inputs: number, assetsPerOutput: readonly number[]): number =>
  160 + 45 * inputs + assetsPerOutput.reduce((sum, assets) => sum + 70 + 45 * assets, 0) + 110;

const estimatedSize = (skeleton: SelectionSkeleton): number =>
  estimatedBytes(
    skeleton.inputs.size,
    [...skeleton.outputs, ...skeleton.change].map((o) => o.value.assets?.size ?? 0),
  );

export interface FeeParameters {
  a: bigint;
  b: bigint;
}

/** The fee a selection allows for a deposit of `bytes`: the estimate, and a fifth more. */
const allowedFee = (fee: FeeParameters, bytes: number): bigint =>
  ((fee.b + fee.a * BigInt(bytes)) * 12n) / 10n;

/** The least ADA the change of a deposit holds: the exchange wants 1 ADA, a token needs more. */
const CHANGE_LOVELACE = 1_000_000n;
const CHANGE_PER_TOKEN_LOVELACE = 350_000n;

/** The coins `depositReserve`'s `lovelace` pays the fee of spending; more cost `perCoinLovelace`. */
const RESERVE_COINS = 20;
const ROUND_UP_TO = 100_000n;

/**
 * What a deposit of nearly everything leaves in the wallet, so that it can be built: its fee
 * (for spending up to 20 coins) and its change's minimum, rounded up to 0.1 ADA; how much more
 * for each kind of token that stays in the wallet; and the fee of each coin spent beyond those 20
 * (a deposit of nearly everything spends every coin). What "Max" keeps back.
 */
export const depositReserve = (
  fee: FeeParameters,
): { lovelace: bigint; perTokenLovelace: bigint; coins: number; perCoinLovelace: bigint } => {
  const roundUp = (lovelace: bigint) => ((lovelace + ROUND_UP_TO - 1n) / ROUND_UP_TO) * ROUND_UP_TO;
  // The deposit's own output and the change, each with a couple of tokens.
  const feeAllowed = allowedFee(fee, estimatedBytes(RESERVE_COINS, [2, 2]));
  return {
    lovelace: roundUp(feeAllowed + CHANGE_LOVELACE),
    perTokenLovelace: roundUp(CHANGE_PER_TOKEN_LOVELACE + allowedFee({ a: fee.a, b: 0n }, 45)),
    coins: RESERVE_COINS,
    // One more input's bytes (see `estimatedBytes`), with the selection's fifth on top.
    perCoinLovelace: allowedFee({ a: fee.a, b: 0n }, 45),
  };
};

/**
 * Picks which of the wallet's coins pay for a deposit, covering the amount, the L1 fee and a
 * change output of at least its minimum, with the SDK's random-improve selection (the one the
 * Cardano wallets use). One transaction spends at most 100 coins: when random picks would need
 * more, the choice is made again from the 100 that cover the most (those holding a token the
 * deposit moves, then those holding the most ADA), so that any deposit those coins can pay is
 * built (what Max fills in from a wallet of more coins). Answers the chosen UTxOs exactly as the
 * chain provider gave them.
 */
export const selectCoins = async (
  utxos: readonly InputUtxo[],
  amounts: ReadonlyMap<string, bigint>,
  changeAddress: string,
  fee: FeeParameters,
): Promise<InputUtxo[]> => {
  try {
    return await select(utxos, amounts, changeAddress, fee);
  } catch (error) {
    if (!tooManyCoins(error)) throw notEnough(error);
    if (utxos.length <= MOST_COINS_SPENT) throw moreThanOneTransaction(error);
    try {
      const tokens = new Set(
        [...amounts].filter(([u, q]) => u !== LOVELACE && q > 0n).map(([u]) => u),
      );
      return await select(coinsCovering(utxos, tokens), amounts, changeAddress, fee);
    } catch (again) {
      // The wallet holds it, but not in 100 coins: more than one transaction's worth.
      throw moreThanOneTransaction(again);
    }
  }
};

const moreThanOneTransaction = (cause: unknown) =>
  new AppError(
    ErrorCode.InvalidInput,
    `This deposit would spend more than ${MOST_COINS_SPENT} of your wallet’s coins, more than one transaction can carry. Deposit less now (the coins it spends are shown before you sign), then the rest in a second deposit.`,
    { cause },
  );

const notEnough = (cause: unknown) =>
  new AppError(
    ErrorCode.InvalidInput,
    'Your wallet does not hold enough to deposit this and pay the network fee (about 0.2 ADA) with at least 1 ADA of change. Deposit less, or add coins to your wallet first.',
    { cause },
  );

const tooManyCoins = (error: unknown): boolean =>
  error instanceof InputSelectionError &&
  error.failure === InputSelectionFailure.MaximumInputCountExceeded;

const select = async (
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
  const result = await selector.select({
    preSelectedUtxo: new Set(),
    utxo: available,
    outputs: new Set([{ address: Cardano.PaymentAddress(changeAddress), value: valueOf(amounts) }]),
    constraints: {
      computeMinimumCost: async (skeleton) => ({ fee: allowedFee(fee, estimatedSize(skeleton)) }),
      // The exchange wants change of at least 1 ADA; an output holding tokens needs more.
      computeMinimumCoinQuantity: (output) =>
        CHANGE_LOVELACE + CHANGE_PER_TOKEN_LOVELACE * BigInt(output.value.assets?.size ?? 0),
      tokenBundleSizeExceedsLimit: () => false,
      computeSelectionLimit: async () => MOST_COINS_SPENT,
    },
  });
  return [...result.selection.inputs].map(([input]) => {
    const chosen = byId.get(`${input.txId}#${input.index}`);
    if (!chosen) throw new Error('coin selection answered a coin the wallet does not have');
    return chosen;
  });
};
