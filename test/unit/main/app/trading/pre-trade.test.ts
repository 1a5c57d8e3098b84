import { describe, expect, it } from 'vitest';
import {
  preTrade,
  slippageToAsk,
  worstAcceptedPrice,
  type TradeContext,
} from '../../../../../src-main/app/trading/pre-trade';
import type { OrderRequest } from '../../../../../src-shared/contract';
import { Money } from '../../../../../src-shared/money';

const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';
const NIGHT = '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854';

const context = (changes: Partial<TradeContext> = {}): TradeContext => ({
  market: {
    symbol: 'ADAUSDM',
    base: 'ADA',
    quote: 'USDM',
    baseUnit: 'lovelace',
    quoteUnit: USDM,
    priceDecimals: 4,
    quantityDecimals: 4,
    minOrderAdaEquivalent: new Money(5),
    commissionRateBp: 10,
  },
  balances: [
    { asset: 'ADA', unit: 'lovelace', free: new Money(1000), locked: new Money(0) },
    { asset: 'USDM', unit: USDM, free: new Money('3.2'), locked: new Money(0) },
  ],
  lastPrice: new Money('0.5'),
  bestAsk: new Money('0.51'),
  bestBid: new Money('0.49'),
  adaPrice: null,
  openOrders: 0,
  priceBandBp: 5000,
  maxOpenOrdersExchange: 100,
  limits: { maxOrderValue: null, maxOpenOrders: null },
  ...changes,
});

const limit = (changes: Partial<OrderRequest> = {}): OrderRequest => ({
  symbol: 'ADAUSDM',
  side: 'sell',
  type: 'limit',
  quantity: '100',
  price: '0.5',
  ...changes,
});

describe('pre-trade checks', () => {
  it('a sell within balance passes, locks the quantity and shows the fee in USDM', () => {
    const result = preTrade(limit(), context());
    expect(result.problems).toEqual([]);
    expect(result.lock).toEqual({ asset: 'ADA', amount: '100' });
    expect(result.fee).toEqual({ asset: 'USDM', amount: '0.05' });
    expect(result.value).toEqual({ asset: 'USDM', amount: '50' });
    expect(result.free).toEqual({ asset: 'ADA', amount: '1000' });
  });

  it('a buy beyond the free quote balance says how much is needed and how much is free', () => {
    const result = preTrade(limit({ side: 'buy', quantity: '25' }), context());
    expect(result.lock).toEqual({ asset: 'USDM', amount: '12.5' });
    expect(result.problems).toContain('Not enough free USDM: 12.50 needed, 3.20 free.');
  });

  it('refuses more decimals than the market accepts, for quantity and price', () => {
    const result = preTrade(limit({ quantity: '10.12345', price: '0.50001' }), context());
    expect(result.problems.join(' ')).toMatch(/quantity has 5 decimals.*at most 4/);
    expect(result.problems.join(' ')).toMatch(/price has 5 decimals.*at most 4/);
  });

  it('refuses an order under 5 ADA, and values a NIGHT order in ADA through the ADA price', () => {
    expect(preTrade(limit({ quantity: '4.9999' }), context()).problems.join(' ')).toMatch(
      /worth 4.99 ADA; the smallest order is 5 ADA/,
    );
    const night = context({
      market: {
        ...context().market,
        symbol: 'NIGHTUSDM',
        base: 'NIGHT',
        baseUnit: NIGHT,
      },
      balances: [{ asset: 'NIGHT', unit: NIGHT, free: new Money(1000), locked: new Money(0) }],
      adaPrice: new Money('0.5'),
      lastPrice: new Money('0.1'),
    });
    // 20 NIGHT at 0.1 = 2 USDM = 4 ADA: under the minimum; 30 NIGHT = 6 ADA: fine.
    expect(
      preTrade(limit({ symbol: 'NIGHTUSDM', quantity: '20', price: '0.1' }), night).problems.join(
        ' ',
      ),
    ).toMatch(/worth 4.00 ADA/);
    expect(
      preTrade(limit({ symbol: 'NIGHTUSDM', quantity: '30', price: '0.1' }), night).problems,
    ).toEqual([]);
  });

  it('refuses a limit price outside the band around the market', () => {
    expect(preTrade(limit({ price: '0.76' }), context()).problems.join(' ')).toMatch(
      /above the market/,
    );
    expect(preTrade(limit({ price: '0.24' }), context()).problems.join(' ')).toMatch(
      /below the market/,
    );
    expect(preTrade(limit({ price: '0.75' }), context()).problems).toEqual([]);
  });

  it("applies the trader's own limits: order value and open orders", () => {
    const limited = context({ limits: { maxOrderValue: '40', maxOpenOrders: 3 }, openOrders: 3 });
    const problems = preTrade(limit(), limited).problems.join(' ');
    expect(problems).toMatch(/worth 50.00 USDM, above your limit of 40 USDM/);
    expect(problems).toMatch(/already have 3 open orders, the most your limit in Settings allows/);
    const one = context({ limits: { maxOrderValue: null, maxOpenOrders: 1 }, openOrders: 1 });
    expect(preTrade(limit(), one).problems).toEqual([
      'You already have 1 open order, the most your limit in Settings allows. Cancel one first.',
    ]);
  });

  it('a market buy without a slippage limit locks the whole free quote balance, and needs sellers', () => {
    const buy = preTrade(
      { symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: '6' },
      context(),
    );
    expect(buy.lockIsUpperBound).toBe(true);
    expect(buy.lock.amount).toBe('3.2');
    const empty = preTrade(
      { symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: '6' },
      context({ bestAsk: null }),
    );
    expect(empty.problems.join(' ')).toMatch(/Nobody is selling ADA right now/);
  });

  it('a market buy with a slippage limit locks at most quantity × best ask × (1 + limit)', () => {
    const buy = preTrade(
      { symbol: 'ADAUSDM', side: 'buy', type: 'market', quantity: '6', slippageBp: 100 },
      context(),
    );
    // 6 × 0.51 × 1.01 = 3.0906
    expect(buy.lock.amount).toBe('3.0906');
    expect(buy.problems).toEqual([]);
  });

  it('a post-only order that would trade at once is refused before it is built', () => {
    expect(
      preTrade(
        limit({ side: 'buy', quantity: '5', price: '0.52', postOnly: true }),
        context({
          balances: [{ asset: 'USDM', unit: USDM, free: new Money(100), locked: new Money(0) }],
        }),
      ).problems.join(' '),
    ).toMatch(/post-only/i);
  });
});

