import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../../../src-shared/network';
import { mayPlaceOrdersWithoutDialog } from './skip-policy';

describe('placing orders without the dialog', () => {
  it('is allowed only on the sandbox, and only when the trader keeps the setting on', () => {
    expect(mayPlaceOrdersWithoutDialog(true, 'sandbox')).toBe(true);
    expect(mayPlaceOrdersWithoutDialog(false, 'sandbox')).toBe(false);
    expect(mayPlaceOrdersWithoutDialog(undefined, 'sandbox')).toBe(false);
    for (const network of NETWORKS.filter((n) => n !== 'sandbox')) {
      expect(mayPlaceOrdersWithoutDialog(true, network)).toBe(false);
    }
    expect(mayPlaceOrdersWithoutDialog(true, null)).toBe(false);
  });
});
