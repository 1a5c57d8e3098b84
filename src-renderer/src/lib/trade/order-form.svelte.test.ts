import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderPreview, OrderRequest } from '../../../../src-shared/contract';
import { Depth, Market } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { Money } from '../../../../src-shared/money';
import type { Result } from '../../../../src-shared/result';
import { bookView } from './book';
import { ADA_USDM, depthOf } from './fake-api';
import { OrderForm, type OrderFormDeps } from './order-form.svelte';

const market = Market.parse(ADA_USDM);
const book = bookView(Depth.parse(depthOf()));

const previewOf = (problems: string[] = []): Serialized<OrderPreview> => ({
  lock: { asset: 'USDM', amount: '65' },
  fee: { asset: 'ADA', amount: '0.1' },
  free: { asset: 'USDM', amount: '1000' },
  value: { asset: 'USDM', amount: '65' },
  worstPrice: null,
  problems,
});

const setup = (overrides: Partial<OrderFormDeps> = {}) => {
  const preview = vi.fn(async (_r: OrderRequest): Promise<Result<Serialized<OrderPreview>>> => ({
    ok: true,
    value: previewOf(),
  }));
  const form = new OrderForm({
    market: () => market,
    book: () => book,
    free: (asset) => (asset === 'USDM' ? new Money(1000) : new Money(500)),
    limits: () => null,
    openOrders: () => 0,
    preview,
    ...overrides,
  });
  return { form, preview };
};

