import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  call,
  readyCrypto,
  startTestSandbox,
  tempDir,
  type OrderRecord,
  type TestSandbox,
} from './helpers.js';

/**
 * Closed orders leave the live state for the order archive at each snapshot: lists, lookups and
 * restarts must not tell the difference.
 */

beforeAll(readyCrypto);

const running: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(dataDir: string): Promise<TestSandbox> {
  const sandbox = await startTestSandbox({ dataDir, compaction: { entries: 10, bytes: 1 << 20 } });
  running.push(sandbox);
  return sandbox;
}

async function stop(sandbox: TestSandbox): Promise<void> {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}

const archiveOf = (dataDir: string) =>
  readdirSync(dataDir).filter((n) => /^orders-[0-9a-f]{16}\.ndjson$/.test(n));
const indexOf = (dataDir: string) =>
  readdirSync(dataDir).filter((n) => /^orders-[0-9a-f]{16}\.index$/.test(n));

/** A trader with `count` orders placed and cancelled (each closed order goes to the archive). */
async function closedOrders(t: Trader, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = await t.place({
      symbol: 'ADAUSDM',
      side: 'buy',
      type: 'limit',
      quantity: 10,
      price: 0.6,
    });
    ids.push(placed.body.order.id);
    expect((await t.cancel(placed.body.order.id)).status).toBe(200);
  }
  return ids;
}

/** Rewrites an index file's body with `change`, with a header that matches it again. */
function forgeIndex(path: string, change: (body: Record<string, unknown[]>) => void): void {
  const [header = '', body = ''] = readFileSync(path, 'utf8').split('\n');
  const columns = JSON.parse(body) as Record<string, unknown[]>;
  change(columns);
  const text = JSON.stringify(columns);
  const sha256 = createHash('sha256').update(text).digest('hex');
  writeFileSync(path, `${JSON.stringify({ ...JSON.parse(header), sha256 })}\n${text}\n`);
}

/** Every list a trader can read, every status, paged 7 at a time, and each order by id. */
async function everything(t: Trader, ids: string[]) {
  const lists: Record<string, string[]> = {};
  for (const status of ['open', 'orderHistory', 'tradingHistory']) {
    for (const symbol of ['', '&symbol=ADAUSDM', '&symbol=NIGHTUSDM']) {
      const seen: OrderRecord[] = [];
      for (let page = 1; page <= 20; page++) {
        const r = await t.request<{ data: { orders: OrderRecord[] }[]; total_page: number }>(
          'GET',
          `/accounts/order-records?status=${status}&limit=7&page=${page}${symbol}`,
        );
        seen.push(...(r.body.data[0]?.orders ?? []));
        if (page >= r.body.total_page) break;
      }
      lists[status + symbol] = seen.map((o) => JSON.stringify(o));
    }
  }
  const byId = [];
  for (const id of ids) {
    const a = await t.request<OrderRecord>('GET', `/account/order?id=${id}`);
    const b = await t.request<{ order_json: OrderRecord }>('GET', `/accounts/order/${id}`);
    expect(a.status).toBe(200);
    expect(b.body.order_json).toEqual(a.body);
    byId.push(a.body);
  }
  return { lists, byId };
}

