import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  call,
  exited,
  readyCrypto,
  spawnSandboxProcess,
  startTestSandbox,
  tempDir,
  type OrderRecord,
} from './helpers.js';
import { quietSandboxArgs, sourceSandboxCommand } from '../../harness/sandbox-command';

beforeAll(readyCrypto);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Runs the CLI as a child process with plain node + the tsx loader; resolves with its URL. */
function spawnSandbox(dataDir: string) {
  return spawnSandboxProcess(sourceSandboxCommand, quietSandboxArgs(dataDir)).then((s) => {
    children.push(s.child);
    return s;
  });
}

/** Everything a trader can see, for comparing states across restarts. */
async function snapshot(url: string, traders: Trader[]) {
  const views = [];
  for (const t of traders) {
    if (t.url !== url) Object.assign(t, { url });
    const orders = await t.request<{ data: { orders: OrderRecord[] }[] }>(
      'GET',
      '/accounts/order-records?status=orderHistory&limit=250',
    );
    const open = await t.request<{ data: { orders: OrderRecord[] }[] }>(
      'GET',
      '/accounts/order-records?status=open&limit=250',
    );
    views.push({
      balances: await t.balances(),
      utxos: await t.utxos(),
      orders: [...(orders.body.data[0]?.orders ?? []), ...(open.body.data[0]?.orders ?? [])],
    });
  }
  const depth = await call<{ bids: unknown; asks: unknown }>(
    url,
    'GET',
    '/market/depth?symbol=ADAUSDM',
  );
  const totals = await call(url, 'GET', '/sandbox/totals');
  return { views, depth: [depth.body.bids, depth.body.asks], totals: totals.body };
}

describe('restart', () => {
  it('replays to exactly the acknowledged state, and a build made before the restart still submits', async () => {
    const dataDir = tempDir();
    let sandbox = await startTestSandbox({ dataDir });
    const maker = await new Trader(sandbox.url).register();
    const taker = await new Trader(sandbox.url).register();
    await maker.fund(500, 500);
    await taker.fund(500, 500);
    const resting = await maker.place({
      symbol: 'ADAUSDM',
      side: 'sell',
      type: 'limit',
      quantity: 100,
      price: 0.66,
    });
    await maker.place({ symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 50, price: 0.6 });
    await taker.place({ symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 40, price: 0.7 });
    await maker.cancel(resting.body.order.id);
    const w = await taker.request<{ tx_hex: string }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [{ unit: 'lovelace', quantity: '10000000' }],
    });
    await taker.request('POST', '/accounts/withdrawal/submit', {
      signed_tx: taker.wallet.sign(w.body.tx_hex),
    });
    const pending = await taker.request<{ order_id: string; tx_hex: string }>(
      'POST',
      '/order/build',
      { symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 10, price: 0.61 },
    );
    const before = await snapshot(sandbox.url, [maker, taker]);
    await sandbox.close();

    sandbox = await startTestSandbox({ dataDir });
    try {
      const after = await snapshot(sandbox.url, [maker, taker]);
      expect(after).toEqual(before);
      const totals = after.totals as { minted: unknown; held: unknown };
      expect(totals.held).toEqual(totals.minted);
      const submitted = await taker.request<{ order: OrderRecord }>('POST', '/order/submit', {
        order_id: pending.body.order_id,
        signed_tx: taker.operation.sign(pending.body.tx_hex),
      });
      expect(submitted.status).toBe(200);
      expect(submitted.body.order.status).toBe('open');
    } finally {
      await sandbox.close();
    }
  });
});

describe('reset', () => {
  it('starts the journal afresh, keeps ids unique, and survives a restart', async () => {
    const dataDir = tempDir();
    let sandbox = await startTestSandbox({ dataDir });
    const before = await new Trader(sandbox.url).register();
    await before.fund(100, 100);
    await before.place({ symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 10, price: 0.6 });
    expect((await call(sandbox.url, 'POST', '/sandbox/reset')).status).toBe(200);
    // The journal starts afresh after a snapshot of the empty exchange: nothing of before is kept.
    const lines = readFileSync(join(dataDir, 'journal.ndjson'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(['snapshot']);
    expect(readFileSync(join(dataDir, 'snapshot.json'), 'utf8')).not.toContain(before.address);
    const after = await new Trader(sandbox.url).register();
    expect(after.accountId).not.toBe(before.accountId);
    await after.fund(100, 0);
    const state = await snapshot(sandbox.url, [after]);
    await sandbox.close();

    sandbox = await startTestSandbox({ dataDir });
    try {
      expect(await snapshot(sandbox.url, [after])).toEqual(state);
      Object.assign(before, { url: sandbox.url });
      expect((await before.request('GET', '/accounts/balance')).status).toBe(401);
      const third = await new Trader(sandbox.url).register();
      expect([before.accountId, after.accountId]).not.toContain(third.accountId);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the CLI process', () => {
  it('prints its URL first and stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const { url, child } = await spawnSandbox(dataDir);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const t = await new Trader(url).register();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    const again = await spawnSandbox(dataDir);
    Object.assign(t, { url: again.url });
    expect((await t.request('GET', '/accounts/balance')).status).toBe(200);
  });

  it(
    'after kill -9 mid-load keeps every acknowledged change, and replays deterministically',
    { timeout: 90_000 },
    async () => {
      const dataDir = tempDir();
      const first = await spawnSandbox(dataDir);
      const traders: Trader[] = [];
      for (let i = 0; i < 4; i++) {
        const t = await new Trader(first.url).register();
        await t.fund(5000, 5000);
        traders.push(t);
      }
      const acknowledged = new Map<string, { trader: Trader; status: string }>();
      let stop = false;
      const load = traders.map(async (t, i) => {
        let n = 0;
        while (!stop) {
          n++;
          const side = (n + i) % 2 === 0 ? 'buy' : 'sell';
          try {
            const r = await t.place({
              symbol: 'ADAUSDM',
              side,
              type: 'limit',
              quantity: 10,
              price: side === 'buy' ? 0.65 : 0.64,
            });
            if (r.status === 200)
              acknowledged.set(r.body.order.id, { trader: t, status: r.body.order.status });
          } catch {
            return;
          }
        }
      });
      // Kill once the load is well under way (at least 20 orders acknowledged), mid-request.
      for (let waited = 0; acknowledged.size < 20 && waited < 30_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(load);
      await exited(first.child);
      expect(acknowledged.size).toBeGreaterThanOrEqual(20);

      const second = await spawnSandbox(dataDir);
      for (const [id, { trader }] of acknowledged) {
        Object.assign(trader, { url: second.url });
        const r = await trader.request<OrderRecord>('GET', `/account/order?id=${id}`);
        expect(r.status).toBe(200);
      }
      const state = await snapshot(second.url, traders);
      const totals = state.totals as { minted: unknown; held: unknown };
      expect(totals.held).toEqual(totals.minted);
      second.child.kill('SIGKILL');
      await exited(second.child);

      const third = await spawnSandbox(dataDir);
      expect(await snapshot(third.url, traders)).toEqual(state);
    },
  );
});
