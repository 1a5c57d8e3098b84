import { request } from 'undici';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { sandboxAdminHeaders } from './sandbox-admin';

/** What `POST /sandbox/accounts` answers: the new account's API key and id. */
const OpenedAccount = z.object({
  api_key: z.string().regex(/^[0-9a-f]{32}$/),
  account_id: z.string().uuid(),
});

const ExchangeErrorBody = z.object({ error: z.string(), code: z.number().int() });

export interface SandboxAccount {
  apiKey: string;
  accountId: string;
}

const unreachable = (cause: unknown) =>
  new AppError(
    ErrorCode.Network,
    'Countersign could not reach the built-in practice exchange. Restart the app and try again.',
    { cause },
  );

/**
 * Opens an account on the embedded sandbox for a wallet: its address and the key hash of its
 * operation key, so the exchange accepts orders signed by that key and nothing else.
 */
export const openSandboxAccount = async (
  sandboxUrl: string,
  wallet: { address: string; operationKeyHash: string },
  timeoutMs = 10_000,
): Promise<SandboxAccount> => {
  let status: number;
  let body: unknown;
  try {
    const response = await request(new URL('/sandbox/accounts', sandboxUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sandboxAdminHeaders(sandboxUrl) },
      body: JSON.stringify({
        address: wallet.address,
        operation_key_hash: wallet.operationKeyHash,
      }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    body = await response.body.json().catch(() => null);
  } catch (error) {
    throw unreachable(error);
  }
  if (status >= 200 && status < 300) {
    const opened = OpenedAccount.safeParse(body);
    if (opened.success) return { apiKey: opened.data.api_key, accountId: opened.data.account_id };
    throw unreachable(new Error('unexpected answer to POST /sandbox/accounts'));
  }
  const refusal = ExchangeErrorBody.safeParse(body);
  throw new AppError(
    ErrorCode.Exchange,
    `The practice exchange did not open an account for this wallet (${
      refusal.success ? `${refusal.data.error}, code ${refusal.data.code}` : `HTTP ${status}`
    }). Nothing was saved; try again.`,
  );
};
