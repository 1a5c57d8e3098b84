import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../src-shared/money';
import { slippageWithin, worstPriceOf } from '../../../src-shared/slippage';

describe('a market order’s slippage limit', () => {
  it('as a price: the best ask plus the limit for a buy, the best bid less it for a sell', () => {
    expect(worstPriceOf('buy', 100, new Money('0.6526'))?.toFixed()).toBe('0.659126');
    expect(worstPriceOf('sell', 100, new Money('0.6526'))?.toFixed()).toBe('0.646074');
    expect(worstPriceOf('buy', undefined, new Money('0.6526'))).toBeNull();
    expect(worstPriceOf('buy', 100, null)).toBeNull();
  });

  it('asked of the exchange: the trader’s own while the book is where they saw it', () => {
    expect(slippageWithin('buy', 100, new Money('0.6526'), new Money('0.659126'))).toBe(100);
    expect(slippageWithin('sell', 100, new Money('0.6526'), new Money('0.646074'))).toBe(100);
    // The book moved their way: never more than they set.
    expect(slippageWithin('buy', 100, new Money('0.60'), new Money('0.659126'))).toBe(100);
  });

  it('narrowed when the book has moved against them, so the exchange’s limit stays within theirs', () => {
    // The case met on the practice market: the ask rose two ticks, 0.6526 → 0.6553.
    const bp = slippageWithin('buy', 100, new Money('0.6553'), new Money('0.659126'));
    expect(bp).toBe(58);
    expect(worstPriceOf('buy', 58, new Money('0.6553'))?.lte('0.659126')).toBe(true);
    expect(slippageWithin('sell', 100, new Money('0.6500'), new Money('0.646074'))).toBe(60);
  });

  it('none when the book has moved past the worst price they accepted', () => {
    expect(slippageWithin('buy', 100, new Money('0.6600'), new Money('0.659126'))).toBeNull();
    expect(slippageWithin('sell', 100, new Money('0.6400'), new Money('0.646074'))).toBeNull();
    // A book that names no price is nothing to narrow against.
    expect(slippageWithin('buy', 100, new Money(0), new Money('0.659126'))).toBe(100);
    // Exactly at it, a limit of 0 still fills at that price.
    expect(slippageWithin('buy', 100, new Money('0.659126'), new Money('0.659126'))).toBe(0);
  });

  it('for any book and any accepted price, the exchange’s limit is within it and one basis point more is not', () => {
    const price = fc
      .integer({ min: 1, max: 50_000_000 })
      .map((ticks) => new Money(ticks).div(10_000));
    fc.assert(
      fc.property(
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.integer({ min: 0, max: 10_000 }),
        price,
        price,
        (side, slippageBp, best, accepted) => {
          const bp = slippageWithin(side, slippageBp, best, accepted);
          const within = (limit: Money) =>
            side === 'buy' ? limit.lte(accepted) : limit.gte(accepted);
          if (bp === null) {
            expect(within(best)).toBe(false);
            return;
          }
          expect(bp).toBeGreaterThanOrEqual(0);
          expect(bp).toBeLessThanOrEqual(slippageBp);
          expect(within(worstPriceOf(side, bp, best) ?? new Money(0))).toBe(true);
          if (bp < slippageBp) {
            expect(within(worstPriceOf(side, bp + 1, best) ?? new Money(0))).toBe(false);
          }
        },
      ),
    );
  });
});
