import { describe, expect, it, vi } from 'vitest';
import { watchActivity } from './activity';

describe('watchActivity', () => {
  it('pings on a click or a key, at most once per interval, and not on mere movement', () => {
    const target = new EventTarget();
    const ping = vi.fn();
    let clock = 1_000;
    const stop = watchActivity(target, ping, { throttleMs: 30_000, now: () => clock });

    target.dispatchEvent(new Event('pointermove'));
    expect(ping).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('pointerdown'));
    target.dispatchEvent(new Event('keydown'));
    expect(ping).toHaveBeenCalledTimes(1);
    clock += 29_999;
    target.dispatchEvent(new Event('wheel'));
    expect(ping).toHaveBeenCalledTimes(1);
    clock += 1;
    target.dispatchEvent(new Event('keydown'));
    expect(ping).toHaveBeenCalledTimes(2);

    stop();
    clock += 60_000;
    target.dispatchEvent(new Event('pointerdown'));
    expect(ping).toHaveBeenCalledTimes(2);
  });
});
