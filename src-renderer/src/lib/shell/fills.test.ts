import { describe, expect, it } from 'vitest';
import { ADA_USDM, executionOf, orderOf } from '../trade/fake-api';
import { describeFill } from './fills';

const execution = (id: string, price: string, baseQty: string) =>
  executionOf({ id, price, baseQty });

describe('describeFill', () => {
  it('tells a fill in its market’s units, the price with the decimals the book shows', () => {
    const order = orderOf({
      status: 'fully_filled',
      executedBaseQty: '1250',
      executions: [execution('e-1', '0.652', '1250')],
    });
    expect(describeFill({ order, executionId: 'e-1' }, [ADA_USDM])).toEqual({
      title: 'Order filled',
      detail: 'Bought 1,250 ADA at 0.6520 USDM',
    });
  });

  it('tells the execution that happened, not the order’s total, and a partial fill as such', () => {
    const order = orderOf({
      side: 'sell',
      status: 'partially_filled',
      executedBaseQty: '30.5',
      executions: [execution('e-1', '0.65', '20'), execution('e-2', '0.6487', '10.5')],
    });
    expect(describeFill({ order, executionId: 'e-2' }, [ADA_USDM])).toEqual({
      title: 'Order partly filled',
      detail: 'Sold 10.5 ADA at 0.6487 USDM',
    });
  });

  it('falls back to the exchange’s symbol and numbers when the market is not known', () => {
    const order = orderOf({
      status: 'fully_filled',
      executedBaseQty: '100',
      executions: [execution('e-1', '0.45', '100')],
    });
    expect(describeFill({ order, executionId: 'e-1' })).toEqual({
      title: 'Order filled',
      detail: 'Bought 100 at 0.45 on ADAUSDM',
    });
  });
});
