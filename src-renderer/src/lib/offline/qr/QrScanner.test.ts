import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import QrScanner from './QrScanner.svelte';

const refusing = (name: string) => ({
  getUserMedia: vi.fn(async () => {
    throw new DOMException('camera', name);
  }),
});

describe('scanning QR codes with the camera', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    [
      'NotAllowedError',
      /may not use the camera\. Allow it for Countersign .* or use a file instead\./,
    ],
    ['NotFoundError', /^No camera was found\. Connect one and try again, or use a file instead\.$/],
    ['NotReadableError', /another program may be using it\. Close that program and try again/],
    ['TypeError', /^The camera could not be started\. Try again, or use a file instead\.$/],
  ])('says what to do when the camera refuses (%s), and can try again', async (name, words) => {
    const devices = refusing(name);
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: devices });
    render(QrScanner, {
      expected: ['WIT'],
      advice: 'Show the signature.',
      start: 'Scan the signature’s QR code',
      onscanned: () => undefined,
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Scan the signature’s QR code' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(words);
    // Video only, never the microphone.
    expect(devices.getUserMedia).toHaveBeenCalledWith(
      expect.objectContaining({ audio: false, video: expect.any(Object) }),
    );
    const again = screen.getByRole('button', { name: 'Scan the signature’s QR code' });
    expect((again as HTMLButtonElement).disabled).toBe(false);
  });
});