describe('a market order’s slippage limit as a price', () => {
  const market = (changes: Partial<OrderRequest>): OrderRequest => ({
    symbol: 'ADAUSDM',
    side: 'buy',
    type: 'market',
    quantity: '10',
    slippageBp: 100,
    ...changes,
  });

  it('the preview shows the worst price: the best ask plus the limit for a buy, the bid less it for a sell', () => {
    expect(preTrade(market({}), context()).worstPrice).toEqual({ asset: 'USDM', amount: '0.5151' });
    expect(preTrade(market({ side: 'sell' }), context()).worstPrice).toEqual({
      asset: 'USDM',
      amount: '0.4851',
    });
    expect(preTrade(market({ slippageBp: undefined }), context()).worstPrice).toBeNull();
    expect(preTrade(limit(), context()).worstPrice).toBeNull();
  });

  it('the limit signed is the one the trader saw, unless the market has since moved in their favour', () => {
    const seen = (worstPrice: string, side: 'buy' | 'sell' = 'buy') => market({ side, worstPrice });
    // The ask rose after the preview: the trader's 0.5151 holds, not 0.53.
    expect(worstAcceptedPrice(seen('0.5151'), new Money('0.53'))?.toFixed()).toBe('0.5151');
    // It fell: the better price now.
    expect(worstAcceptedPrice(seen('0.5151'), new Money('0.50'))?.toFixed()).toBe('0.5');
    expect(worstAcceptedPrice(seen('0.4851', 'sell'), new Money('0.47'))?.toFixed()).toBe('0.4851');
    expect(worstAcceptedPrice(seen('0.4851', 'sell'), new Money('0.49'))?.toFixed()).toBe('0.49');
    // Without a preview, the book now; without a limit, any price; with nothing seen, none.
    expect(worstAcceptedPrice(market({}), new Money('0.52'))?.toFixed()).toBe('0.52');
    expect(worstAcceptedPrice(market({ slippageBp: undefined }), new Money('0.52'))).toBeNull();
    expect(worstAcceptedPrice(market({}), null)?.toFixed()).toBe('0');
  });

  it('the limit asked of the exchange keeps to the accepted price, or the trader hears the book moved past it', () => {
    const { market: rules } = context();
    const order = market({ worstPrice: '0.5151' });
    expect(slippageToAsk(order, new Money('0.5151'), new Money('0.51'), rules)).toEqual({
      ok: true,
      slippageBp: 100,
    });
    // The ask rose 0.6% after the preview: the exchange is asked for 0.4%, which its best ask
    // now turns into a limit within 0.5151.
    expect(slippageToAsk(order, new Money('0.5151'), new Money('0.5131'), rules)).toEqual({
      ok: true,
      slippageBp: 38,
    });
    expect(slippageToAsk(order, new Money('0.5151'), new Money('0.5200'), rules)).toEqual({
      ok: false,
      message:
        'The best ask has risen to 0.5200 USDM, past the worst price you accepted for this order (0.5151 USDM). Nothing was sent. Check the new worst price and send the order again.',
    });
    expect(
      slippageToAsk(market({ side: 'sell' }), new Money('0.4851'), new Money('0.48'), rules),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('The best bid has fallen to 0.4800 USDM'),
    });
    // Limit orders, orders without a limit, and an empty book: as the trader asked.
    expect(slippageToAsk(limit(), null, new Money('0.6'), rules)).toEqual({
      ok: true,
      slippageBp: undefined,
    });
    expect(slippageToAsk(market({ slippageBp: undefined }), null, new Money('0.6'), rules)).toEqual(
      { ok: true, slippageBp: undefined },
    );
    expect(slippageToAsk(order, new Money('0.5151'), null, rules)).toEqual({
      ok: true,
      slippageBp: 100,
    });
  });
});