describe('OrderForm', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('builds the request main receives from what the trader typed', () => {
    const { form } = setup();
    form.price = '0,65';
    form.quantity = '100';
    form.postOnly = true;
    expect(form.request).toEqual({
      symbol: 'ADAUSDM',
      side: 'buy',
      quantity: '100',
      type: 'limit',
      price: '0.65',
      postOnly: true,
    });
    form.kind = 'market';
    form.slippage = '0.5';
    expect(form.request).toEqual({
      symbol: 'ADAUSDM',
      side: 'buy',
      quantity: '100',
      type: 'market',
      slippageBp: 50,
    });
    form.limitSlippage = false;
    expect(form.request).not.toHaveProperty('slippageBp');
  });

  it('shows a message under the field as soon as it reads wrong, and empty ones only on send', async () => {
    const { form } = setup();
    expect(form.fieldMessages).toEqual({ price: null, quantity: null, slippage: null });
    form.price = '0.65123';
    expect(form.fieldMessages.price).toBe(
      'The price takes at most 4 decimal places on this market.',
    );
    expect(await form.submit(async () => true)).toBe(false);
    expect(form.fieldMessages.quantity).toBe('Enter a quantity.');
  });

  it('shows the lock, fee and value live, then main’s preview for that same order', async () => {
    const { form, preview } = setup();
    form.price = '0.65';
    form.quantity = '100';
    expect(form.summary.source).toBe('estimate');
    expect(form.summary.lock).toEqual({ asset: 'USDM', amount: '65' });
    expect(form.summary.fee).toEqual({ asset: 'ADA', amount: '0.1' });
    form.refreshPreview();
    await vi.advanceTimersByTimeAsync(200);
    expect(preview).toHaveBeenCalledTimes(1);
    expect(form.summary.source).toBe('preview');
    form.quantity = '200';
    expect(form.summary.source).toBe('estimate');
    expect(form.summary.lock?.amount).toBe('130');
  });

  it('asks for one preview after a burst of typing, and drops a late answer', async () => {
    const { form, preview } = setup();
    form.price = '0.65';
    for (const q of ['1', '10', '100']) {
      form.quantity = q;
      form.refreshPreview();
      await vi.advanceTimersByTimeAsync(20);
    }
    await vi.advanceTimersByTimeAsync(200);
    expect(preview).toHaveBeenCalledTimes(1);
    expect(preview.mock.calls[0]?.[0].quantity).toBe('100');
  });

  it("blocks the order on Countersign's own checks before asking main", () => {
    const { form } = setup({ free: () => new Money(10) });
    form.price = '0.65';
    form.quantity = '100';
    expect(form.problems).toEqual([
      'Not enough USDM: this order locks 65.0000 USDM and 10.0000 USDM is free.',
    ]);
    expect(form.canSubmit).toBe(false);
  });

  it("blocks the order on the problems main's preview found", async () => {
    const { form } = setup({
      preview: async () => ({
        ok: true,
        value: previewOf(['The price is outside the band the exchange accepts now.']),
      }),
    });
    form.price = '0.65';
    form.quantity = '100';
    expect(form.canSubmit).toBe(true);
    form.refreshPreview(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(form.problems).toEqual(['The price is outside the band the exchange accepts now.']);
    expect(form.canSubmit).toBe(false);
  });

  it('keeps a failed preview as a note, not a block (main checks again when it builds)', async () => {
    const { form } = setup({
      preview: async () => ({
        ok: false,
        error: { code: 'LOCKED', message: 'Unlock your wallet first.' },
      }),
    });
    form.price = '0.65';
    form.quantity = '100';
    form.refreshPreview(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(form.previewError).toBe('Unlock your wallet first.');
    expect(form.canSubmit).toBe(true);
  });

  it('sizes the order from a share of the free balance', () => {
    const { form } = setup();
    expect(form.useShare(50)).toBe(
      'Enter a limit price first: the share of your balance depends on it.',
    );
    form.price = '0.5';
    expect(form.useShare(25)).toBeNull();
    expect(form.quantity).toBe('500');
    form.side = 'sell';
    expect(form.useShare(100)).toBeNull();
    expect(form.quantity).toBe('500');
  });

  it('takes a price from the book, and the size up to that level on request', () => {
    const { form } = setup();
    form.kind = 'market';
    form.usePrice(new Money('0.6526'), new Money('350.12345'));
    expect(form.kind).toBe('limit');
    expect(form.price).toBe('0.6526');
    expect(form.quantity).toBe('350.1234');
  });

  it('steps the price by one tick, starting from the best price when empty', () => {
    const { form } = setup();
    form.stepPrice(1);
    expect(form.price).toBe('0.6487');
    form.stepPrice(1);
    expect(form.price).toBe('0.6488');
    form.stepPrice(-1);
    form.stepPrice(-1);
    expect(form.price).toBe('0.6486');
  });

  it('sends once, then clears the quantity and keeps the price', async () => {
    const { form } = setup();
    form.price = '0.65';
    form.quantity = '100';
    const send = vi.fn(async () => true);
    expect(await form.submit(send)).toBe(true);
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ quantity: '100', price: '0.65' }));
    expect(form.quantity).toBe('');
    expect(form.price).toBe('0.65');
  });

  it('sends a market order with the worst price its preview showed, so main signs no worse limit', async () => {
    const { form } = setup({
      preview: async () => ({
        ok: true,
        value: { ...previewOf(), worstPrice: { asset: 'USDM', amount: '0.65325' } },
      }),
    });
    form.kind = 'market';
    form.quantity = '100';
    form.slippage = '0.5';
    form.refreshPreview();
    await vi.advanceTimersByTimeAsync(200);
    expect(form.summary.worstPrice).toEqual({ asset: 'USDM', amount: '0.65325' });
    const send = vi.fn(async (_r: OrderRequest) => true);
    expect(await form.submit(send)).toBe(true);
    expect(send).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'market', slippageBp: 50, worstPrice: '0.65325' }),
    );
    // Without a limit there is no worst price to send.
    form.quantity = '100';
    form.limitSlippage = false;
    await form.submit(send);
    expect(send.mock.calls[1]?.[0]).not.toHaveProperty('worstPrice');
  });

  it('a market order’s worst price follows the book, and the order goes with the one on screen', async () => {
    let current = $state(book);
    const preview = vi.fn(async (r: OrderRequest): Promise<Result<Serialized<OrderPreview>>> => ({
      ok: true,
      value: {
        ...previewOf(),
        // Main prices it from its own read of the book: here the same one.
        worstPrice: {
          asset: 'USDM',
          amount: (current.asks[0]?.price ?? new Money(0))
            .times(10_000 + (r.slippageBp ?? 0))
            .div(10_000)
            .toFixed(),
        },
      },
    }));
    const { form } = setup({ book: () => current, preview });
    form.kind = 'market';
    form.quantity = '50';
    form.slippage = '1';
    // Before main answers, the form works it out from the best ask it shows: 0.6513 + 1%.
    expect(form.summary.worstPrice).toEqual({ asset: 'USDM', amount: '0.657813' });
    form.refreshPreview();
    await vi.advanceTimersByTimeAsync(200);
    expect(form.summary.source).toBe('preview');
    // The ask rises: main's answer no longer stands, the worst price moves with the book, and main
    // is asked again.
    const moveTo = (ask: string, at: number) => {
      current = bookView(Depth.parse(depthOf('ADAUSDM', at, [[ask, '500']])));
      form.refreshPreview();
    };
    moveTo('0.6590', 1_700_000_001_000);
    expect(form.currentPreview).toBeNull();
    expect(form.summary.worstPrice).toEqual({ asset: 'USDM', amount: '0.66559' });
    // However often the book moves, main is asked at most once a second; the form's figures
    // follow the book meanwhile.
    await vi.advanceTimersByTimeAsync(400);
    moveTo('0.6600', 1_700_000_001_400);
    expect(form.summary.worstPrice).toEqual({ asset: 'USDM', amount: '0.6666' });
    await vi.advanceTimersByTimeAsync(400);
    expect(preview).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(preview).toHaveBeenCalledTimes(2);
    expect(form.summary).toMatchObject({
      source: 'preview',
      worstPrice: { asset: 'USDM', amount: '0.6666' },
    });
    const send = vi.fn(async (_r: OrderRequest) => true);
    await form.submit(send);
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ worstPrice: '0.6666' }));
    // A limit order's preview does not depend on the book.
    form.kind = 'limit';
    form.price = '0.65';
    form.quantity = '50';
    const key = form.previewKey;
    current = book;
    expect(form.previewKey).toBe(key);
  });

  it('keeps main’s refusal of a market order while only the book moves', async () => {
    let current = $state(book);
    const refusal = 'Not enough free USDM: 66.1 needed, 50 free.';
    const { form } = setup({
      book: () => current,
      preview: async () => ({ ok: true, value: previewOf([refusal]) }),
    });
    form.kind = 'market';
    form.quantity = '100';
    form.refreshPreview();
    await vi.advanceTimersByTimeAsync(200);
    expect(form.problems).toEqual([refusal]);
    current = bookView(Depth.parse(depthOf('ADAUSDM', 1_700_000_001_000, [['0.6600', '500']])));
    expect(form.currentPreview).toBeNull();
    expect(form.problems).toEqual([refusal]);
    expect(form.canSubmit).toBe(false);
    // A new quantity is a new order: main's answer for the old one no longer holds.
    form.quantity = '10';
    expect(form.problems).toEqual([]);
  });

  it('keeps what was typed when the trader cancelled or it failed', async () => {
    const { form } = setup();
    form.price = '0.65';
    form.quantity = '100';
    expect(await form.submit(async () => false)).toBe(false);
    expect(form.quantity).toBe('100');
    expect(form.submitting).toBe(false);
  });
});