describe('the order archive', () => {
  it('lists, lookups and a restart read archived orders exactly as live ones, newest first', async () => {
    const dataDir = tempDir();
    let sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    const other = await new Trader(sandbox.url).register();
    await t.fund(3000, 3000);
    await other.fund(3000, 3000);
    const ids: string[] = [];
    const kept: string[] = [];
    for (let i = 0; i < 24; i++) {
      // Orders that stay open bid below every sell of the other trader: they never fill.
      const price = (i % 3 === 2 ? 5500 - i : 6000 + (i % 5) * 10) / 10_000;
      const placed = await t.place({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: 10,
        price,
      });
      expect(placed.status).toBe(200);
      const id = placed.body.order.id;
      ids.push(id);
      // Some fill (a trader sells into them), some are cancelled, some stay open.
      if (i % 3 === 0) {
        await other.place({ symbol: 'ADAUSDM', side: 'sell', type: 'limit', quantity: 10, price });
      } else if (i % 3 === 1) {
        expect((await t.cancel(id)).status).toBe(200);
      } else kept.push(id);
    }
    // Orders placed long ago close after newer ones have: the list stays in placing order.
    for (const id of kept.slice(0, 3)) expect((await t.cancel(id)).status).toBe(200);
    const [archive] = archiveOf(dataDir);
    expect(archive).toBeDefined();
    const archived = readFileSync(join(dataDir, archive ?? ''), 'utf8')
      .trim()
      .split('\n');
    expect(archived.length).toBeGreaterThan(5);

    const before = await everything(t, ids);
    const history = before.lists['orderHistory']?.map((o) => (JSON.parse(o) as OrderRecord).id);
    expect(history).toEqual([...ids].reverse().filter((id) => !kept.slice(3).includes(id)));
    expect(before.lists['open']).toHaveLength(kept.length - 3);
    await stop(sandbox);

    sandbox = await start(dataDir);
    expect(sandbox.notice).toBeUndefined();
    Object.assign(t, { url: sandbox.url });
    expect(await everything(t, ids)).toEqual(before);
    // A snapshot holds only live orders: the archived ones are written once, not every time.
    const snapshot = readFileSync(join(dataDir, 'snapshot.json'), 'utf8');
    const archivedIds = readFileSync(join(dataDir, archive ?? ''), 'utf8');
    const inArchive = ids.filter((id) => !snapshot.includes(id));
    expect(inArchive.length).toBeGreaterThan(5);
    expect(archivedIds.length).toBeGreaterThan(0);
  });

  it('an archive longer than its snapshot says (a compaction cut short) is cut back, nothing lost', async () => {
    const dataDir = tempDir();
    let sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    await t.fund(1000, 1000);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const placed = await t.place({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: 10,
        price: 0.6,
      });
      ids.push(placed.body.order.id);
      await t.cancel(placed.body.order.id);
    }
    const before = await everything(t, ids);
    await stop(sandbox);
    const [archive] = archiveOf(dataDir);
    const path = join(dataDir, archive ?? '');
    const size = statSync(path).size;
    const lines = readFileSync(path, 'utf8').split('\n');
    appendFileSync(path, `${lines[0]}\n`);

    sandbox = await start(dataDir);
    expect(sandbox.notice).toBeUndefined();
    expect(statSync(path).size).toBe(size);
    Object.assign(t, { url: sandbox.url });
    expect(await everything(t, ids)).toEqual(before);
  });

  it('a reset starts a new archive and the old one goes', async () => {
    const dataDir = tempDir();
    const sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    await t.fund(1000, 1000);
    for (let i = 0; i < 8; i++) {
      const placed = await t.place({
        symbol: 'ADAUSDM',
        side: 'buy',
        type: 'limit',
        quantity: 10,
        price: 0.6,
      });
      await t.cancel(placed.body.order.id);
    }
    const [old] = archiveOf(dataDir);
    expect(old).toBeDefined();
    expect((await call(sandbox.url, 'POST', '/sandbox/reset')).status).toBe(200);
    expect(archiveOf(dataDir)).not.toContain(old);
    expect(archiveOf(dataDir).every((n) => readFileSync(join(dataDir, n), 'utf8') === '')).toBe(
      true,
    );
  });

  it('a start reads the index instead of the archive; a damaged or missing index is rebuilt from the archive', async () => {
    const dataDir = tempDir();
    let sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    await t.fund(1000, 1000);
    const ids = await closedOrders(t, 12);
    const before = await everything(t, ids);
    await stop(sandbox);
    const [index] = indexOf(dataDir);
    expect(index).toBeDefined();
    const path = join(dataDir, index ?? '');
    const good = readFileSync(path, 'utf8');

    for (const damage of [
      () => writeFileSync(path, good.slice(0, good.length - 40)),
      () => writeFileSync(path, good.replace('"seq":[', '"seq":[1,')),
      () => writeFileSync(path, 'not an index\n'),
      () => rmSync(path),
      // Well formed, of another archive.
      () =>
        writeFileSync(path, good.replace(/"epoch":"[0-9a-f]{16}"/, '"epoch":"0000000000000000"')),
      // Well formed, but its lines are not where it says.
      () => forgeIndex(path, (c) => void c['length']?.reverse()),
    ]) {
      damage();
      sandbox = await start(dataDir);
      expect(sandbox.notice).toBeUndefined();
      Object.assign(t, { url: sandbox.url });
      expect(await everything(t, ids)).toEqual(before);
      await stop(sandbox);
      // Written again from the archive: the next start reads it.
      expect(readFileSync(path, 'utf8')).toBe(good);
    }
  });

  it('an index that passes its checks but does not match the archive is not trusted', async () => {
    const dataDir = tempDir();
    let sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    await t.fund(1000, 1000);
    const ids = await closedOrders(t, 12);
    const before = await everything(t, ids);
    await stop(sandbox);
    const [index] = indexOf(dataDir);
    const path = join(dataDir, index ?? '');
    // Two orders' ids swapped, and a checksum that fits: it says the wrong line is each one.
    forgeIndex(path, (c) => {
      const id = c['id'] as unknown[];
      [id[0], id[1]] = [id[1], id[0]];
    });
    sandbox = await start(dataDir);
    Object.assign(t, { url: sandbox.url });
    // What the index points at is checked when read: never another order's record.
    const read = await t.request<{ id?: string }>('GET', `/account/order?id=${ids[0]}`);
    expect(read.body.id === undefined || read.body.id === ids[0]).toBe(true);
    expect(read.status).not.toBe(200);
    expect(existsSync(path)).toBe(false);
    await stop(sandbox);
    // The next start reads the archive and writes the index again.
    sandbox = await start(dataDir);
    Object.assign(t, { url: sandbox.url });
    expect(await everything(t, ids)).toEqual(before);
    await stop(sandbox);
    expect(existsSync(path)).toBe(true);
  });

  it('an index written ahead of its snapshot (a compaction cut short) counts only what the snapshot does', async () => {
    const dataDir = tempDir();
    let sandbox = await start(dataDir);
    const t = await new Trader(sandbox.url).register();
    await t.fund(1000, 1000);
    const ids = await closedOrders(t, 8);
    const before = await everything(t, ids);
    await stop(sandbox);
    const saved = tempDir();
    cpSync(dataDir, saved, { recursive: true });
    // Later, more orders are archived: a longer archive and its index.
    sandbox = await start(dataDir);
    Object.assign(t, { url: sandbox.url });
    await closedOrders(t, 8);
    await stop(sandbox);
    // The crash: archive and index of the later compaction, snapshot and journal of the earlier.
    const [archive] = archiveOf(dataDir);
    const [index] = indexOf(dataDir);
    copyFileSync(join(dataDir, archive ?? ''), join(saved, archive ?? ''));
    copyFileSync(join(dataDir, index ?? ''), join(saved, index ?? ''));
    const snapshot = readFileSync(join(saved, 'snapshot.json'), 'utf8').split('\n')[1] ?? '';
    const counted = (JSON.parse(snapshot) as { archive: { bytes: number } }).archive.bytes;
    expect(statSync(join(saved, archive ?? '')).size).toBeGreaterThan(counted);
    sandbox = await start(saved);
    expect(sandbox.notice).toBeUndefined();
    Object.assign(t, { url: sandbox.url });
    expect(await everything(t, ids)).toEqual(before);
  });
});
