import { describe, expect, it } from 'vitest';
import { Depth, Market } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { bookView } from './book';
import { ADA_USDM, depthOf, NIGHT_USDM } from './fake-api';
import {
  checkDecimal,
  estimate,
  normalizeDecimal,
  orderProblems,
  quantityForShare,
  slippageBp,
} from './order-rules';

const market = Market.parse(ADA_USDM);
const fail = (): never => {
  throw new Error('no estimate');
};
const book = bookView(Depth.parse(depthOf()));
const price = { name: 'price', example: '0.4512' };

describe('checkDecimal', () => {
  it('accepts a positive decimal within the precision', () => {
    const check = checkDecimal('0.6512', 4, price);
    expect(check.ok && check.value.toFixed()).toBe('0.6512');
  });

  it('says what is wrong in words', () => {
    expect(checkDecimal('0.65123', 4, price)).toEqual({
      ok: false,
      message: 'The price takes at most 4 decimal places on this market.',
    });
    expect(checkDecimal('abc', 4, price)).toEqual({
      ok: false,
      message: 'Enter the price as a number, such as 0.4512.',
    });
    expect(checkDecimal('0', 4, price)).toEqual({
      ok: false,
      message: 'The price must be more than 0.',
    });
    expect(checkDecimal('1.5', 0, price)).toEqual({
      ok: false,
      message: 'The price must be a whole number on this market.',
    });
  });

  it('treats an empty field as not yet a problem', () => {
    expect(checkDecimal('  ', 4, price)).toEqual({ ok: false, message: null });
  });

  it('reads a comma or a leading point the way a trader means it', () => {
    expect(normalizeDecimal(' ,5 ')).toBe('0.5');
    const check = checkDecimal('1 000,25', 4, price);
    expect(check.ok && check.text).toBe('1000.25');
  });
});

describe('slippageBp', () => {
  it('turns a percentage into basis points exactly', () => {
    expect(slippageBp('0.5')).toEqual({ ok: true, bp: 50 });
    expect(slippageBp('1.25')).toEqual({ ok: true, bp: 125 });
    expect(slippageBp('100')).toEqual({ ok: true, bp: 10_000 });
  });

  it('refuses more than 100 % or more than 2 decimals', () => {
    expect(slippageBp('101').ok).toBe(false);
    expect(slippageBp('0.125').ok).toBe(false);
  });
});

describe('estimate', () => {
  it('a limit buy locks the quote value and pays its fee in the base received', () => {
    const est = estimate({
      market,
      side: 'buy',
      kind: 'limit',
      quantity: new Money(100),
      price: new Money('0.65'),
      book,
      slippage: null,
    });
    expect(est?.lock).toEqual({ asset: 'USDM', amount: new Money(65) });
    expect(est?.fee.asset).toBe('ADA');
    expect(est?.fee.amount.toFixed()).toBe('0.1');
  });

  it('a limit sell locks the base and pays its fee in the quote received', () => {
    const est = estimate({
      market,
      side: 'sell',
      kind: 'limit',
      quantity: new Money(100),
      price: new Money('0.65'),
      book,
      slippage: null,
    });
    expect(est?.lock.asset).toBe('ADA');
    expect(est?.lock.amount.toFixed()).toBe('100');
    expect(est?.fee.asset).toBe('USDM');
    expect(est?.fee.amount.toFixed()).toBe('0.065');
  });

  it('a market buy is priced against the asks; a slippage limit may lock more', () => {
    const est = estimate({
      market,
      side: 'buy',
      kind: 'market',
      quantity: new Money(200),
      price: null,
      book,
      slippage: 100,
    });
    // 100 at 0.6513 + 100 at 0.6526
    expect(est?.value.toFixed()).toBe('130.39');
    expect(est?.average?.toFixed()).toBe('0.65195');
    // 200 × best ask 0.6513 × 1.01
    expect(est?.lock.amount.toFixed()).toBe('131.5626');
  });
});

