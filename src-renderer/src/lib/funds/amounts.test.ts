import { describe, expect, it } from 'vitest';
import { Money } from '../../../../src-shared/money';
import {
  checkFundsForm,
  depositReserve,
  mostToMove,
  spendingFor,
  PUBLISHED_RULES,
  readAmount,
  type AmountLine,
} from './amounts';

const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';

const lines = (ada: string, usdm = '', available = { ada: '100', usdm: '50' }): AmountLine[] => [
  { unit: 'lovelace', name: 'ADA', decimals: 6, text: ada, available: new Money(available.ada) },
  { unit: USDM, name: 'USDM', decimals: 6, text: usdm, available: new Money(available.usdm) },
];

describe('readAmount', () => {
  it('reads plain decimals exactly and explains anything else', () => {
    expect(readAmount('12.5', 6, 'ADA')).toEqual({ value: new Money('12.5') });
    expect(readAmount('1,250.5', 6, 'ADA')).toEqual({ value: new Money('1250.5') });
    expect(readAmount('', 6, 'ADA')).toBeNull();
    expect(readAmount('0', 6, 'ADA')).toBeNull();
    expect(readAmount('1e3', 6, 'ADA')).toEqual({
      problem: 'Type an amount of ADA as a number, such as 25 or 12.5.',
    });
    expect(readAmount('-2', 6, 'ADA')).toHaveProperty('problem');
    expect(readAmount('0.0000001', 6, 'ADA')).toEqual({
      problem: 'ADA has at most 6 decimal places.',
    });
    expect(readAmount('1.5', 0, 'TOKEN')).toEqual({ problem: 'TOKEN comes in whole units only.' });
  });
});

describe('checkFundsForm', () => {
  it('sends exactly what was typed, in human units, when it is acceptable', () => {
    expect(checkFundsForm('deposit', lines('25', '10.5'), PUBLISHED_RULES)).toEqual({
      problems: {},
      general: null,
      amounts: [
        { unit: 'lovelace', amount: '25' },
        { unit: USDM, amount: '10.5' },
      ],
    });
  });

  it('enforces the exchange minimum of ADA on every deposit, even a USDM one', () => {
    const onlyUsdm = checkFundsForm('deposit', lines('', '10'), PUBLISHED_RULES);
    expect(onlyUsdm.amounts).toEqual([]);
    expect(onlyUsdm.general).toBe(
      "Every deposit carries at least 2 ADA (the exchange's minimum): add the ADA amount to 2 or more.",
    );
    const tooLittle = checkFundsForm('deposit', lines('1.5'), PUBLISHED_RULES);
    expect(tooLittle.problems['lovelace']).toBe('At least 2 ADA.');
    expect(tooLittle.general).toContain('raise the ADA amount to 2 or more');
    expect(checkFundsForm('deposit', lines('2'), PUBLISHED_RULES).amounts).toHaveLength(1);
  });

  it('does not let a deposit exceed what the wallet holds', () => {
    const check = checkFundsForm('deposit', lines('100.000001'), PUBLISHED_RULES);
    expect(check.problems['lovelace']).toBe('Your wallet holds 100 ADA.');
    expect(check.amounts).toEqual([]);
  });

  it('counts a withdrawal fee taken on top against the free ADA', () => {
    const onTop = { ...PUBLISHED_RULES, withdrawalFeeFromPayout: false };
    const available = { ada: '10', usdm: '5' };
    expect(checkFundsForm('withdrawal', lines('9', '', available), onTop).amounts).toEqual([
      { unit: 'lovelace', amount: '9' },
    ]);
    expect(
      checkFundsForm('withdrawal', lines('9.5', '', available), onTop).problems['lovelace'],
    ).toBe('You have 10 ADA free; with the 1 ADA fee you can withdraw at most 9.');
    expect(checkFundsForm('withdrawal', lines('2', '6', available), onTop).problems[USDM]).toBe(
      'You have 5 USDM free on the exchange.',
    );
  });

  it('lets the whole free ADA be withdrawn where the fee comes out of the payout', () => {
    const available = { ada: '10', usdm: '5' };
    expect(
      checkFundsForm('withdrawal', lines('10', '', available), PUBLISHED_RULES).amounts,
    ).toEqual([{ unit: 'lovelace', amount: '10' }]);
    expect(
      checkFundsForm('withdrawal', lines('10.5', '', available), PUBLISHED_RULES).problems[
        'lovelace'
      ],
    ).toBe('You have 10 ADA free on the exchange.');
  });

  it('uses the rules the exchange states', () => {
    const rules = {
      minDepositLovelace: '5000000',
      minWithdrawalLovelace: '3000000',
      withdrawalFeeLovelace: '500000',
      withdrawalFeeFromPayout: false,
      depositReserveLovelace: '1500000',
      depositReservePerTokenLovelace: '500000',
      depositReserveCoins: 20,
      depositReservePerCoinLovelace: '2376',
    };
    expect(checkFundsForm('deposit', lines('4'), rules).general).toContain('at least 5 ADA');
    expect(checkFundsForm('withdrawal', lines('3'), rules).amounts).toHaveLength(1);
  });

  it('asks for an amount when nothing was typed', () => {
    expect(checkFundsForm('withdrawal', lines(''), PUBLISHED_RULES).general).toBe(
      'Type how much to withdraw.',
    );
  });
});

