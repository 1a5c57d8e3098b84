import type { ApiContext } from './context';
import { rejection } from './errors';
import { decodeOperationKey } from './wire';

/**
 * The account's operation key as the real service stores it, encrypted with the trading
 * password (`GET /accounts/operation-key`). An account without one answers 4406; an empty
 * key is the same thing said differently.
 */
export const operationKey = async (
  api: ApiContext,
  signal?: AbortSignal,
): Promise<{ encryptedOperationKey: string; operationKeyHash: string }> => {
  const action = "read the account's operation key";
  const path = '/accounts/operation-key';
  const reply = await api.http.request({
    method: 'GET',
    path,
    kind: 'read',
    action,
    headers: api.auth(action, `GET ${path}`),
    ...(signal ? { signal } : {}),
  });
  const body = reply.body;
  if (
    body === null ||
    (typeof body === 'object' &&
      !Array.isArray(body) &&
      !(body as Record<string, unknown>).encrypted_operation_key)
  ) {
    throw rejection({
      exchangeCode: 4406,
      serverText: undefined,
      httpStatus: reply.status,
      endpoint: reply.endpoint,
      action,
    });
  }
  return decodeOperationKey(body, { endpoint: reply.endpoint, action });
};
