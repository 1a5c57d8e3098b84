import { describe, expect, it } from 'vitest';
import { NetworkForm } from './network-form.svelte';

describe('NetworkForm', () => {
  it('gives a fixed network as it is', () => {
    const form = new NetworkForm({ name: 'sandbox' });
    form.name = 'production';
    expect(form.choice).toEqual({ name: 'production' });
    expect(form.differsFrom({ name: 'sandbox' })).toBe(true);
    expect(form.differsFrom({ name: 'production' })).toBe(false);
  });

  it('needs a safe address for a custom exchange, and says why one is refused', () => {
    const form = new NetworkForm({ name: 'sandbox' });
    form.name = 'custom';
    expect(form.choice).toBeNull();
    expect(form.baseUrlProblem).toContain('Type the address');
    form.baseUrl = 'http://exchange.example.com';
    expect(form.baseUrlProblem).toContain('would send your API key in the clear');
    form.baseUrl = 'http://127.0.0.1:8080/';
    expect(form.baseUrlProblem).toBeNull();
    form.streamUrl = 'https://stream.example.com';
    expect(form.streamUrlProblem).toContain('wss');
    expect(form.choice).toBeNull();
    form.streamUrl = 'wss://stream.example.com';
    form.networkId = 1;
    expect(form.choice).toEqual({
      name: 'custom',
      baseUrl: 'http://127.0.0.1:8080',
      streamUrl: 'wss://stream.example.com',
      networkId: 1,
    });
  });

  it('starts from the custom network in use', () => {
    const current = {
      name: 'custom' as const,
      baseUrl: 'https://x.example',
      networkId: 0 as const,
    };
    const form = new NetworkForm(current);
    expect(form.baseUrl).toBe('https://x.example');
    expect(form.differsFrom(current)).toBe(false);
  });
});
