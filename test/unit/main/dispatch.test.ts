import { describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../../src-main/dispatch';
import { silentLogger } from '../../../src-main/log';
import { ErrorCode } from '../../../src-shared/errors';
import { partialHandlers } from './partial-handlers';

const handlers = {
  app: {
    info: vi.fn(async () => ({
      name: 'Countersign',
      version: '1',
      network: 'sandbox' as const,
      dataDir: '/d',
      runtime: 'harness' as const,
    })),
  },
  session: { status: vi.fn(async () => ({ state: 'no-wallet' as const, walletName: null })) },
};

describe('the dispatcher', () => {
  const dispatch = createDispatcher(partialHandlers(handlers), silentLogger);

  it.each([
    'app:missing',
    'nope:info',
    'app',
    'app:info:extra',
    '__proto__:toString',
    'app:constructor',
    'app:hasOwnProperty',
    'constructor:name',
    '',
  ])('answers an unknown operation "%s" without calling anything', async (channel) => {
    await expect(dispatch(channel, undefined)).resolves.toEqual({
      ok: false,
      error: { code: ErrorCode.UnknownOperation, message: expect.any(String) },
    });
  });

  it('reaches the handler with the parsed request', async () => {
    await expect(dispatch('session:status', undefined)).resolves.toEqual({
      ok: true,
      value: { state: 'no-wallet', walletName: null },
    });
  });

  it('turns a non-Error throw into an internal error too', async () => {
    handlers.session.status.mockImplementationOnce(() => {
      throw 'a string';
    });
    const result = await dispatch('session:status', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.Internal } });
  });
});
