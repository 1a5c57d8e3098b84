import type { ShownAmount } from '../../../../src-shared/contract';
import { Money } from '../../../../src-shared/money';

/**
 * What several lists of amounts add up to, per asset, exactly (in the order the assets first
 * appear); null when any list is not known (a coin whose content the transaction does not state).
 */
export const totalOf = (
  lists: readonly (readonly ShownAmount[] | null)[],
): ShownAmount[] | null => {
  const total = new Map<string, { name: string; quantity: bigint; amount: Money }>();
  for (const list of lists) {
    if (list === null) return null;
    for (const { unit, name, quantity, amount } of list) {
      const sum = total.get(unit);
      if (sum) {
        sum.quantity += BigInt(quantity);
        sum.amount = sum.amount.plus(amount);
      } else total.set(unit, { name, quantity: BigInt(quantity), amount: new Money(amount) });
    }
  }
  return [...total].map(([unit, { name, quantity, amount }]) => ({
    unit,
    name,
    quantity: quantity.toString(),
    amount: amount.toFixed(),
  }));
};

/** A coin a transaction spends, as the confirmation lists it. */
interface SpentCoin {
  party: string;
  amounts: readonly ShownAmount[] | null;
}

/** Coins of the wallet listed before the rest fold away, and how long a list may be unfolded. */
export const FOLDED_COINS = { kept: 5, above: 8 } as const;

/**
 * The coins the confirmation lists while the list is folded, in the transaction's order, and how
 * many of the wallet's own it leaves out (0: it lists them all). Only the wallet's own coins,
 * with what they hold stated, ever fold: one of anyone else's, or one whose content is not
 * stated, is always listed, wherever it is in the transaction, so a long list cannot hide it.
 */
export const foldCoins = <Coin extends SpentCoin>(
  coins: readonly Coin[],
): { shown: Coin[]; folded: number } => {
  const plain = (coin: Coin) => coin.party === 'own' && coin.amounts !== null;
  if (coins.length <= FOLDED_COINS.above) return { shown: [...coins], folded: 0 };
  let kept = 0;
  const shown = coins.filter((coin) => !plain(coin) || kept++ < FOLDED_COINS.kept);
  return { shown, folded: coins.length - shown.length };
};
