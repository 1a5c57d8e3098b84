import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxChain } from '../../../../src-main/chain';
import { ErrorCode } from '../../../../src-shared/errors';
import { SandboxAdmin, openSandboxAccount } from '../../../../src-main/exchange';
import { json, startFakeServer, type FakeServer } from '../../../fixtures/exchange/fake-server';
import { WALLET, expectedUtxos } from '../../../fixtures/exchange/chain';

/**
 * The sandbox's admin calls carry the token the sandbox announced, and nothing else reaches
 * them without it; a sandbox that refuses says so in words.
 */

const TOKEN = 'c0ffee'.repeat(8);
const ACCOUNT = {
  api_key: '0123456789abcdef0123456789abcdef',
  account_id: '3c1e9b7a-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
};

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer((req, res) => {
    if (req.headers['x-sandbox-token'] !== TOKEN) {
      return json(res, 401, { error: 'the sandbox admin token is missing or wrong', code: 4010 });
    }
    if (req.path === '/sandbox/accounts') return json(res, 200, ACCOUNT);
    if (req.path === '/sandbox/utxos') return json(res, 200, expectedUtxos());
    if (req.path === '/sandbox/faucet') return json(res, 200, expectedUtxos()[0]);
    if (req.path === '/sandbox/reset') return json(res, 200, {});
    json(res, 400, { error: 'invalid request data', code: 4000 });
  });
});
afterAll(() => server.close());

describe('the sandbox admin client', () => {
  it('sends the admin token on every call', async () => {
    const admin = new SandboxAdmin({ baseUrl: server.url, adminToken: TOKEN });
    expect(await admin.openAccount({ address: WALLET, operationKeyHash: 'ab'.repeat(28) })).toEqual(
      {
        apiKey: ACCOUNT.api_key,
        accountId: ACCOUNT.account_id,
      },
    );
    expect(await admin.utxos(WALLET)).toEqual(expectedUtxos());
    expect(await admin.faucet(WALLET, [{ unit: 'lovelace', quantity: 5_000_000n }])).toEqual(
      expectedUtxos()[0],
    );
    await admin.reset();
    await admin.close();
    expect(server.requests.every((r) => r.headers['x-sandbox-token'] === TOKEN)).toBe(true);
    expect(JSON.parse(server.hits('/sandbox/accounts')[0]?.body ?? '')).toEqual({
      address: WALLET,
      operation_key_hash: 'ab'.repeat(28),
    });
    expect(JSON.parse(server.hits('/sandbox/faucet')[0]?.body ?? '')).toEqual({
      address: WALLET,
      amount: [{ unit: 'lovelace', quantity: '5000000' }],
    });
  });

  it("keeps the wallet service's call working, with the token as a trailing argument", async () => {
    const wallet = { address: WALLET, operationKeyHash: 'ab'.repeat(28) };
    expect(await openSandboxAccount(server.url, wallet, 5_000, TOKEN)).toEqual({
      apiKey: ACCOUNT.api_key,
      accountId: ACCOUNT.account_id,
    });
    await expect(openSandboxAccount(server.url, wallet)).rejects.toMatchObject({
      code: ErrorCode.Exchange,
      exchangeCode: 4010,
    });
  });

  it('the sandbox chain reads coins with the token, and follows a restarted sandbox', async () => {
    let target: { baseUrl: string; adminToken?: string } = {
      baseUrl: server.url,
      adminToken: TOKEN,
    };
    const chain = new SandboxChain(async () => target);
    expect(await chain.utxosAt(WALLET)).toEqual(expectedUtxos());
    target = { baseUrl: server.url };
    await expect(chain.utxosAt(WALLET)).rejects.toMatchObject({ exchangeCode: 4010 });
    await chain.close();
  });
});
