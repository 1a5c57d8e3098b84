import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import QrCodes from './QrCodes.svelte';

const codes = ['CS1:TX:1/3:00000000:AA', 'CS1:TX:2/3:00000000:BB', 'CS1:TX:3/3:00000000:CC'];
const shown = () => screen.getByRole('img').getAttribute('aria-label');

describe('a transaction’s QR codes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('turns through the codes for the camera, round and round', async () => {
    render(QrCodes, { codes, label: 'QR codes of the deposit’s transaction', interval: 500 });
    expect(
      screen.getByRole('figure', { name: 'QR codes of the deposit’s transaction' }),
    ).toBeTruthy();
    expect(shown()).toBe('QR code 1 of 3');
    expect(screen.getByText('Code 1 of 3')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(500);
    expect(shown()).toBe('QR code 2 of 3');
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown()).toBe('QR code 1 of 3');
  });

  it('can be paused and stepped through by hand', async () => {
    render(QrCodes, { codes, label: 'Codes', interval: 500 });
    await fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(shown()).toBe('QR code 1 of 3');
    await fireEvent.click(screen.getByRole('button', { name: 'Previous code' }));
    expect(shown()).toBe('QR code 3 of 3');
    await fireEvent.click(screen.getByRole('button', { name: 'Next code' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Next code' }));
    expect(shown()).toBe('QR code 2 of 3');
    await fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(shown()).toBe('QR code 3 of 3');
  });

  it('shows a single code still, with nothing to turn', () => {
    render(QrCodes, { codes: ['CS1:WIT:1/1:00000000:AA'], label: 'QR code of the signature' });
    expect(shown()).toBe('QR code');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