describe('orderProblems', () => {
  const base = {
    market,
    free: new Money(1000),
    limits: null,
    openOrders: 0,
    kind: 'limit' as const,
  };
  const est = (quantity: string, priceText: string, side: 'buy' | 'sell' = 'buy') =>
    estimate({
      market,
      side,
      kind: 'limit',
      quantity: new Money(quantity),
      price: new Money(priceText),
      book,
      slippage: null,
    }) ?? fail();

  it('finds nothing wrong with a sound order', () => {
    expect(orderProblems({ ...base, quantity: new Money(10), est: est('10', '0.65') })).toEqual([]);
  });

  it('refuses an order below the minimum size', () => {
    expect(orderProblems({ ...base, quantity: new Money(4), est: est('4', '0.65') })).toEqual([
      'The smallest order is 5 ADA or its worth; this one is 4 ADA.',
    ]);
  });

  it('refuses an order the free balance cannot cover, naming both amounts', () => {
    expect(
      orderProblems({
        ...base,
        free: new Money('12.5'),
        quantity: new Money(100),
        est: est('100', '0.65'),
      }),
    ).toEqual(['Not enough USDM: this order locks 65.0000 USDM and 12.5000 USDM is free.']);
  });

  it("applies the trader's own limits", () => {
    const problems = orderProblems({
      ...base,
      limits: { maxOrderValue: '50', maxOpenOrders: 3 },
      openOrders: 3,
      quantity: new Money(100),
      est: est('100', '0.65'),
    });
    expect(problems).toEqual([
      'This order is worth 65.00 USDM, above your limit of 50 USDM per order (Settings).',
      'You have 3 open orders, the most your limit in Settings allows. Cancel one before placing another.',
    ]);
    const one = orderProblems({
      ...base,
      limits: { maxOrderValue: null, maxOpenOrders: 1 },
      openOrders: 1,
      quantity: new Money(100),
      est: est('100', '0.65'),
    });
    expect(one).toEqual([
      'You have 1 open order, the most your limit in Settings allows. Cancel one before placing another.',
    ]);
  });

  it('leaves the minimum of a market without ADA to the exchange', () => {
    const night = Market.parse(NIGHT_USDM);
    const nightEst =
      estimate({
        market: night,
        side: 'buy',
        kind: 'limit',
        quantity: new Money(1),
        price: new Money('0.05'),
        book,
        slippage: null,
      }) ?? fail();
    expect(
      orderProblems({ ...base, market: night, quantity: new Money(1), est: nightEst }),
    ).toEqual([]);
  });

  it('says when a market order is larger than the book', () => {
    const marketEst =
      estimate({
        market,
        side: 'buy',
        kind: 'market',
        quantity: new Money(5000),
        price: null,
        book,
        slippage: null,
      }) ?? fail();
    const problems = orderProblems({
      ...base,
      free: new Money(100_000),
      kind: 'market',
      quantity: new Money(5000),
      est: marketEst,
    });
    expect(problems[0]).toContain('The book holds only 750 ADA');
  });
});

describe('quantityForShare', () => {
  const args = {
    book,
    quantityDecimals: 4,
    free: new Money('100'),
  };

  it('a limit buy spends the share of the free quote at the limit price, cut to precision', () => {
    expect(
      quantityForShare({
        ...args,
        share: 50,
        side: 'buy',
        kind: 'limit',
        price: new Money('0.3'),
      })?.toFixed(),
    ).toBe('166.6666');
  });

  it('a sell sells the share of the free base', () => {
    expect(
      quantityForShare({ ...args, share: 25, side: 'sell', kind: 'limit', price: null })?.toFixed(),
    ).toBe('25');
  });

  it('a market buy walks the asks', () => {
    // 100 USDM: 100 ADA at 0.6513 (65.13), then 34.87 / 0.6526 = 53.4324…
    expect(
      quantityForShare({
        ...args,
        share: 100,
        side: 'buy',
        kind: 'market',
        price: null,
      })?.toFixed(),
    ).toBe('153.4324');
  });

  it('cannot size a limit buy without a price', () => {
    expect(
      quantityForShare({ ...args, share: 100, side: 'buy', kind: 'limit', price: null }),
    ).toBeNull();
  });
});
