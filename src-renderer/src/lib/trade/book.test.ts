import { describe, expect, it } from 'vitest';
import { Depth } from '../../../../src-shared/domain';
import { Money } from '../../../../src-shared/money';
import { affordable, bookView, depthBars, groupLevels, groupSteps, sweep } from './book';
import { depthOf } from './fake-api';

const view = (asks: Array<[string, string]>, bids: Array<[string, string]>) =>
  bookView(Depth.parse(depthOf('ADAUSDM', 1, asks, bids)));

describe('bookView', () => {
  it('sorts each side best first and keeps running totals', () => {
    const book = view(
      [
        ['0.66', '10'],
        ['0.65', '5'],
      ],
      [
        ['0.63', '1'],
        ['0.64', '2'],
      ],
    );
    expect(book.asks.map((r) => r.price.toFixed())).toEqual(['0.65', '0.66']);
    expect(book.asks.map((r) => r.cumulative.toFixed())).toEqual(['5', '15']);
    expect(book.asks.map((r) => r.cumulativeValue.toFixed())).toEqual(['3.25', '9.85']);
    expect(book.bids.map((r) => r.price.toFixed())).toEqual(['0.64', '0.63']);
    expect(book.bids.map((r) => r.cumulative.toFixed())).toEqual(['2', '3']);
  });

  it('scales the bars of both sides to the deeper one as shown, so they compare', () => {
    const book = view(
      [
        ['1', '30'],
        ['1.1', '1000'],
      ],
      [
        ['0.9', '10'],
        ['0.8', '5'],
      ],
    );
    const [ask1, ask2] = book.asks;
    const [bid1, bid2] = book.bids;
    if (!ask1 || !ask2 || !bid1 || !bid2) throw new Error('levels missing');
    // The best level of each side shown: the asks' deeper level is out of view.
    const bar = depthBars([ask1], [bid1, bid2]);
    expect(bar(ask1)).toBe(1);
    expect(bar(bid1)).toBeCloseTo(1 / 3, 6);
    expect(bar(bid2)).toBeCloseTo(1 / 2, 6);
    // All shown: the ask at 1.1 (1,030 deep) fills its row and the rest shrink beside it.
    const all = depthBars(book.asks, book.bids);
    expect(all(ask2)).toBe(1);
    expect(all(ask1)).toBeCloseTo(30 / 1030, 6);
  });

  it('draws no bar for an empty book', () => {
    expect(depthBars([], [])({ cumulative: new Money(0) } as never)).toBe(0);
  });

  it('reports the spread exactly and as a share of the mid', () => {
    const book = view([['0.6513', '1']], [['0.6487', '1']]);
    expect(book.spread?.toFixed()).toBe('0.0026');
    expect(book.spreadFraction?.toFixed(6)).toBe('0.004000');
  });

  it('drops empty levels and copes with an empty or missing book', () => {
    const book = view([['1', '0']], []);
    expect(book.asks).toEqual([]);
    expect(book.spread).toBeNull();
    expect(bookView(null).bids).toEqual([]);
  });
});

describe('groupLevels', () => {
  const book = view(
    [
      ['0.6501', '10'],
      ['0.6509', '5'],
      ['0.6510', '1'],
      ['0.6511', '2'],
      ['0.6530', '4'],
    ],
    [
      ['0.6499', '3'],
      ['0.6490', '7'],
      ['0.6489', '1'],
      ['0.6400', '2'],
    ],
  );
  const shown = (rows: ReturnType<typeof groupLevels>) =>
    rows.map((r) => [r.price.toFixed(4), r.quantity.toFixed(), r.cumulative.toFixed()]);

  it('offers the market tick and ten, a hundred and a thousand of it', () => {
    expect(groupSteps(4).map((s) => s.toFixed())).toEqual(['0.0001', '0.001', '0.01', '0.1']);
  });

  it('adds up each group at the price that reaches all of it: asks rounded up, bids down', () => {
    const step = new Money('0.001');
    expect(shown(groupLevels('ask', book.asks, step))).toEqual([
      ['0.6510', '16', '16'],
      ['0.6520', '2', '18'],
      ['0.6530', '4', '22'],
    ]);
    expect(shown(groupLevels('bid', book.bids, step))).toEqual([
      ['0.6490', '10', '10'],
      ['0.6480', '1', '11'],
      ['0.6400', '2', '13'],
    ]);
    // A group's key is its price: one row per group, kept as the levels in it change.
    expect(groupLevels('ask', book.asks, step).map((r) => r.key)).toEqual([
      '0.651',
      '0.652',
      '0.653',
    ]);
  });

  it('at the market tick shows the levels as quoted, and stops after the groups asked for', () => {
    const tick = new Money('0.0001');
    expect(shown(groupLevels('ask', book.asks, tick))).toEqual(
      book.asks.map((r) => [r.price.toFixed(4), r.quantity.toFixed(), r.cumulative.toFixed()]),
    );
    expect(shown(groupLevels('bid', book.bids, new Money('0.001'), 2))).toEqual([
      ['0.6490', '10', '10'],
      ['0.6480', '1', '11'],
    ]);
    expect(shown(groupLevels('bid', book.bids, new Money('0.01')))).toEqual([
      ['0.6400', '13', '13'],
    ]);
  });
});

describe('sweep and affordable', () => {
  const asks = view(
    [
      ['1', '10'],
      ['2', '10'],
    ],
    [],
  ).asks;

  it('walks the levels for the average and worst price', () => {
    const s = sweep(asks, new Money(15));
    expect(s.filled.toFixed()).toBe('15');
    expect(s.value.toFixed()).toBe('20');
    expect(s.average?.toFixed(4)).toBe('1.3333');
    expect(s.worst?.toFixed()).toBe('2');
  });

  it('says how much of a larger order the book holds', () => {
    expect(sweep(asks, new Money(25)).filled.toFixed()).toBe('20');
  });

  it('turns a budget into the base it buys', () => {
    expect(affordable(asks, new Money(20)).toFixed()).toBe('15');
    expect(affordable(asks, new Money(5)).toFixed()).toBe('5');
  });
});
