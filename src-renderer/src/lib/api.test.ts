import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../src-shared/errors';
import { api, MAIN_LOST_MESSAGE, onMainConnection, unwrap, ApiError } from './api';
import { FakeMain, mainError } from './testing/fake-main';

afterEach(() => {
  Object.defineProperty(window, 'api', { value: undefined, configurable: true, writable: true });
});

describe('api()', () => {
  it('passes calls through to window.api and says main answered', async () => {
    const main = new FakeMain({ 'session:touch': () => null }).install();
    const heard = vi.fn();
    const stop = onMainConnection(heard);
    expect(await api().session.touch()).toEqual({ ok: true, value: null });
    expect(main.callsTo('session:touch')).toHaveLength(1);
    expect(heard).toHaveBeenLastCalledWith(null);
    stop();
  });

  it('reports main as lost when the sender is refused, with main’s words', async () => {
    new FakeMain({
      'app:info': () => {
        throw mainError(ErrorCode.ForbiddenSender, 'Open the address the harness printed.');
      },
    }).install();
    const heard = vi.fn();
    const stop = onMainConnection(heard);
    await api().app.info();
    expect(heard).toHaveBeenLastCalledWith('Open the address the harness printed.');
    stop();
  });

  it('turns a call that throws into a failure a person can read, and reports main lost', async () => {
    const broken = new FakeMain().install();
    vi.spyOn(broken.api.session, 'status').mockRejectedValue(new Error('channel closed'));
    const heard = vi.fn();
    const stop = onMainConnection(heard);
    const result = await api().session.status();
    expect(result).toEqual({
      ok: false,
      error: { code: ErrorCode.Internal, message: MAIN_LOST_MESSAGE },
    });
    expect(heard).toHaveBeenLastCalledWith(MAIN_LOST_MESSAGE);
    stop();
  });

  it('answers every call with what to do when the page has no window.api at all', async () => {
    const heard = vi.fn();
    const stop = onMainConnection(heard);
    const result = await api().app.info();
    expect(result.ok).toBe(false);
    expect(heard.mock.calls[0]?.[0]).toContain('Open it from the app');
    stop();
  });

  it('hands events through untouched', () => {
    const main = new FakeMain().install();
    const listener = vi.fn();
    const stop = api().on('session:changed', listener);
    main.emit('session:changed', { state: 'locked', walletName: 'Main' });
    expect(listener).toHaveBeenCalledWith({ state: 'locked', walletName: 'Main' });
    stop();
    expect(main.listenerCount('session:changed')).toBe(0);
  });
});

describe('unwrap', () => {
  it('throws the user-facing error a failure carries', async () => {
    await expect(
      unwrap(
        Promise.resolve({ ok: false, error: { code: ErrorCode.Locked, message: 'Unlock first.' } }),
      ),
    ).rejects.toEqual(new ApiError({ code: ErrorCode.Locked, message: 'Unlock first.' }));
  });
});
