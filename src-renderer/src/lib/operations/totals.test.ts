import { describe, expect, it } from 'vitest';
import { foldCoins, totalOf } from './totals';

const ada = (amount: string, quantity: string) => ({
  unit: 'lovelace',
  name: 'ADA',
  quantity,
  amount,
});
const usdm = (amount: string, quantity: string) => ({
  unit: 'usdm',
  name: 'USDM',
  quantity,
  amount,
});

describe('totalOf (what the coins a transaction spends hold in all)', () => {
  it('adds each asset exactly, in the order the assets first appear', () => {
    expect(
      totalOf([
        [ada('0.1', '100000')],
        [ada('0.2', '200000'), usdm('12.345678', '12345678')],
        [usdm('0.000001', '1'), ada('10000', '10000000000')],
      ]),
    ).toEqual([ada('10000.3', '10000300000'), usdm('12.345679', '12345679')]);
  });

  it('is unknown when what one coin holds is not stated', () => {
    expect(totalOf([[ada('1', '1000000')], null])).toBeNull();
  });
});

describe('foldCoins (a long list of coins spent, folded)', () => {
  interface Coin {
    id: string;
    party: string;
    amounts: ReturnType<typeof ada>[] | null;
  }
  const own = (n: number): Coin => ({
    id: `own-${n}`,
    party: 'own',
    amounts: [ada('1', '1000000')],
  });
  const wallet = (count: number) => Array.from({ length: count }, (_, n) => own(n));

  it('lists every coin of a short list', () => {
    expect(foldCoins(wallet(8))).toEqual({ shown: wallet(8), folded: 0 });
  });

  it('keeps the first five of the wallet’s own coins of a long list, in order', () => {
    const { shown, folded } = foldCoins(wallet(100));
    expect(shown.map((c) => c.id)).toEqual(['own-0', 'own-1', 'own-2', 'own-3', 'own-4']);
    expect(folded).toBe(95);
  });

  it('never folds away a coin that is not the wallet’s, or whose content is not stated', () => {
    const coins = wallet(100);
    coins[50] = { id: 'stranger', party: 'unknown', amounts: [ada('1', '1000000')] };
    coins[70] = { id: 'other-keys', party: 'own-other', amounts: [ada('1', '1000000')] };
    coins[90] = { id: 'unstated', party: 'own', amounts: null };
    const { shown, folded } = foldCoins(coins);
    expect(shown.map((c) => c.id)).toEqual([
      'own-0',
      'own-1',
      'own-2',
      'own-3',
      'own-4',
      'stranger',
      'other-keys',
      'unstated',
    ]);
    expect(folded).toBe(92);
  });
});
