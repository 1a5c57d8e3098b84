import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../../src-shared/money';
import {
  clockTime,
  dateTime,
  exact,
  fixed,
  NONE,
  pairLabel,
  signedPercent,
  trimmed,
} from './format';

describe('fixed', () => {
  it('cuts to the decimals asked and never rounds up', () => {
    expect(fixed('0.65129', 4)).toBe('0.6512');
    expect(fixed('0.99999', 2)).toBe('0.99');
    expect(fixed('12', 4)).toBe('12.0000');
    expect(fixed(new Money('0.1').plus('0.2'), 2)).toBe('0.30');
  });

  it('groups thousands only when asked', () => {
    expect(fixed('1234567.5', 2)).toBe('1234567.50');
    expect(fixed('1234567.5', 2, { group: true })).toBe('1,234,567.50');
    expect(fixed('999', 0, { group: true })).toBe('999');
  });

  it('keeps a sign on negatives but not on a value cut to zero', () => {
    expect(fixed('-3.25', 1)).toBe('-3.2');
    expect(fixed('-0.0001', 2)).toBe('0.00');
  });

  it('shows a dash for nothing or for text that is not a plain decimal', () => {
    expect(fixed(null, 2)).toBe(NONE);
    expect(fixed('1e5', 2)).toBe(NONE);
    expect(fixed('abc', 2)).toBe(NONE);
  });

  it('is exact on amounts no float can hold', () => {
    expect(fixed('123456789012345678.123456789', 9, { group: true })).toBe(
      '123,456,789,012,345,678.123456789',
    );
  });
});

describe('exact', () => {
  it('keeps every decimal and groups the thousands', () => {
    expect(exact('9899.820683')).toBe('9,899.820683');
    expect(exact('10000')).toBe('10,000');
    expect(exact('0.000001')).toBe('0.000001');
    expect(exact(new Money('123456789012345678.123456789'))).toBe(
      '123,456,789,012,345,678.123456789',
    );
    expect(exact('-1500.50')).toBe('-1,500.50');
  });

  it('shows text that is not a plain decimal as it came', () => {
    expect(exact('1e21')).toBe('1e21');
  });
});

describe('trimmed', () => {
  it('drops trailing zeros', () => {
    expect(trimmed('5.000', 6)).toBe('5');
    expect(trimmed('1500.2500', 6)).toBe('1,500.25');
  });
});

describe('signedPercent', () => {
  it('writes the sign as text', () => {
    expect(signedPercent(new Decimal('0.0125'))).toBe('+1.25%');
    expect(signedPercent(new Decimal('-0.004'))).toBe('−0.40%');
    expect(signedPercent(new Decimal('0'))).toBe('0.00%');
  });
});

describe('times', () => {
  it('are fixed width in local time', () => {
    const iso = new Date(2025, 2, 1, 9, 5, 7).toISOString();
    expect(clockTime(iso)).toBe('09:05:07');
    expect(dateTime(iso)).toBe('2025-03-01 09:05:07');
    expect(dateTime('not a date')).toBe(NONE);
  });
});

describe('pairLabel', () => {
  it('names a known market by its assets', () => {
    const markets = [{ symbol: 'ADAUSDM', base: 'ADA', quote: 'USDM' }];
    expect(pairLabel('ADAUSDM', markets)).toBe('ADA/USDM');
    expect(pairLabel('XYZ', markets)).toBe('XYZ');
  });
});
