import { describe, expect, it } from 'vitest';
import { csvCell, fillsCsv, ordersCsv } from '../../../../../src-main/app/orders/csv';
import { Order } from '../../../../../src-shared/domain';

const order = Order.parse({
  id: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
  accountId: null,
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  status: 'partially_filled',
  price: '0.4512',
  baseQty: '100',
  quoteQty: '45.12',
  lockedBaseQty: '0',
  lockedQuoteQty: '22.56',
  executedBaseQty: '50',
  executedQuoteQty: '22.56',
  executedPrice: '0.4512',
  openBaseQty: '50',
  marketOrderLimitPrice: null,
  slippageBp: null,
  commission: '0.05',
  commissionRateBp: 10,
  commissionUnit: 'lovelace',
  activeOrderUtxoId: `${'ab'.repeat(32)}#0`,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:01:00.000Z',
  executions: [
    {
      id: '=HYPERLINK("http://evil")',
      orderId: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
      accountId: null,
      counterPartyOrderId: 'x,y',
      price: '0.4512',
      baseQty: '50',
      quoteQty: '22.56',
      commission: '0.05',
      commissionUnit: 'lovelace',
      role: 'maker',
      createdAt: '2026-11-23T10:01:00.000Z',
    },
  ],
});

describe('CSV export', () => {
  it('writes one row per order with exact decimals', () => {
    const lines = ordersCsv([order]).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.split(',')[0]).toBe('id');
    expect(lines[1]).toContain(',0.4512,100,45.12,50,22.56,0.4512,50,,0.05,lovelace,');
  });

  it('writes one row per fill, never lets a cell run as a spreadsheet formula, and quotes commas', () => {
    const lines = fillsCsv([order]).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]?.startsWith(`"'=HYPERLINK(""http://evil"")"`)).toBe(true);
    expect(lines[1]?.endsWith(',"x,y"')).toBe(true);
  });

  it('keeps negative numbers as numbers', () => {
    expect(csvCell('-1.5')).toBe('-1.5');
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});
