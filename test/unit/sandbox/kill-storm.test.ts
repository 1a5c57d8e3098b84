import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  USDM_UNIT,
  call,
  decodeTx,
  exited,
  readyCrypto,
  rememberAdminToken,
  tempDir,
  txId,
  type Announcement,
  type InputUtxo,
  type OrderRecord,
  type Reply,
} from './helpers.js';

/**
 * kill -9 of the sandbox program in the middle of 100 concurrent mixed operations (accounts,
 * keys, faucet, order build and submit, cancels, deposits, withdrawals, reads), then a restart
 * on the same data folder, compared with what was acknowledged: every 2xx change is there, and
 * what was in flight is wholly applied or not at all. Each trader's balance is exactly what the
 * deposits and withdrawals that reached L1 say, its coins are spent only by those, what it has
 * locked is what its open orders lock, the exchange's totals balance, no UTxO is spent by two
 * submits, and every build answered before the kill can still be submitted (or is refused as
 * already submitted, or as spent by a sibling). One round per kill point, on the same folder;
 * snapshots are written every 30 entries, so kills land in compactions too.
 */

beforeAll(readyCrypto);

const CHILD = resolve(import.meta.dirname, '../../fixtures/crash/sandbox-child.ts');
/** Kill once this many of the storm's requests (about 170) have their answer. */
const KILL_POINTS = [12, 70, 130];
const ADA = 'lovelace';
const WITHDRAWAL_FEE = 1_000_000n;

/** A small seeded generator: every run is the same storm. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** A human amount as the wire gives it (a JSON number) in smallest units, exactly. */
const units = (human: number | string | undefined): bigint =>
  BigInt(new Decimal(String(human ?? 0)).times(1_000_000).toFixed(0));

type Kind =
  | 'account'
  | 'rekey'
  | 'faucet'
  | 'order'
  | 'market-order'
  | 'cancel'
  | 'deposit'
  | 'withdrawal'
  | 'read';

const MIX: Record<Kind, number> = {
  account: 6,
  rekey: 4,
  faucet: 10,
  order: 16,
  'market-order': 10,
  cancel: 12,
  deposit: 14,
  withdrawal: 14,
  read: 14,
};

interface Built {
  txHex: string;
  txId: string;
  signed: string;
  orderId?: string;
}

interface Op {
  kind: Kind;
  trader: Trader;
  /** Deposits: the wallet coin it spends. */
  utxo?: InputUtxo;
  /** Cancels: the order. */
  orderId?: string;
  amounts?: Map<string, bigint>;
  built?: Built;
  submitSent?: boolean;
  acked?: boolean;
  /** What an acknowledged account, key or faucet request answered. */
  answer?: Record<string, unknown>;
  /** Codes of refusals (the exchange's code, else the HTTP status). */
  codes: number[];
  serverError?: boolean;
}

/** What a trader's account and wallet hold. */
interface View {
  totals: Map<string, bigint>;
  locked: Map<string, bigint>;
  open: OrderRecord[];
  utxos: Set<string>;
}

const utxoKey = (u: InputUtxo) => `${u.input.tx_hash}#${u.input.output_index}`;

const view = async (t: Trader): Promise<View> => {
  const [balances, open, utxos] = await Promise.all([
    t.request<{ asset_unit: string; free: number; locked: number }[]>('GET', '/accounts/balance'),
    t.request<{ data: { orders: OrderRecord[] }[] }>(
      'GET',
      '/accounts/order-records?status=open&limit=250',
    ),
    t.utxos(),
  ]);
  if (balances.status !== 200) throw new Error(`balance: ${balances.text}`);
  const totals = new Map<string, bigint>();
  const locked = new Map<string, bigint>();
  for (const b of balances.body) {
    const unit = b.asset_unit === '' ? ADA : b.asset_unit;
    totals.set(unit, units(b.free) + units(b.locked));
    locked.set(unit, units(b.locked));
  }
  return {
    totals,
    locked,
    open: open.body.data[0]?.orders ?? [],
    utxos: new Set(utxos.map(utxoKey)),
  };
};

const totalsOf = async (url: string) =>
  (
    await call<{ minted: Record<string, string>; held: Record<string, string> }>(
      url,
      'GET',
      '/sandbox/totals',
    )
  ).body;

/** A sandbox process, loaded and waiting to open the data folder. */
interface Warm {
  child: ChildProcess;
  open(): Promise<string>;
}

