import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { serialize } from '../../../src-shared/domain/amount';
import { Money } from '../../../src-shared/money';

describe('what crosses a process boundary', () => {
  it('turns every decimal, however deep, into its exact string and keeps the rest as it is', () => {
    const order = {
      id: 'a',
      price: new Money('0.1').plus(new Money('0.2')),
      tiny: new Money('1e-25'),
      huge: new Decimal('123456789012345678901234567890.5'),
      none: null,
      gone: undefined,
      count: 3,
      open: true,
      executions: [{ price: new Money('0.65'), at: '2025-03-14T09:26:53.000Z' }, 'text', 7],
    };
    const out = serialize(order);
    expect(out).toEqual({
      id: 'a',
      price: '0.3',
      tiny: '0.0000000000000000000000001',
      huge: '123456789012345678901234567890.5',
      none: null,
      gone: undefined,
      count: 3,
      open: true,
      executions: [{ price: '0.65', at: '2025-03-14T09:26:53.000Z' }, 'text', 7],
    });
    expect(Object.keys(out)).toEqual(Object.keys(order));
    expect(serialize([new Money(2), null, 'x'])).toEqual(['2', null, 'x']);
    expect(serialize(new Money('7.25'))).toBe('7.25');
  });

  it('takes only own fields: nothing inherited crosses', () => {
    const inherited = Object.create({ secret: 'from the prototype' }) as Record<string, unknown>;
    inherited.amount = new Money('1.5');
    expect(serialize(inherited)).toEqual({ amount: '1.5' });
    expect(Object.keys(serialize(inherited))).toEqual(['amount']);
  });
});
