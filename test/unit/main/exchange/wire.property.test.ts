import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialize } from '../../../../src-shared/domain';
import { ExchangeError } from '../../../../src-main/exchange';
import {
  decodeOrderPage,
  decodeOrderRecord,
  decodeOrderRecordBySchema,
  OrderListMemo,
  readsQuickly,
} from '../../../../src-main/exchange/wire';
import {
  legacyOpenRecord,
  legacyRecord as legacyFixture,
  legacyUnfilledRecord,
  seedRecord as seedFixture,
} from '../../../fixtures/exchange/records';

/**
 * Order records are read by a hand-written fast path, with the zod schemas behind it. The
 * trader must not be able to tell which one read a record: random records, valid and broken in
 * every way, decode to the same order or fail with the same message either way; and the fast
 * path itself reads every plainly valid record (else pages and the account stream are slow).
 */

const where = { endpoint: 'GET /accounts/order-records', action: 'read your order records' };

type Outcome = { order: unknown } | { error: string };
const outcome = (decode: typeof decodeOrderRecord, raw: unknown): Outcome => {
  try {
    return { order: serialize(decode(raw, where, 'data[0].orders[3]')) };
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return { error: error.message };
  }
};

// ---- valid values, in every form the exchange has sent them

const id = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 100 }));
const decimal = fc.oneof(
  fc.double({ min: 0, max: 1e15, noNaN: true, noDefaultInfinity: true }),
  fc.nat().map(String),
  fc.tuple(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99_999_999 })).map(([a, b]) => `${a}.${b}`),
  fc.constantFrom('0', '0.0', ' 12.5 ', '000.10'),
);
const time = fc.oneof(
  fc
    .date({
      min: new Date('1971-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  fc
    .date({
      min: new Date('1971-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().replace('.000Z', 'Z')),
  fc.integer({ min: 0, max: 4_000_000_000 }),
  fc.integer({ min: 100_000_000_001, max: 4_000_000_000_000 }),
  fc.integer({ min: 0, max: 4_000_000_000 }).map(String),
);
const basisPoints = fc.oneof(fc.nat(10_000), fc.nat(10_000).map(String));
const text = (max: number) => fc.string({ maxLength: max });
const side = fc.constantFrom('buy', 'sell', 'BUY', 'Sell');
const type = fc.constantFrom('limit', 'market', 'LIMIT', 'Market');
const role = fc.constantFrom('maker', 'taker', 'Maker');
const status = fc.constantFrom(
  'building',
  'processing',
  'open',
  'partially_filled',
  'fully_filled',
  'closed',
  'cancelled',
  'partially_cancelled',
  'failed',
  'partiallyFilled',
  'Canceled',
  'filled',
  'PARTIALLY-CANCELED',
);
const symbol = fc.constantFrom('ADAUSDM', 'adausdm', ' NIGHTUSDM ');
/** An optional field: absent, null, or a value. */
const maybe = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof(fc.constant(undefined), fc.constant(null), value, value);

const seedExecution = fc.record(
  {
    id,
    order_id: id,
    account_id: maybe(id),
    counter_party_order_id: maybe(id),
    execution_price: decimal,
    filled_base_qty: decimal,
    filled_quote_qty: maybe(decimal),
    commission: maybe(decimal),
    commission_unit: maybe(text(120)),
    role,
    created_at: time,
  },
  { requiredKeys: ['id', 'order_id', 'execution_price', 'filled_base_qty', 'role', 'created_at'] },
);

const seedRecord = fc.record(
  {
    id,
    account_id: maybe(id),
    symbol,
    side,
    type,
    status,
    price: maybe(decimal),
    base_qty: decimal,
    quote_qty: maybe(decimal),
    locked_base_qty: maybe(decimal),
    locked_quote_qty: maybe(decimal),
    executed_base_qty: maybe(decimal),
    executed_quote_qty: maybe(decimal),
    executed_price: maybe(decimal),
    ob_open_order_base_qty: maybe(decimal),
    market_order_limit_price: maybe(decimal),
    slippage_bp: maybe(basisPoints),
    commission: maybe(decimal),
    commission_rate_bp: maybe(basisPoints),
    commission_unit: maybe(text(120)),
    active_order_utxo_id: maybe(text(200)),
    created_at: time,
    updated_at: maybe(time),
    order_execution_records: maybe(fc.array(seedExecution, { maxLength: 3 })),
  },
  { requiredKeys: ['id', 'symbol', 'side', 'type', 'status', 'base_qty', 'created_at'] },
);

const legacyFill = fc.record(
  {
    id,
    order_id: id,
    execution_price: decimal,
    filled_amount: decimal,
    fee_unit: maybe(text(120)),
    fee_amount: maybe(decimal),
    role,
    counter_party_order_id: maybe(id),
    create_time: time,
  },
  { requiredKeys: ['id', 'order_id', 'execution_price', 'filled_amount', 'role', 'create_time'] },
);

const legacyRecord = fc.record(
  {
    order_id: id,
    account_id: maybe(id),
    symbol,
    side,
    type,
    status,
    price: maybe(decimal),
    orig_qty: decimal,
    executed_qty: maybe(decimal),
    executed_price: maybe(decimal),
    fee_charged: maybe(decimal),
    fee_unit: maybe(text(120)),
    slippage: maybe(
      fc.oneof(fc.string({ maxLength: 8 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    ),
    create_time: time,
    update_time: maybe(time),
    fills: maybe(fc.array(legacyFill, { maxLength: 3 })),
  },
  { requiredKeys: ['order_id', 'symbol', 'side', 'type', 'status', 'orig_qty', 'create_time'] },
);

const validRecord = fc.oneof(seedRecord, legacyRecord);

// ---- what a broken or hostile exchange may put in any field instead

/** Values at and beyond every boundary the schemas draw. */
const AWKWARD: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  -1,
  -0.5,
  1.5,
  1e21,
  Number.MAX_SAFE_INTEGER,
  '',
  ' ',
  '-1',
  '-0',
  '1e5',
  '0x10',
  '1.',
  '.5',
  '1,5',
  'NaN',
  'Infinity',
  'twelve',
  'constructor',
  '__proto__',
  'toString',
  'buy',
  'LIMIT',
  'partially filled',
  'ADA-USDM',
  'A',
  '2025-03-14T09:26:53Z',
  '2025-03-14T09:26:53.123456789Z',
  '2025-13-45T09:26:53Z',
  '2025-03-14 09:26:53',
  'Fri, 14 Mar 2025 09:26:53 GMT',
  '1741944500',
  '1741944500.5',
  '123456789012345678',
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(120),
  'a'.repeat(121),
  'a'.repeat(200),
  'a'.repeat(201),
  [],
  {},
  [{}],
  [null],
  { nested: 1 },
];

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...AWKWARD), weight: 4 },
  fc.string({ maxLength: 12 }),
  fc.double(),
  fc.integer(),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 2 }),
  fc.anything({ maxDepth: 1 }),
);

const FIELDS = [
  'id',
  'order_id',
  'account_id',
  'symbol',
  'side',
  'type',
  'status',
  'price',
  'base_qty',
  'quote_qty',
  'orig_qty',
  'executed_qty',
  'locked_base_qty',
  'locked_quote_qty',
  'executed_base_qty',
  'executed_quote_qty',
  'executed_price',
  'ob_open_order_base_qty',
  'market_order_limit_price',
  'slippage_bp',
  'slippage',
  'commission',
  'commission_rate_bp',
  'commission_unit',
  'fee_charged',
  'fee_unit',
  'active_order_utxo_id',
  'created_at',
  'updated_at',
  'create_time',
  'update_time',
  'order_execution_records',
  'fills',
] as const;

const EXECUTION_FIELDS = [
  'id',
  'order_id',
  'account_id',
  'counter_party_order_id',
  'execution_price',
  'filled_base_qty',
  'filled_quote_qty',
  'filled_amount',
  'commission',
  'commission_unit',
  'fee_unit',
  'fee_amount',
  'role',
  'created_at',
  'create_time',
] as const;

/** A valid record with one to three fields (of the order or of its first fill) spoiled. */
const brokenRecord = fc
  .tuple(
    validRecord,
    fc.array(
      fc.tuple(
        fc.boolean(),
        fc.constantFrom(...FIELDS),
        fc.constantFrom(...EXECUTION_FIELDS),
        hostile,
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([record, spoils]) => {
    const out: Record<string, unknown> = structuredClone(record);
    for (const [inFill, field, fillField, value] of spoils) {
      const fills = out.order_execution_records ?? out.fills;
      const target =
        inFill && Array.isArray(fills) && typeof fills[0] === 'object' && fills[0] !== null
          ? (fills[0] as Record<string, unknown>)
          : out;
      const key = target === out ? field : fillField;
      if (value === undefined) Reflect.deleteProperty(target, key);
      else target[key] = value;
    }
    return out;
  });

describe('the fast path for order records', () => {
  it('reads every valid record itself, to the same order the schemas give', () => {
    fc.assert(
      fc.property(validRecord, (record) => {
        expect(readsQuickly(record)).toBe(true);
        expect(outcome(decodeOrderRecord, record)).toEqual(
          outcome(decodeOrderRecordBySchema, record),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same order, or the same error naming the field and endpoint, on broken records', () => {
    fc.assert(
      fc.property(brokenRecord, (record) => {
        expect(outcome(decodeOrderRecord, record)).toEqual(
          outcome(decodeOrderRecordBySchema, record),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees on whatever else arrives where a record should be', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(outcome(decodeOrderRecord, value)).toEqual(
          outcome(decodeOrderRecordBySchema, value),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on every awkward value in every field of the recorded examples', () => {
    const examples = [seedFixture(), legacyFixture(), legacyOpenRecord(), legacyUnfilledRecord()];
    let cases = 0;
    for (const example of examples) {
      expect(readsQuickly(example)).toBe(true);
      const fills = (example.order_execution_records ?? example.fills) as
        Array<Record<string, unknown>> | undefined;
      for (const value of AWKWARD) {
        for (const field of FIELDS) {
          const record: Record<string, unknown> = { ...example };
          if (value === undefined) Reflect.deleteProperty(record, field);
          else record[field] = value;
          expect(outcome(decodeOrderRecord, record), `${field} = ${String(value)}`).toEqual(
            outcome(decodeOrderRecordBySchema, record),
          );
          cases++;
        }
        if (!fills?.[0]) continue;
        for (const field of EXECUTION_FIELDS) {
          const fill: Record<string, unknown> = { ...fills[0] };
          if (value === undefined) Reflect.deleteProperty(fill, field);
          else fill[field] = value;
          const key = example.fills ? 'fills' : 'order_execution_records';
          const record = { ...example, [key]: [fill, ...fills.slice(1)] };
          expect(outcome(decodeOrderRecord, record), `fill ${field} = ${String(value)}`).toEqual(
            outcome(decodeOrderRecordBySchema, record),
          );
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(5000);
  });
});

describe('the account stream, which pushes whole lists', () => {
  type Pushed = { orders: unknown } | { error: string };
  const page = (orders: unknown[]) => ({ data: [{ orders }] });
  const decodeWith = (body: unknown, memo?: OrderListMemo): Pushed => {
    try {
      return {
        orders: serialize(decodeOrderPage(body, where, { page: 1, limit: 250 }, memo).orders),
      };
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      return { error: error.message };
    }
  };

  it('decodes each push to what a fresh decoding gives, whatever changed since the last', () => {
    // A few records pushed again and again; between pushes some of their fields (or of their
    // first fill) change, to valid or broken values, or go, or appear.
    const edit = fc.tuple(
      fc.nat(3),
      fc.boolean(),
      fc.constantFrom(...FIELDS),
      fc.constantFrom(...EXECUTION_FIELDS),
      fc.oneof(hostile, decimal, time, status, fc.constant(undefined)),
    );
    fc.assert(
      fc.property(
        fc.array(validRecord, { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(edit, { maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        (records, pushes) => {
          const memo = new OrderListMemo();
          const pool: Array<Record<string, unknown>> = structuredClone(records);
          for (const edits of pushes) {
            for (const [slot, inFill, field, fillField, value] of edits) {
              const record = pool[slot % pool.length] as Record<string, unknown>;
              const fills = record.order_execution_records ?? record.fills;
              const fill = Array.isArray(fills) ? (fills[0] as unknown) : undefined;
              const [target, key] =
                inFill && typeof fill === 'object' && fill !== null
                  ? [fill as Record<string, unknown>, fillField]
                  : [record, field];
              if (value === undefined) Reflect.deleteProperty(target, key);
              else target[key] = structuredClone(value);
            }
            // As a new message parses it: new objects, equal or not to the last push's.
            const body = JSON.parse(JSON.stringify(page(pool))) as unknown;
            expect(decodeWith(body, memo)).toEqual(decodeWith(body));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the same order again for a record that did not change, and decodes one that did', () => {
    const memo = new OrderListMemo();
    const first = decodeOrderPage(
      page([seedFixture(), legacyOpenRecord()]),
      where,
      { page: 1, limit: 250 },
      memo,
    ).orders;
    const changed = { ...legacyOpenRecord(), executed_qty: '30.5' };
    const second = decodeOrderPage(
      page([seedFixture(), changed]),
      where,
      { page: 1, limit: 250 },
      memo,
    ).orders;
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]?.executedBaseQty.toFixed()).toBe('30.5');
  });
});
