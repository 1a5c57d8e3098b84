import { describe, expect, it } from 'vitest';
import { MARKETS, type Market } from '../../../src-sandbox/assets.js';
import { MatchingEngine, type PlaceOrder } from '../../../src-sandbox/engine.js';
import { SandboxError } from '../../../src-sandbox/errors.js';

const ada = MARKETS[0] as Market;
const ADA = 1_000_000n;

function setup() {
  let n = 0;
  const engine = new MatchingEngine(() => `e${n++}`);
  for (const who of ['alice', 'bob', 'carol']) {
    engine.balance(who, ada.base.unit).free = 1000n * ADA;
    engine.balance(who, ada.quote.unit).free = 1000n * ADA;
  }
  let id = 0;
  const place = (o: Partial<PlaceOrder> & Pick<PlaceOrder, 'accountId' | 'side'>) =>
    engine.placeOrder({
      id: `o${id++}`,
      market: ada,
      type: 'limit',
      quantity: 10n * ADA,
      priceTicks: 6500n,
      marketLimitTicks: null,
      slippageBp: 0,
      postOnly: false,
      commissionRateBp: 10,
      utxoId: 'x#0',
      at: id,
      ...o,
    });
  return { engine, place };
}

describe('matching engine', () => {
  it('rests a limit order and locks what it may spend (rounded up)', () => {
    const { engine, place } = setup();
    const order = place({
      accountId: 'alice',
      side: 'buy',
      quantity: 3_333_300n,
      priceTicks: 6667n,
    });
    expect(order.status).toBe('open');
    // 3.3333 ADA × 0.6667 = 2.22231111 USDM → 2.222312 locked
    expect(order.lockedQuote).toBe(2_222_312n);
    expect(engine.balance('alice', ada.quote.unit)).toEqual({
      free: 1000n * ADA - 2_222_312n,
      locked: 2_222_312n,
    });
    expect(engine.book('ADAUSDM').bids.best()?.quantity).toBe(3_333_300n);
  });

  it('fills by price, then time, at the resting price', () => {
    const { engine, place } = setup();
    const late = place({ accountId: 'alice', side: 'sell', priceTicks: 6500n });
    const early = place({ accountId: 'bob', side: 'sell', priceTicks: 6400n });
    const sameLater = place({ accountId: 'carol', side: 'sell', priceTicks: 6400n });
    const taker = place({
      accountId: 'carol',
      side: 'buy',
      quantity: 15n * ADA,
      priceTicks: 7000n,
    });
    expect(taker.executions.map((e) => [e.counterPartyOrderId, e.priceTicks, e.baseUnits])).toEqual(
      [
        [early.id, 6400n, 10n * ADA],
        [sameLater.id, 6400n, 5n * ADA],
      ],
    );
    expect(taker.status).toBe('fully_filled');
    expect(taker.lockedQuote).toBe(0n);
    expect(early.status).toBe('fully_filled');
    expect(sameLater.status).toBe('partially_filled');
    expect(late.status).toBe('open');
    // taker paid 9.6 USDM, got 15 ADA minus 10 bp
    expect(engine.fees.get('lovelace')).toBe(15_000n);
    expect(engine.fees.get(ada.quote.unit)).toBe(6_400n + 3_200n);
  });

  it('cancels a partially filled order as partially_cancelled and releases the rest', () => {
    const { engine, place } = setup();
    const maker = place({
      accountId: 'alice',
      side: 'buy',
      quantity: 20n * ADA,
      priceTicks: 6000n,
    });
    place({ accountId: 'bob', side: 'sell', quantity: 5n * ADA, priceTicks: 5000n });
    expect(maker.status).toBe('partially_filled');
    engine.cancelOrder(maker.id, 99);
    expect(maker.status).toBe('partially_cancelled');
    expect(maker.lockedQuote).toBe(0n);
    expect(engine.balance('alice', ada.quote.unit)).toEqual({
      free: 1000n * ADA - 3n * ADA,
      locked: 0n,
    });
    expect(engine.book('ADAUSDM').bids.best()).toBeUndefined();
    expect(() => engine.cancelOrder(maker.id, 100)).toThrow(SandboxError);
  });

  it('a market order without limit buys while the balance lasts; with a limit stops at it', () => {
    const { engine, place } = setup();
    engine.balance('carol', ada.quote.unit).free = 5n * ADA;
    place({ accountId: 'alice', side: 'sell', quantity: 100n * ADA, priceTicks: 5000n });
    const all = place({
      accountId: 'carol',
      side: 'buy',
      type: 'market',
      quantity: 50n * ADA,
      priceTicks: 0n,
    });
    expect(all.executedBase).toBe(10n * ADA);
    expect(all.status).toBe('partially_cancelled');
    expect(engine.balance('carol', ada.quote.unit)).toEqual({ free: 0n, locked: 0n });

    place({ accountId: 'bob', side: 'sell', quantity: 10n * ADA, priceTicks: 6000n });
    const limited = place({
      accountId: 'alice',
      side: 'buy',
      type: 'market',
      quantity: 200n * ADA,
      marketLimitTicks: 5500n,
    });
    expect(limited.executedBase).toBe(90n * ADA);
    expect(limited.status).toBe('partially_cancelled');
  });

  it('a market order against an empty book fails and locks nothing', () => {
    const { engine, place } = setup();
    const order = place({ accountId: 'alice', side: 'sell', type: 'market', priceTicks: 0n });
    expect(order.status).toBe('failed');
    expect(engine.balance('alice', ada.base.unit)).toEqual({ free: 1000n * ADA, locked: 0n });
  });

  it('refuses post-only orders that would match and orders beyond the balance', () => {
    const { place } = setup();
    place({ accountId: 'alice', side: 'sell', priceTicks: 6500n });
    expect(() =>
      place({ accountId: 'bob', side: 'buy', priceTicks: 6500n, postOnly: true }),
    ).toThrow(/post-only/);
    expect(() => place({ accountId: 'bob', side: 'sell', quantity: 1001n * ADA })).toThrow(
      /insufficient/,
    );
  });

  it('self-trades keep the balance whole apart from commission', () => {
    const { engine, place } = setup();
    place({ accountId: 'alice', side: 'sell', priceTicks: 6500n });
    place({ accountId: 'alice', side: 'buy', priceTicks: 6500n });
    const base = engine.balance('alice', ada.base.unit);
    const quote = engine.balance('alice', ada.quote.unit);
    expect(base.free + base.locked + (engine.fees.get('lovelace') ?? 0n)).toBe(1000n * ADA);
    expect(quote.free + quote.locked + (engine.fees.get(ada.quote.unit) ?? 0n)).toBe(1000n * ADA);
  });
});