describe('mostToMove (what Max fills in)', () => {
  const at = (all: AmountLine[], unit: string) => {
    const line = all.find((l) => l.unit === unit);
    if (!line) throw new Error(`no line ${unit}`);
    return line;
  };

  it('keeps back the deposit’s fee and change, and more while a token stays in the wallet', () => {
    // USDM stays in the wallet: its change needs ADA beside it.
    const typedNothing = lines('', '', { ada: '10000', usdm: '50' });
    expect(depositReserve(typedNothing, PUBLISHED_RULES).toFixed()).toBe('1.7');
    expect(
      mostToMove('deposit', at(typedNothing, 'lovelace'), typedNothing, PUBLISHED_RULES)?.toFixed(),
    ).toBe('9998.3');
    // All the USDM goes too: only the fee and the 1 ADA of change stay back.
    const allUsdm = lines('', '50', { ada: '10000', usdm: '50' });
    expect(
      mostToMove('deposit', at(allUsdm, 'lovelace'), allUsdm, PUBLISHED_RULES)?.toFixed(),
    ).toBe('9998.7');
    // A token is always moved whole.
    expect(mostToMove('deposit', at(allUsdm, USDM), allUsdm, PUBLISHED_RULES)?.toFixed()).toBe(
      '50',
    );
  });

  it('keeps back the fee of every coin a deposit of nearly everything spends, past twenty', () => {
    const typedNothing = lines('', '50', { ada: '10000', usdm: '50' });
    const most = (coins: number) =>
      mostToMove('deposit', at(typedNothing, 'lovelace'), typedNothing, PUBLISHED_RULES, {
        coins,
        lovelace: '10000000000',
        withToken: {},
      });
    expect(most(1)?.toFixed()).toBe('9998.7');
    expect(most(20)?.toFixed()).toBe('9998.7');
    // 40 more coins: 40 × 0.002376 ADA, rounded up to 0.1 ADA.
    expect(depositReserve(typedNothing, PUBLISHED_RULES, 60).toFixed()).toBe('1.4');
    expect(most(60)?.toFixed()).toBe('9998.6');
    // 80 more: 0.19008 ADA, kept as 0.2.
    expect(most(100)?.toFixed()).toBe('9998.5');
  });

  it('moves no more ADA than the hundred coins one deposit can spend hold', () => {
    const typedNothing = lines('', '50', { ada: '10000', usdm: '50' });
    // A wallet of 150 coins whose richest hundred hold 9,000 of its 10,000 ADA.
    const most = mostToMove(
      'deposit',
      at(typedNothing, 'lovelace'),
      typedNothing,
      PUBLISHED_RULES,
      { coins: 100, lovelace: '9000000000', withToken: {} },
    );
    // Less the reserve for spending a hundred coins (1.3 + 0.2).
    expect(most?.toFixed()).toBe('8998.5');
  });

  it('with a token typed, counts the ADA of the hundred coins led by that token’s', () => {
    // The richest hundred hold 9,000 ADA; a hundred that also take the USDM's 40 small coins
    // hold 8,000.
    const one = {
      coins: 100,
      lovelace: '9000000000',
      withToken: { [USDM]: { coins: 100, lovelace: '8000000000' } },
    };
    const withUsdm = lines('', '50', { ada: '10000', usdm: '50' });
    const adaOnly = lines('', '', { ada: '10000', usdm: '50' });
    expect(spendingFor(one, withUsdm)).toEqual({ coins: 100, lovelace: '8000000000' });
    expect(spendingFor(one, adaOnly)).toBe(one);
    expect(
      mostToMove('deposit', at(withUsdm, 'lovelace'), withUsdm, PUBLISHED_RULES, one)?.toFixed(),
    ).toBe('7998.5');
    // ADA alone: the richest hundred, less the reserve of a deposit that leaves the USDM there.
    expect(
      mostToMove('deposit', at(adaOnly, 'lovelace'), adaOnly, PUBLISHED_RULES, one)?.toFixed(),
    ).toBe('8998.1');
  });

  it('offers nothing when the wallet holds no more than it must keep', () => {
    const little = lines('', '', { ada: '1.7', usdm: '50' });
    expect(mostToMove('deposit', at(little, 'lovelace'), little, PUBLISHED_RULES)).toBeNull();
  });

  it('takes a withdrawal fee charged on top from the free ADA, and none taken from the payout', () => {
    const free = lines('', '', { ada: '10', usdm: '5' });
    const onTop = { ...PUBLISHED_RULES, withdrawalFeeFromPayout: false };
    expect(mostToMove('withdrawal', at(free, 'lovelace'), free, onTop)?.toFixed()).toBe('9');
    expect(mostToMove('withdrawal', at(free, 'lovelace'), free, PUBLISHED_RULES)?.toFixed()).toBe(
      '10',
    );
  });
});
