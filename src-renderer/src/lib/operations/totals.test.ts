import { describe, expect, it } from 'vitest';
import { totalOf } from './totals';

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
