import { describe, expect, it } from 'vitest';
import { Navigation } from './navigation.svelte';

describe('Navigation', () => {
  it('starts on Trade, or where the address says', () => {
    expect(new Navigation({ hash: '' }).current).toBe('trade');
    expect(new Navigation({ hash: '#/settings' }).current).toBe('settings');
    expect(new Navigation({ hash: '#/nowhere' }).current).toBe('trade');
  });

  it('keeps the address in step so a reload returns to the same place', () => {
    const location = { hash: '' };
    const navigation = new Navigation(location);
    navigation.go('orders');
    expect(navigation.current).toBe('orders');
    expect(location.hash).toBe('/orders');
    location.hash = '#/funds';
    navigation.syncFromLocation();
    expect(navigation.current).toBe('funds');
  });
});
