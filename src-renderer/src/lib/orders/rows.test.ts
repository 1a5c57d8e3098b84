import { describe, expect, it } from 'vitest';
import type { Market } from '../../../../src-shared/domain';
import { ADA_USDM, orderOf } from '../trade/fake-api';
import { lineOf, type WireRow } from './rows';

const markets = [{ ...ADA_USDM, priceDecimals: 5, quantityDecimals: 2 }] as unknown as Market[];

const fill = {
  id: 'f1',
  orderId: 'o1',
  accountId: null,
  counterPartyOrderId: null,
  price: '0.651234',
  baseQty: '1234.5',
  quoteQty: '803.96',
  commission: '0.0123456789',
  commissionUnit: 'lovelace',
  role: 'maker' as const,
  createdAt: '2025-03-01T12:00:00.000Z',
};

describe('a row of the Orders table', () => {
  it('shows an order with its market’s decimals, cut and never rounded up', () => {
    const order = orderOf({
      id: 'o1',
      side: 'sell',
      status: 'partially_cancelled',
      price: '0.651239',
      baseQty: '3',
      executedBaseQty: '2',
      executedPrice: '0.65',
      commission: '0.0123456789',
    });
    const line = lineOf({ key: 'o1', order, execution: null }, markets);
    expect(line).toMatchObject({
      kind: 'order',
      market: 'ADA/USDM',
      side: 'sell',
      type: 'Limit',
      price: '0.65123',
      amount: '3.00',
      // Two thirds filled reads 66%, not 67%.
      filled: '66%',
      average: '0.65000',
      fee: '0.012345',
      // A sell is paid in the quote asset.
      feeAsset: 'USDM',
      status: 'partially_cancelled',
    });
  });

  it('shows a fill of the trading history, and is worked out again when the markets arrive', () => {
    const row: WireRow = {
      key: 'o1:f1',
      order: orderOf({ id: 'o1', side: 'buy' }),
      execution: fill,
    };
    expect(lineOf(row, [])).toMatchObject({
      kind: 'fill',
      market: 'ADAUSDM',
      amount: '1,234.5000',
    });
    expect(lineOf(row, markets)).toMatchObject({
      kind: 'fill',
      market: 'ADA/USDM',
      price: '0.65123',
      amount: '1,234.50',
      value: '803.96000',
      fee: '0.012345',
      feeAsset: 'ADA',
      role: 'Maker',
    });
  });

  it('says which record could not be read instead of showing guesses', () => {
    const broken = orderOf({ id: 'o9', baseQty: '1e5' });
    expect(lineOf({ key: 'o9', order: broken, execution: null }, markets)).toEqual({
      kind: 'unreadable',
      text: 'Order o9: this record could not be read.',
    });
    const row = { key: 'o1:f1', order: orderOf(), execution: { ...fill, role: 'nobody' } };
    expect(lineOf(row as unknown as WireRow, markets)).toEqual({
      kind: 'unreadable',
      text: 'Fill f1: this record could not be read.',
    });
  });
});
