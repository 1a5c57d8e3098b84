import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseHostArgs, watchParent } from '../../../../src-main/exchange/sandbox-host-run';

afterEach(() => {
  vi.useRealTimers();
});

describe('the host of the sandbox in a utility process', () => {
  it('reads the app, the program and the arguments meant for the program', () => {
    expect(
      parseHostArgs([
        '--parent-pid',
        '4242',
        '--program',
        '/app/out/main/sandbox.js',
        '--',
        '--port',
        '0',
        '--data-dir',
        '/data/sandbox',
      ]),
    ).toEqual({
      parentPid: 4242,
      program: '/app/out/main/sandbox.js',
      programArgs: ['--port', '0', '--data-dir', '/data/sandbox'],
    });
  });

  it.each([
    [['--program', 'x.js']],
    [['--parent-pid', 'abc', '--program', 'x.js']],
    [['--parent-pid', '0', '--program', 'x.js']],
    [['--parent-pid', '12']],
    [['--parent-pid', '12', '--program', 'x.js', '--unknown']],
  ])('refuses %j', (argv) => {
    expect(() => parseHostArgs(argv)).toThrow();
  });

  it('notices once that the app is gone, and not before', () => {
    vi.useFakeTimers();
    let running = true;
    const onGone = vi.fn();
    watchParent(77, onGone, { intervalMs: 100, isRunning: () => running, currentParent: () => 77 });
    vi.advanceTimersByTime(1_000);
    expect(onGone).not.toHaveBeenCalled();
    running = false;
    vi.advanceTimersByTime(100);
    vi.advanceTimersByTime(1_000);
    expect(onGone).toHaveBeenCalledTimes(1);
  });

  it('notices when it was handed to another parent, even if the id is reused', () => {
    vi.useFakeTimers();
    let parent = 500;
    const onGone = vi.fn();
    watchParent(77, onGone, {
      intervalMs: 100,
      isRunning: () => true,
      currentParent: () => parent,
    });
    vi.advanceTimersByTime(300);
    expect(onGone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(100);
    expect(onGone).toHaveBeenCalledTimes(1);
  });
});
