import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { Market, Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { ADA_USDM, orderOf } from '../trade/fake-api';
import OrderDetail from './OrderDetail.svelte';

/** The detail of `record`, or of the order `orderId` while its record is still being read. */
const show = (record: Serialized<Order> | { id: string }) =>
  render(OrderDetail, {
    props: {
      orderId: record.id,
      order: 'side' in record ? Order.parse(record) : null,
      markets: [Market.parse(ADA_USDM)],
      loading: !('side' in record),
      error: null,
      cancelling: false,
      canCancel: null,
      onclose: () => undefined,
      oncancel: () => undefined,
    },
  });

/** What the detail says beside one field's name. */
const field = (name: string) =>
  screen.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent?.trim();

describe('an order’s terms as the detail names them', () => {
  it('a market order’s slippage limit, with its worst price', () => {
    show(
      orderOf({
        type: 'market',
        price: null,
        slippageBp: 150,
        marketOrderLimitPrice: '0.6621',
      }),
    );
    expect(field('Slippage limit')).toBe('150 bp (1.5%)');
    expect(field('Worst price (market order)')).toBe('0.6621 USDM');
  });

  it('a market order sent without a limit reads as any price, not as a limit of 0', () => {
    show(orderOf({ type: 'market', price: null, slippageBp: 0, marketOrderLimitPrice: null }));
    expect(field('Slippage limit')).toBe('None: any price');
  });

  it('a limit order has no slippage limit, whatever the exchange’s field holds', () => {
    show(orderOf({ type: 'limit', price: '0.6500', slippageBp: 0 }));
    expect(field('Slippage limit')).toBe('None (a limit order)');
    expect(field('Limit price')).toBe('0.6500 USDM');
  });
});

describe('the heading', () => {
  it('names the order asked for while its record is read, not a bare "Order"', () => {
    show({ id: 'order-00019997' });
    expect(screen.getByRole('heading', { level: 2 }).textContent?.trim()).toBe(
      'Order order-00019997',
    );
    expect(screen.getByRole('status').textContent).toMatch(/Reading the order/);
  });
});
