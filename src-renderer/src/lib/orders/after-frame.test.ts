import { describe, expect, it } from 'vitest';
import { afterFrame } from './after-frame';

const frame = () => new Promise<void>((done) => requestAnimationFrame(() => done()));
const task = () => new Promise<void>((done) => setTimeout(done, 0));

describe('afterFrame', () => {
  it('runs after the frame that comes next, not among its callbacks', async () => {
    const order: string[] = [];
    afterFrame(() => order.push('after'));
    requestAnimationFrame(() => order.push('frame'));
    await frame();
    // The frame's own callbacks (its style and layout) come first; ours after them.
    expect(order[0]).toBe('frame');
    await task();
    await task();
    expect(order).toEqual(['frame', 'after']);
  });

  it('runs each in the order asked, once', async () => {
    const order: number[] = [];
    for (let k = 0; k < 3; k++) afterFrame(() => order.push(k));
    for (let k = 0; k < 4; k++) {
      await frame();
      await task();
    }
    expect(order).toEqual([0, 1, 2]);
  });

  it('runs nothing once stopped, before or after its frame', async () => {
    const ran: string[] = [];
    const early = afterFrame(() => ran.push('early'));
    early();
    const late = afterFrame(() => ran.push('late'));
    requestAnimationFrame(() => late());
    afterFrame(() => ran.push('kept'));
    for (let k = 0; k < 3; k++) {
      await frame();
      await task();
    }
    expect(ran).toEqual(['kept']);
  });
});
