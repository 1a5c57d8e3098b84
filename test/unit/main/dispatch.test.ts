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
  session: {
    status: vi.fn(async () => ({ state: 'no-wallet' as const, walletName: null })),
    unlock: vi.fn(async (request: unknown) => ({
      state: 'locked' as const,
      walletName: JSON.stringify(request),
    })),
  },
  orders: {
    list: vi.fn(async (_request: unknown) => ({
      orders: [],
      page: 1,
      limit: 50,
      totalCount: 0,
      totalPages: 0,
    })),
  },
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

  it.each([
    ['ENOSPC', /the disk is full\. Free some space on the disk, then try again\./],
    ['EACCES', /not allowed to write to its data folder\. Check that your user account/],
    ['EROFS', /read-only/],
  ])(
    'tells the trader in words what a refused disk write (%s) means and what to do',
    async (code, words) => {
      handlers.session.status.mockImplementationOnce(async () => {
        throw Object.assign(
          new Error(`${code}: refused, open '/home/x/.config/app/settings.json'`),
          {
            code,
            path: '/home/x/.config/app/settings.json',
          },
        );
      });
      const result = await dispatch('session:status', undefined);
      expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.Internal } });
      const message = result.ok ? '' : result.error.message;
      expect(message).toMatch(/^Countersign could not save its data on this computer: /);
      expect(message).toMatch(words);
      expect(message).not.toMatch(/ENOSPC|EACCES|EROFS|\/home\//);
    },
  );

  it('gives the handler the parsed request, never the raw payload', async () => {
    const raw = { password: 'a password', isAdmin: true, __proto__: { polluted: true } };
    await dispatch('session:unlock', raw);
    const [received] = handlers.session.unlock.mock.calls.at(-1) ?? [];
    // Unknown fields are stripped, and the object is the schema's, not the caller's.
    expect(received).toEqual({ password: 'a password' });
    expect(Object.keys(received as object)).toEqual(['password']);
    expect(received).not.toBe(raw);
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);

    // Defaults are filled in by the schema: what the handler sees is its output.
    await dispatch('orders:list', { view: 'open', extra: 'x' });
    expect(handlers.orders.list.mock.calls.at(-1)?.[0]).toEqual({
      view: 'open',
      page: 1,
      limit: 50,
    });
  });

  it('refuses a payload that does not match, without calling the handler', async () => {
    handlers.session.unlock.mockClear();
    for (const payload of [undefined, null, 'text', { password: '' }, { password: 42 }, []]) {
      await expect(dispatch('session:unlock', payload)).resolves.toMatchObject({
        ok: false,
        error: { code: ErrorCode.InvalidInput },
      });
    }
    expect(handlers.session.unlock).not.toHaveBeenCalled();
  });
});
