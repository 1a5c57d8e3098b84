import type { ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quietSandboxArgs, sourceSandboxCommand } from '../../harness/sandbox-command';
import {
  Trader,
  USDM_UNIT,
  call,
  readyCrypto,
  spawnSandboxProcess,
  startTestSandbox,
  tempDir,
  txId,
  type OrderRecord,
  type TestSandbox,
} from './helpers.js';

/** Issue 13's principles for the sandbox, each as a check that fails without its protection. */

beforeAll(readyCrypto);

const running: TestSandbox[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox(options);
  running.push(sandbox);
  return sandbox;
}

const limit = (price: number, quantity = 10) => ({
  symbol: 'ADAUSDM',
  side: 'buy',
  type: 'limit',
  quantity,
  price,
});

describe('one UTxO, one spend (4301)', () => {
  it('of several order builds spending the account UTxO, submitted at once, exactly one is taken', async () => {
    const sandbox = await start();
    const t = await new Trader(sandbox.url).register();
    await t.fund(500, 500);
    const builds = [];
    for (let i = 0; i < 8; i++) {
      const b = await t.request<{ order_id: string; tx_hex: string }>(
        'POST',
        '/order/build',
        limit(0.5 + i / 1000),
      );
      expect(b.status).toBe(200);
      builds.push(b.body);
    }
    const replies = await Promise.all(
      builds.map((b) =>
        t.request<{ code?: number }>('POST', '/order/submit', {
          order_id: b.order_id,
          signed_tx: t.operation.sign(b.tx_hex),
        }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.body.code === 4301)).toHaveLength(7);
    const open = await t.request<{ total_count: number }>(
      'GET',
      '/accounts/order-records?status=open',
    );
    expect(open.body.total_count).toBe(1);
    // Locked is exactly what the one accepted order locks: 10 × its price.
    const balances = await t.balances();
    expect(balances['USDM']?.locked).toBeLessThanOrEqual(5.1);
    // A build made after the accepted submit spends the new UTxO and is taken.
    expect((await t.place(limit(0.55))).status).toBe(200);
  });

  it('two deposits built from the same wallet UTxO: the second submit answers 4301', async () => {
    const sandbox = await start();
    const t = await new Trader(sandbox.url).register();
    await t.faucet(100_000_000n, 0n);
    const inputs = await t.utxos();
    const build = (ada: number) =>
      t.request<{ tx_hex: string }>('POST', '/accounts/deposit/build', {
        deposit_amount: [{ unit: 'lovelace', quantity: String(ada * 1_000_000) }],
        input_utxos: inputs,
      });
    const [a, b] = [await build(20), await build(30)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const replies = await Promise.all(
      [a, b].map((r) =>
        t.request<{ code?: number }>('POST', '/accounts/deposit/submit', {
          signed_tx: t.wallet.sign(r.body.tx_hex),
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)?.body.code).toBe(4301);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ada = (await t.balances())['ADA'];
    expect([20, 30]).toContain(ada?.free);
    expect(ada?.locked).toBe(0);
  });

  it('withdrawals of two accounts spend the one treasury UTxO: submitted at once, exactly one is paid', async () => {
    const sandbox = await start();
    const a = await new Trader(sandbox.url).register();
    const b = await new Trader(sandbox.url).register();
    await a.fund(100, 0);
    await b.fund(100, 0);
    const minted = await lovelaceMinted(sandbox.url);
    const build = (t: Trader) =>
      t.request<{ tx_hex: string }>('POST', '/accounts/withdrawal/build', {
        withdrawal_amount: [{ unit: 'lovelace', quantity: '20000000' }],
      });
    const builds = [await build(a), await build(b)];
    const replies = await Promise.all(
      [a, b].map((t, i) =>
        t.request<{ code?: number }>('POST', '/accounts/withdrawal/submit', {
          signed_tx: t.wallet.sign(builds[i]?.body.tx_hex ?? ''),
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)?.body.code).toBe(4301);
    // Only the one paid left its account: 20 ADA and the 1 ADA fee.
    const left = [await a.balances(), await b.balances()].map((x) => x['ADA']?.free);
    expect(left.sort((x = 0, y = 0) => x - y)).toEqual([79, 100]);
    const paid = [...(await a.utxos()), ...(await b.utxos())].filter(
      (u) => u.output.amount[0]?.quantity === '20000000',
    );
    expect(paid).toHaveLength(1);
    expect(await lovelaceMinted(sandbox.url)).toBe(minted);
    // The loser builds again, on the new treasury UTxO, and is paid.
    const loser = replies[0]?.status === 400 ? a : b;
    const again = await build(loser);
    const paidNow = await loser.request('POST', '/accounts/withdrawal/submit', {
      signed_tx: loser.wallet.sign(again.body.tx_hex),
    });
    expect(paidNow.status).toBe(200);
  });

  it('two cancels of one order spend its UTxO: the second answers 4301', async () => {
    const sandbox = await start();
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    const placed = await t.place(limit(0.5));
    const id = placed.body.order.id;
    const cancelBuild = () => t.request<{ tx_hex: string }>('DELETE', `/order/${id}/build`);
    const first = await cancelBuild();
    // Built in another second, so with another validity end: another transaction.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const second = await cancelBuild();
    expect(txId(first.body.tx_hex)).not.toBe(txId(second.body.tx_hex));
    const submit = (built: typeof first) =>
      t.request<{ code?: number }>('DELETE', '/order/submit', {
        signed_tx: t.operation.sign(built.body.tx_hex),
      });
    expect((await submit(first)).status).toBe(200);
    expect((await submit(second)).body.code).toBe(4301);
  });

  it('a build that lost its UTxO still answers 4301 after a restart from a snapshot', async () => {
    const dataDir = tempDir();
    let sandbox = await start({ dataDir, compaction: { entries: 1, bytes: 1 << 20 } });
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    const build = (price: number) =>
      t.request<{ order_id: string; tx_hex: string }>('POST', '/order/build', limit(price));
    const [first, second] = [await build(0.5), await build(0.51)];
    const submit = (b: typeof first) =>
      t.request<{ code?: number }>('POST', '/order/submit', {
        order_id: b.body.order_id,
        signed_tx: t.operation.sign(b.body.tx_hex),
      });
    expect((await submit(first)).status).toBe(200);
    await sandbox.close();
    running.length = 0;
    // The journal was compacted: what the restart knows of the lost build is in the snapshot.
    const journal = readFileSync(join(dataDir, 'journal.ndjson'), 'utf8');
    expect(journal).not.toContain('orderSubmit');
    sandbox = await start({ dataDir });
    Object.assign(t, { url: sandbox.url });
    expect((await submit(second)).body.code).toBe(4301);
  });
});

async function lovelaceMinted(url: string): Promise<bigint> {
  const totals = await call<{ minted: Record<string, string> }>(url, 'GET', '/sandbox/totals');
  return BigInt(totals.body.minted['lovelace'] ?? '0');
}

describe('the faucet', () => {
  it('is bounded per asset and address over all requests, whatever the spelling or concurrency', async () => {
    const sandbox = await start();
    const t = await new Trader(sandbox.url).register();
    const minted = await lovelaceMinted(sandbox.url);
    const ask = (unit: string, quantity: bigint, address = t.address) =>
      call<{ code?: number; error?: string }>(sandbox.url, 'POST', '/sandbox/faucet', {
        body: { address, amount: [{ unit, quantity: quantity.toString() }] },
      });
    // Twenty requests of 100,000 ADA at once: exactly ten fit the 1,000,000 ADA bound.
    const storm = await Promise.all(
      Array.from({ length: 20 }, () => ask('lovelace', 100_000n * 10n ** 6n)),
    );
    expect(storm.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = storm.find((r) => r.status !== 200);
    expect(refused?.body.code).toBe(4000);
    expect(refused?.body.error).toMatch(/at most 1000000 ADA/);
    expect((await ask('lovelace', 1n, t.address.toUpperCase())).status).toBe(400);
    // The bound is per asset: USDM has its own.
    expect((await ask(USDM_UNIT, 1_000_000n * 10n ** 6n)).status).toBe(200);
    expect((await ask(USDM_UNIT, 1n)).status).toBe(400);
    // Two entries of one request count together.
    const other = await new Trader(sandbox.url).register();
    const split = await call(sandbox.url, 'POST', '/sandbox/faucet', {
      body: {
        address: other.address,
        amount: [
          { unit: 'lovelace', quantity: (600_000n * 10n ** 6n).toString() },
          { unit: 'lovelace', quantity: (600_000n * 10n ** 6n).toString() },
        ],
      },
    });
    expect(split.status).toBe(400);
    expect((await lovelaceMinted(sandbox.url)) - minted).toBe(1_000_000n * 10n ** 6n);
  });

  it("never pays the exchange's own scripts: order, deposit, treasury or an account's exchange address", async () => {
    const sandbox = await start();
    const t = await new Trader(sandbox.url).register();
    const minted = await lovelaceMinted(sandbox.url);
    const network = await call<{ addresses: Record<string, string> }>(
      sandbox.url,
      'GET',
      '/sandbox/network',
    );
    const account = await call<{ exchange_address: string }>(
      sandbox.url,
      'GET',
      `/sandbox/accounts/${t.accountId}`,
    );
    const scripts = [...Object.values(network.body.addresses), account.body.exchange_address];
    expect(scripts).toHaveLength(4);
    for (const address of scripts) {
      const r = await call<{ code: number }>(sandbox.url, 'POST', '/sandbox/faucet', {
        body: { address },
      });
      expect(r.status, address).toBe(400);
      expect(r.body.code).toBe(4000);
    }
    expect(await lovelaceMinted(sandbox.url)).toBe(minted);
  });
});

describe('no secret at rest in plain text', () => {
  it('API keys are kept only as hashes in every file; the files are 0600 in a 0700 folder; keys still work after a restart', async () => {
    const dataDir = tempDir();
    let sandbox = await start({ dataDir, compaction: { entries: 4, bytes: 1 << 20 } });
    const traders: Trader[] = [];
    for (let i = 0; i < 6; i++) traders.push(await new Trader(sandbox.url).register());
    // Registering again returns the same account with a new key; the first key still works.
    const again = await call<{ api_key: string; account_id: string }>(
      sandbox.url,
      'POST',
      '/sandbox/accounts',
      { body: { address: traders[0]?.address } },
    );
    expect(again.body.account_id).toBe(traders[0]?.accountId);
    await sandbox.close();
    const keys = [...traders.map((t) => t.apiKey), again.body.api_key];
    const names = readdirSync(dataDir);
    expect(names).toContain('snapshot.json');
    for (const name of names) {
      const text = readFileSync(join(dataDir, name), 'utf8').toLowerCase();
      for (const key of keys) expect(text, name).not.toContain(key.toLowerCase());
      expect(statSync(join(dataDir, name)).mode & 0o777, name).toBe(0o600);
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    sandbox = await start({ dataDir });
    for (const [i, t] of traders.entries()) {
      Object.assign(t, { url: sandbox.url });
      expect((await t.request('GET', '/accounts/balance')).status, `trader ${i}`).toBe(200);
    }
    const second = await call(sandbox.url, 'GET', '/accounts/balance', {
      key: again.body.api_key,
    });
    expect(second.status).toBe(200);
  });

  it('an API key an earlier version wrote in plain text is hashed at the next start, and still works', async () => {
    const dataDir = tempDir();
    let sandbox = await start({ dataDir });
    const t = new Trader(sandbox.url);
    await sandbox.close();
    running.length = 0;
    // What a journal of the earlier version held: the key itself on its account line.
    const apiKey = 'c0ffee'.repeat(5) + '00';
    const journal = join(dataDir, 'journal.ndjson');
    appendFileSync(
      journal,
      `${JSON.stringify({ t: 'account', at: Date.now(), apiKey, address: t.address, operationKeyHash: null })}\n`,
    );
    sandbox = await start({ dataDir });
    expect(sandbox.notice).toBeUndefined();
    for (const name of readdirSync(dataDir)) {
      expect(readFileSync(join(dataDir, name), 'utf8'), name).not.toContain(apiKey);
    }
    expect((await call(sandbox.url, 'GET', '/accounts/balance', { key: apiKey })).status).toBe(200);
  });
});

/** What a notice must never hold: a path of this machine, or advice about a setting. */
function expectPlainNotice(notice: string | undefined, dataDir: string): void {
  expect(notice).toBeDefined();
  expect(notice).not.toContain(dataDir);
  expect(notice).not.toContain(tmpdir());
  expect(notice).not.toMatch(/(^|\s)\/[a-z]/i);
  expect(notice).not.toMatch(/setting|option|flag|--/i);
  expect(notice).toMatch(/fresh practice exchange/);
}

describe('damage is contained and explained', () => {
  it('a damaged journal is moved aside, the notice says so in words, and a fresh exchange serves', async () => {
    const dataDir = tempDir();
    let sandbox = await start({ dataDir });
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 100);
    await sandbox.close();
    running.length = 0;
    const journal = join(dataDir, 'journal.ndjson');
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[2] = '{"t":"faucet", this is not JSON';
    const damaged = lines.join('\n');
    writeFileSync(journal, damaged);

    sandbox = await start({ dataDir });
    expectPlainNotice(sandbox.notice, dataDir);
    expect(sandbox.notice).toMatch(/journal\.ndjson: line 3 cannot be read/);
    const aside = readdirSync(dataDir).find((n) => /^journal-damaged-.*\.ndjson$/.test(n));
    expect(aside).toBeDefined();
    expect(sandbox.notice).toContain(aside);
    expect(readFileSync(join(dataDir, aside ?? ''), 'utf8')).toBe(damaged);
    // The fresh exchange works: the old key is unknown, a new account trades.
    Object.assign(t, { url: sandbox.url });
    expect((await t.request('GET', '/accounts/balance')).status).toBe(401);
    const fresh = await new Trader(sandbox.url).register();
    await fresh.fund(100, 100);
    expect((await fresh.place(limit(0.6))).status).toBe(200);
    await sandbox.close();
    running.length = 0;
    // And it is its own healthy folder from now on: the next start has no notice.
    sandbox = await start({ dataDir });
    expect(sandbox.notice).toBeUndefined();
  });

  it('a damaged snapshot or order archive is moved aside too, never deleted', async () => {
    for (const damage of ['snapshot', 'archive'] as const) {
      const dataDir = tempDir();
      let sandbox = await start({ dataDir, compaction: { entries: 6, bytes: 1 << 20 } });
      const t = await new Trader(sandbox.url).register();
      await t.fund(500, 500);
      for (let i = 0; i < 4; i++) {
        const placed = await t.place(limit(0.5));
        await t.cancel(placed.body.order.id);
      }
      await sandbox.close();
      running.length = 0;
      const archive = readdirSync(dataDir).find((n) => /^orders-[0-9a-f]{16}\.ndjson$/.test(n));
      expect(archive, damage).toBeDefined();
      if (damage === 'snapshot') appendFileSync(join(dataDir, 'snapshot.json'), 'x');
      else truncateSync(join(dataDir, archive ?? ''), 10);

      sandbox = await start({ dataDir });
      expectPlainNotice(sandbox.notice, dataDir);
      const names = readdirSync(dataDir);
      expect(names.some((n) => /^snapshot-damaged-/.test(n))).toBe(true);
      expect(names.some((n) => /^orders-[0-9a-f]{16}-damaged-/.test(n))).toBe(true);
      expect((await new Trader(sandbox.url).register()).accountId).toBeTruthy();
      await sandbox.close();
      running.length = 0;
    }
  });

  it('the program announces the notice in its first line and keeps serving', async () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, 'journal.ndjson'),
      '{"t":"genesis"}\n{"t":"reset","at":1}\nbroken\n{}\n',
    );
    const s = await spawnSandboxProcess(sourceSandboxCommand, quietSandboxArgs(dataDir));
    children.push(s.child);
    expectPlainNotice(s.notice, dataDir);
    const registered = await call(s.url, 'POST', '/sandbox/accounts', {
      body: { address: new Trader(s.url).address },
    });
    expect(registered.status).toBe(200);
  });
});

describe('concurrent writes', () => {
  it('100 mixed operations at once, with snapshots written meanwhile: no 5xx, and a restart shows exactly what was acknowledged', async () => {
    const dataDir = tempDir();
    let sandbox = await start({ dataDir, compaction: { entries: 15, bytes: 1 << 20 } });
    const traders: Trader[] = [];
    for (let i = 0; i < 4; i++) {
      const t = await new Trader(sandbox.url).register();
      await t.fund(2000, 2000);
      traders.push(t);
    }
    const ops: Promise<{ status: number; what: string }>[] = [];
    for (let i = 0; i < 100; i++) {
      const t = traders[i % traders.length] as Trader;
      const kind = i % 5;
      const op = async (): Promise<{ status: number; what: string }> => {
        if (kind === 0) {
          const r = await call(sandbox.url, 'POST', '/sandbox/faucet', {
            body: { address: t.address, amount: [{ unit: 'lovelace', quantity: '5000000' }] },
          });
          return { status: r.status, what: 'faucet' };
        }
        if (kind === 1) {
          const r = await call(sandbox.url, 'POST', '/sandbox/accounts', {
            body: { address: new Trader(sandbox.url).address },
          });
          return { status: r.status, what: 'account' };
        }
        if (kind === 4) {
          const r = await t.request('GET', '/accounts/order-records?status=orderHistory');
          return { status: r.status, what: 'list' };
        }
        const side = kind === 2 ? 'buy' : 'sell';
        const r = await t.place({ ...limit(kind === 2 ? 0.64 : 0.64), side });
        return { status: r.status, what: `order ${r.status === 200 ? 'ok' : r.text}` };
      };
      ops.push(op());
    }
    const results = await Promise.all(ops);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    // Orders of one account race for its UTxO (4301 for the losers); every other kind succeeds.
    expect(results.filter((r) => !r.what.startsWith('order') && r.status !== 200)).toEqual([]);
    expect(results.filter((r) => r.what === 'order ok').length).toBeGreaterThanOrEqual(4);
    const view = async (url: string) => {
      const out = [];
      for (const t of traders) {
        Object.assign(t, { url });
        const history = await t.request<{ data: { orders: OrderRecord[] }[] }>(
          'GET',
          '/accounts/order-records?status=orderHistory&limit=250',
        );
        const open = await t.request<{ data: { orders: OrderRecord[] }[] }>(
          'GET',
          '/accounts/order-records?status=open&limit=250',
        );
        out.push({
          balances: await t.balances(),
          utxos: await t.utxos(),
          history: history.body.data[0]?.orders,
          open: open.body.data[0]?.orders,
        });
      }
      const totals = await call(url, 'GET', '/sandbox/totals');
      return { out, totals: totals.body };
    };
    const before = await view(sandbox.url);
    await sandbox.close();
    running.length = 0;
    expect(readdirSync(dataDir).filter((n) => n.includes('.tmp') || n.startsWith('.'))).toEqual([]);
    sandbox = await start({ dataDir });
    expect(sandbox.notice).toBeUndefined();
    expect(await view(sandbox.url)).toEqual(before);
    expect(existsSync(join(dataDir, 'snapshot.json'))).toBe(true);
  });
});