const children: ChildProcess[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(children.map((child) => exited(child)));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const warm = (dataDir: string): Warm => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const first = new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', done);
    child.once('exit', (code) => fail(new Error(`the sandbox exited with ${code}`)));
  });
  return {
    child,
    async open() {
      child.stdin?.write('go\n');
      const announced = JSON.parse(await first) as Announcement;
      expect(announced.notice).toBeUndefined();
      rememberAdminToken(announced.url, announced.adminToken);
      return announced.url;
    },
  };
};

const moveTo = (url: string, traders: Trader[]) => {
  for (const t of traders) Object.assign(t, { url });
};

/** The endpoint that takes a build's signed transaction. */
const submitOf = (op: Op): [string, string] =>
  op.kind === 'deposit'
    ? ['POST', '/accounts/deposit/submit']
    : op.kind === 'withdrawal'
      ? ['POST', '/accounts/withdrawal/submit']
      : op.kind === 'cancel'
        ? ['DELETE', '/order/submit']
        : ['POST', '/order/submit'];

const submitBody = (built: Built) => ({
  ...(built.orderId ? { order_id: built.orderId } : {}),
  signed_tx: built.signed,
});

describe('kill -9 of the sandbox during a storm of 100 mixed operations', () => {
  it('keeps every acknowledged change and half-applies nothing, at several kill points', async () => {
    const dataDir = tempDir();
    folders.push(dataDir);
    let current = warm(dataDir);
    let url = await current.open();
    // The next process loads while the current one works: a restart costs the replay alone.
    let next = warm(dataDir);
    const random = seeded(4301);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    // Four traders whose orders never cross (their balances are a ledger of deposits and
    // withdrawals), two who trade with each other.
    const traders = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const t = await new Trader(url).register();
        await t.fund(2000, 2000);
        return t;
      }),
    );
    const ledger = traders.slice(0, 4);
    const market = traders.slice(4);
    /** Every input spent by a submit that landed, over all rounds: one UTxO, one spend. */
    const spentBy = new Map<string, string>();
    const figures: Record<string, unknown>[] = [];

    for (const killAt of KILL_POINTS) {
      // Coins and resting orders for this round's deposits and cancels, acknowledged before it.
      const coins = new Map<Trader, InputUtxo[]>();
      const resting = new Map<Trader, string[]>();
      await Promise.all(
        ledger.map(async (t) => {
          const mine: InputUtxo[] = [];
          for (let i = 0; i < 4; i++) {
            const r = await call<InputUtxo>(url, 'POST', '/sandbox/faucet', {
              body: {
                address: t.address,
                amount: [
                  { unit: ADA, quantity: '50000000' },
                  { unit: USDM_UNIT, quantity: '50000000' },
                ],
              },
            });
            expect(r.status).toBe(200);
            mine.push(r.body);
          }
          coins.set(t, mine);
          const ids: string[] = [];
          for (let i = 0; i < 3; i++) {
            const placed = await t.place({
              symbol: 'ADAUSDM',
              side: 'buy',
              type: 'limit',
              quantity: 10,
              price: 0.5,
            });
            expect(placed.status, placed.text).toBe(200);
            ids.push(placed.body.order.id);
          }
          resting.set(t, ids);
        }),
      );
      const before = new Map(
        await Promise.all(ledger.map(async (t) => [t, await view(t)] as const)),
      );

      const ops: Op[] = [];
      for (const kind of Object.keys(MIX) as Kind[]) {
        for (let n = 0; n < MIX[kind]; n++) {
          const trader =
            kind === 'market-order'
              ? (market[n % 2] as Trader)
              : pick(kind === 'read' ? traders : ledger);
          const op: Op = { kind, trader, codes: [] };
          if (kind === 'deposit') {
            op.utxo = pick(coins.get(trader) ?? []);
            op.amounts = new Map([
              [ADA, 20_000_000n],
              [USDM_UNIT, 10_000_000n],
            ]);
          }
          if (kind === 'cancel') op.orderId = pick(resting.get(trader) ?? []);
          if (kind === 'withdrawal') op.amounts = new Map([[ADA, 3_000_000n]]);
          ops.push(op);
        }
      }
      expect(ops).toHaveLength(100);
      for (let i = ops.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [ops[i], ops[j]] = [ops[j] as Op, ops[i] as Op];
      }

      // ---- the storm ----
      let sent = 0;
      let answered = 0;
      let inFlightAtKill = -1;
      const running = current.child;
      const counted = async <T>(request: () => Promise<Reply<T>>): Promise<Reply<T>> => {
        sent++;
        const reply = await request();
        answered++;
        if (answered >= killAt && inFlightAtKill < 0) {
          inFlightAtKill = sent - answered;
          running.kill('SIGKILL');
        }
        return reply;
      };
      const ok = (op: Op, r: Reply): boolean => {
        if (r.status >= 500) op.serverError = true;
        if (r.status !== 200) {
          op.codes.push((r.body as { code?: number } | undefined)?.code ?? r.status);
        }
        return r.status === 200;
      };
      /** Build (answered 200: `built`), then sign and submit (answered 200: `acked`). */
      const buildAndSubmit = async (
        op: Op,
        build: () => Promise<Reply<{ tx_hex: string; order_id?: string }>>,
        key: 'operation' | 'wallet',
      ) => {
        const b = await counted(build);
        if (!ok(op, b)) return;
        op.built = {
          txHex: b.body.tx_hex,
          txId: txId(b.body.tx_hex),
          signed: op.trader[key].sign(b.body.tx_hex),
          ...(b.body.order_id ? { orderId: b.body.order_id } : {}),
        };
        op.submitSent = true;
        const [method, path] = submitOf(op);
        const built = op.built;
        op.acked = ok(op, await counted(() => op.trader.request(method, path, submitBody(built))));
      };
      const run = async (op: Op): Promise<void> => {
        const t = op.trader;
        switch (op.kind) {
          case 'account':
          case 'rekey': {
            const address = op.kind === 'account' ? new Trader(url).address : t.address;
            const r = await counted(() =>
              call<Record<string, unknown>>(url, 'POST', '/sandbox/accounts', {
                body: { address, operation_key_hash: t.operation.hash },
              }),
            );
            op.acked = ok(op, r);
            op.answer = { ...r.body, address };
            return;
          }
          case 'faucet': {
            const r = await counted(() =>
              call<InputUtxo>(url, 'POST', '/sandbox/faucet', {
                body: { address: t.address, amount: [{ unit: ADA, quantity: '3000000' }] },
              }),
            );
            op.acked = ok(op, r);
            if (op.acked) op.answer = { utxo: utxoKey(r.body) };
            return;
          }
          case 'order':
          case 'market-order': {
            const side = random() < 0.5 ? 'buy' : 'sell';
            // Ledger traders rest far from the market; the two others cross each other.
            const price =
              op.kind === 'order' ? (side === 'buy' ? 0.5 : 0.8) : side === 'buy' ? 0.66 : 0.64;
            const order = { symbol: 'ADAUSDM', side, type: 'limit', quantity: 10, price };
            return buildAndSubmit(op, () => t.request('POST', '/order/build', order), 'operation');
          }
          case 'cancel':
            return buildAndSubmit(
              op,
              () => t.request('DELETE', `/order/${op.orderId}/build`),
              'operation',
            );
          case 'deposit':
            return buildAndSubmit(
              op,
              () =>
                t.request('POST', '/accounts/deposit/build', {
                  deposit_amount: [...(op.amounts ?? [])].map(([unit, q]) => ({
                    unit,
                    quantity: q.toString(),
                  })),
                  input_utxos: [op.utxo],
                }),
              'wallet',
            );
          case 'withdrawal':
            return buildAndSubmit(
              op,
              () =>
                t.request('POST', '/accounts/withdrawal/build', {
                  withdrawal_amount: [{ unit: ADA, quantity: '3000000' }],
                }),
              'wallet',
            );
          case 'read': {
            const r = await counted(() =>
              random() < 0.5
                ? t.request('GET', '/accounts/balance')
                : t.request('GET', '/accounts/order-records?status=orderHistory&limit=50'),
            );
            op.acked = ok(op, r);
            return;
          }
        }
      };
      // Every one at once; those cut off by the kill end without an answer.
      await Promise.all(ops.map((op) => run(op).catch(() => undefined)));
      if (inFlightAtKill < 0) {
        inFlightAtKill = 0;
        running.kill('SIGKILL');
      }
      await exited(running);

      // ---- the restart, compared with what was acknowledged ----
      current = next;
      url = await current.open();
      next = warm(dataDir);
      moveTo(url, traders);
      const lost: string[] = [];
      const halfApplied: string[] = [];

      const totals = await totalsOf(url);
      if (JSON.stringify(totals.held) !== JSON.stringify(totals.minted)) {
        halfApplied.push(`held ${JSON.stringify(totals.held)} of ${JSON.stringify(totals.minted)}`);
      }
      await Promise.all(
        ops
          .filter((o) => o.acked && (o.kind === 'account' || o.kind === 'rekey'))
          .map(async (op) => {
            const { account_id, api_key, address } = op.answer as Record<string, string>;
            const account = await call<{ address: string }>(
              url,
              'GET',
              `/sandbox/accounts/${account_id}`,
            );
            if (account.status !== 200 || account.body.address !== address) {
              lost.push(`account ${account_id}`);
            }
            const balance = await call(url, 'GET', '/accounts/balance', { key: api_key });
            if (balance.status !== 200) lost.push(`API key of ${account_id}`);
            if (op.kind === 'rekey' && account_id !== op.trader.accountId) lost.push('the account');
          }),
      );
      // Every trader's first key still works, whatever keys were added since.
      for (const t of traders) {
        if ((await t.request('GET', '/accounts/balance')).status !== 200) lost.push('first key');
      }
      const after = new Map(
        await Promise.all(ledger.map(async (t) => [t, await view(t)] as const)),
      );
      for (const op of ops.filter((o) => o.acked && o.kind === 'faucet')) {
        const utxos = new Set((await op.trader.utxos()).map(utxoKey));
        if (!utxos.has(String(op.answer?.utxo))) lost.push(`faucet ${op.answer?.utxo}`);
      }

      // Two builds of the same thing in the same second are one transaction: counted once.
      const byTx = new Map<string, Op>();
      for (const op of ops.filter((o) => o.built)) {
        const seen = byTx.get((op.built as Built).txId);
        if (!seen) byTx.set((op.built as Built).txId, { ...op });
        else {
          seen.acked = seen.acked === true || op.acked === true;
          seen.submitSent = seen.submitSent === true || op.submitSent === true;
        }
      }
      const txs = [...byTx.values()];
      // Which landed, from what L1 and the records show whatever the answer was (cancels: which
      // of two of one order took it is told by submitting again, below).
      const landed = new Set<Op>();
      let inFlightLanded = 0;
      await Promise.all(
        txs
          .filter((o) => o.kind !== 'cancel')
          .map(async (op) => {
            const built = op.built as Built;
            const mine = after.get(op.trader);
            const there =
              op.kind === 'deposit'
                ? (mine?.utxos.has(`${built.txId}#1`) ?? false)
                : op.kind === 'withdrawal'
                  ? (mine?.utxos.has(`${built.txId}#0`) ?? false)
                  : (await op.trader.request('GET', `/account/order?id=${built.orderId}`))
                      .status === 200;
            if (there) landed.add(op);
            if (there && !op.acked) inFlightLanded++;
            if (op.acked && !there) lost.push(`${op.kind} ${built.txId}`);
            if (!op.submitSent && there) halfApplied.push(`${op.kind} ${built.txId} never sent`);
          }),
      );
      for (const op of txs.filter((o) => o.kind === 'cancel' && o.acked)) landed.add(op);

      // Each ledger trader: exactly the deposits and withdrawals that landed moved the balance,
      // its coins are spent by those alone, and what is locked is what its open orders lock.
      for (const t of ledger) {
        const was = before.get(t) as View;
        const now = after.get(t) as View;
        const expected = new Map(was.totals);
        const add = (unit: string, q: bigint) => expected.set(unit, (expected.get(unit) ?? 0n) + q);
        const spentCoins = new Set<string>();
        for (const op of txs.filter((o) => o.trader === t && landed.has(o))) {
          if (op.kind === 'deposit') {
            for (const [unit, q] of op.amounts ?? []) add(unit, q);
            spentCoins.add(utxoKey(op.utxo as InputUtxo));
          }
          if (op.kind === 'withdrawal') {
            for (const [unit, q] of op.amounts ?? []) add(unit, -q);
            add(ADA, -WITHDRAWAL_FEE);
          }
        }
        for (const unit of [ADA, USDM_UNIT]) {
          if (now.totals.get(unit) !== expected.get(unit)) {
            halfApplied.push(
              `${t.accountId} ${unit.slice(0, 8)}: ${now.totals.get(unit)} held, ${expected.get(unit)} from what landed`,
            );
          }
        }
        for (const coin of (coins.get(t) ?? []).map(utxoKey)) {
          if (spentCoins.has(coin) === now.utxos.has(coin)) {
            halfApplied.push(`coin ${coin}: ${now.utxos.has(coin) ? 'unspent' : 'spent'}`);
          }
        }
        const lockedByOrders = new Map<string, bigint>([
          [ADA, 0n],
          [USDM_UNIT, 0n],
        ]);
        for (const order of now.open) {
          lockedByOrders.set(ADA, (lockedByOrders.get(ADA) ?? 0n) + units(order.locked_base_qty));
          lockedByOrders.set(
            USDM_UNIT,
            (lockedByOrders.get(USDM_UNIT) ?? 0n) + units(order.locked_quote_qty),
          );
        }
        for (const unit of [ADA, USDM_UNIT]) {
          if ((now.locked.get(unit) ?? 0n) !== lockedByOrders.get(unit)) {
            halfApplied.push(
              `${t.accountId} locks ${now.locked.get(unit)}, its orders ${lockedByOrders.get(unit)}`,
            );
          }
        }
        const known = new Set([
          ...was.open.map((o) => o.id),
          ...ops.filter((o) => o.trader === t && o.built?.orderId).map((o) => o.built?.orderId),
        ]);
        for (const order of now.open) {
          if (!known.has(order.id)) halfApplied.push(`an order nobody built: ${order.id}`);
        }
      }

      // Every build answered before the kill is still known: submitted now it is taken, or
      // refused as already submitted (it had landed) or as spent (a sibling had), never as
      // unknown. All at once: they race for their UTxOs like the storm did.
      const resubmitted: Record<string, number> = {};
      await Promise.all(
        txs
          .filter((o) => !o.acked)
          .map(async (op) => {
            const built = op.built as Built;
            const [method, path] = submitOf(op);
            const r = await op.trader.request<{ code?: number }>(method, path, submitBody(built));
            const code = r.status === 200 ? 200 : (r.body.code ?? r.status);
            resubmitted[code] = (resubmitted[code] ?? 0) + 1;
            if ([4200, 4402].includes(code) || r.status >= 500) {
              lost.push(`build ${built.txId}: ${code}`);
            }
            if (op.kind !== 'cancel' && (code === 4302) !== landed.has(op)) {
              halfApplied.push(
                `${op.kind} ${built.txId}: ${code}, ${landed.has(op) ? '' : 'not '}there`,
              );
            }
            // Had landed (4302), or lands now (200): either way it spent its inputs, once.
            if (code === 200 || code === 4302) landed.add(op);
          }),
      );
      // A resting order is cancelled if and only if exactly one of its cancels landed.
      for (const [t, ids] of resting) {
        for (const id of ids) {
          const cancels = txs.filter(
            (o) => o.kind === 'cancel' && o.orderId === id && landed.has(o),
          );
          const order = await t.request<OrderRecord>('GET', `/account/order?id=${id}`);
          const cancelled = order.body.status === 'cancelled';
          if (cancels.length > 1 || cancelled !== (cancels.length === 1)) {
            halfApplied.push(`order ${id} ${order.body.status} after ${cancels.length} cancels`);
          }
        }
      }
      // One UTxO, one spend: no input under two submits that landed (this round and before).
      for (const op of landed) {
        for (const input of decodeTx((op.built as Built).txHex).body.inputs) {
          const id = `${input.txId}#${input.index}`;
          const other = spentBy.get(id);
          if (other !== undefined && other !== op.built?.txId)
            halfApplied.push(`${id} spent twice`);
          spentBy.set(id, op.built?.txId ?? '');
        }
      }

      const serverErrors = ops.filter((o) => o.serverError);
      const round = {
        killAt,
        operations: ops.length,
        requestsAnswered: answered,
        inFlightAtKill,
        transactions: txs.length,
        acknowledgedSubmits: txs.filter((o) => o.acked).length,
        /** Submits cut off by the kill that had landed (orders, deposits, withdrawals). */
        inFlightLanded,
        resubmitted,
        lostWrites: lost.length,
        halfApplied: halfApplied.length,
        serverErrors: serverErrors.length,
      };
      figures.push(round);
      expect(lost, JSON.stringify(round)).toEqual([]);
      expect(halfApplied, JSON.stringify(round)).toEqual([]);
      expect(serverErrors.map((o) => `${o.kind}: ${o.codes.join(',')}`)).toEqual([]);
      expect(inFlightAtKill, 'killed mid-storm').toBeGreaterThan(0);
    }

    // One more kill -9, now idle: the folder replays to exactly the same state.
    const state = async () => [
      await totalsOf(url),
      ...(await Promise.all(traders.map(view))).map((v) => [
        [...v.totals],
        v.open.map((o) => [o.id, o.status, o.executed_base_qty, o.locked_quote_qty]),
        [...v.utxos].sort(),
      ]),
    ];
    const last = await state();
    current.child.kill('SIGKILL');
    await exited(current.child);
    url = await next.open();
    moveTo(url, traders);
    expect(await state()).toEqual(last);
    next.child.kill('SIGKILL');
    console.info(`sandbox kill -9 storm ${JSON.stringify(figures)}`);
  }, 60_000);
});
