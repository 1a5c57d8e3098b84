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
