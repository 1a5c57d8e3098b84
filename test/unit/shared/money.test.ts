import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  groupedText,
  Money,
  formatAmount,
  fromSmallestUnit,
  moneyFromWire,
  parseAmount,
  smallestUnitText,
  toSmallestUnit,
} from '../../../src-shared/money';

describe('money', () => {
  it('converts human units to the smallest unit exactly, and back', () => {
    expect(toSmallestUnit(new Money('0.1'), 6)).toBe(100_000n);
    expect(toSmallestUnit(new Money('123456789.123456'), 6)).toBe(123_456_789_123_456n);
    expect(fromSmallestUnit(1n, 6).toFixed()).toBe('0.000001');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 45_000_000_000_000_000n }), (lovelace) => {
        expect(toSmallestUnit(fromSmallestUnit(lovelace, 6), 6)).toBe(lovelace);
      }),
    );
  });

  it('writes smallest units as the exact human amount, as decimal arithmetic does', () => {
    expect(smallestUnitText(1n, 6)).toBe('0.000001');
    expect(smallestUnitText(12_500_000n, 6)).toBe('12.5');
    expect(smallestUnitText(-3_000_000n, 6)).toBe('-3');
    expect(smallestUnitText(0n, 6)).toBe('0');
    expect(smallestUnitText(42n, 0)).toBe('42');
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
        fc.integer({ min: 0, max: 18 }),
        (quantity, decimals) => {
          expect(smallestUnitText(quantity, decimals)).toBe(
            fromSmallestUnit(quantity, decimals).toFixed(),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses an amount finer than the asset allows instead of rounding it', () => {
    expect(() => toSmallestUnit(new Money('1.0000001'), 6)).toThrow(/more than 6 decimal places/);
  });

  it('reads JSON numbers through their decimal text, not their binary value', () => {
    expect(moneyFromWire(0.1).plus(moneyFromWire(0.2)).toFixed()).toBe('0.3');
    expect(moneyFromWire('12.50').toFixed()).toBe('12.5');
    expect(() => moneyFromWire(Number.NaN)).toThrow();
    expect(() => moneyFromWire('1e5')).toThrow();
  });

  it('parses only plain decimals typed by a person', () => {
    expect(parseAmount(' 10.25 ')?.toFixed()).toBe('10.25');
    for (const bad of ['', 'abc', '1,5', '1e3', '0x10', '.5', '1.', 'Infinity']) {
      expect(parseAmount(bad), bad).toBeNull();
    }
  });

  it('formats without ever showing more than there is', () => {
    expect(formatAmount(new Money('1.999999'), 2)).toBe('1.99');
    expect(formatAmount(new Money('5'), 4)).toBe('5.0000');
  });
});

describe('groupedText', () => {
  it('groups the thousands of a plain decimal and keeps every digit', () => {
    expect(groupedText('9998.3')).toBe('9,998.3');
    expect(groupedText('10000')).toBe('10,000');
    expect(groupedText('-1234567.000100')).toBe('-1,234,567.000100');
    expect(groupedText('999')).toBe('999');
    expect(groupedText('0.123456')).toBe('0.123456');
  });

  it('gives back anything else as it was', () => {
    for (const text of ['1e21', 'abc', '', '1,000', '.5']) expect(groupedText(text)).toBe(text);
  });

  it('only adds commas: removing them gives the text back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat(18), (q, d) => {
        const text = smallestUnitText(q, d);
        expect(groupedText(text).replaceAll(',', '')).toBe(text);
      }),
    );
  });
});
