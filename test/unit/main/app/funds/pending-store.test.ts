import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PendingFundsStore,
  type PendingState,
} from '../../../../../src-main/app/funds/pending-store';
import { Money } from '../../../../../src-shared/money';

let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-pending-funds-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const USDM = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d';
const WALLET = '6f1c2f64-8f0f-4d59-9d55-3a3f4c7a1e01';

const state = (): PendingState => ({
  pending: [
    {
      kind: 'deposit',
      title: 'Deposit 120.5 ADA + 7 USDM',
      network: 'sandbox',
      walletId: WALLET,
      amounts: new Map([
        ['lovelace', 120_500_000n],
        [USDM, 7_000_000n],
      ]),
      totalBefore: new Map([
        ['lovelace', new Money('2000.123456')],
        [USDM, new Money('0')],
      ]),
      txHash: 'ab'.repeat(32),
      submittedAt: '2026-11-26T07:00:00.000Z',
      submittedAtMs: Date.parse('2026-11-26T07:00:00.000Z'),
    },
  ],
  expected: new Map([
    [
      'op-1',
      {
        kind: 'withdrawal',
        title: 'Withdraw 50 ADA',
        network: 'production',
        walletId: WALLET,
        amounts: new Map([['lovelace', 50_000_000n]]),
        totalBefore: new Map(),
      },
    ],
  ]),
  waiting: new Map([
    [
      'op-2',
      {
        txHex: '84a4'.repeat(40),
        expiresAt: Date.parse('2026-11-26T10:00:00.000Z'),
        intent: {
          kind: 'deposit',
          amounts: new Map([['lovelace', 20_000_000n]]),
          inputs: new Map([
            [
              `${'cd'.repeat(32)}#1`,
              {
                address: 'addr_test1qqy6abc',
                amounts: new Map([
                  ['lovelace', 9_999_000_000n],
                  [USDM, 10_000_000_000n],
                ]),
              },
            ],
          ]),
        },
      },
    ],
    [
      'op-3',
      {
        txHex: '84a5'.repeat(40),
        expiresAt: Date.parse('2026-11-26T11:00:00.000Z'),
        intent: {
          kind: 'withdrawal',
          amounts: new Map([['lovelace', 5_000_000n]]),
          statedFeeLovelace: 1_000_000n,
        },
      },
    ],
  ]),
});

/** Maps and bigints as plain values, for a deep comparison. */
const flat = (value: unknown): unknown =>
  value instanceof Map
    ? [...value].map(([k, v]) => [k, flat(v)])
    : typeof value === 'bigint'
      ? value.toString()
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, flat(v)]))
        : value;

/** The state as plain values: amounts exact, decimals as their exact text. */
const plain = (s: PendingState) => ({
  pending: s.pending.map((p) => ({
    ...p,
    amounts: [...p.amounts].map(([u, q]) => [u, q.toString()]),
    totalBefore: [...p.totalBefore].map(([u, t]) => [u, t.toFixed()]),
  })),
  expected: [...s.expected].map(([id, e]) => ({
    id,
    ...e,
    amounts: [...e.amounts].map(([u, q]) => [u, q.toString()]),
    totalBefore: [...e.totalBefore].map(([u, t]) => [u, t.toFixed()]),
  })),
  waiting: flat(s.waiting),
});

describe('the deposits and withdrawals on their way, on disk', () => {
  it('come back after a restart exactly as they were saved', async () => {
    await new PendingFundsStore(dataDir).save(state());
    const loaded = await new PendingFundsStore(dataDir).load();
    expect(plain(loaded)).toEqual(plain(state()));
    expect(loaded.pending[0]?.amounts.get('lovelace')).toBe(120_500_000n);
    expect(loaded.pending[0]?.totalBefore.get('lovelace')?.eq('2000.123456')).toBe(true);
  });

  it('keep what waits for an offline signature: the transaction and exactly what was asked', async () => {
    await new PendingFundsStore(dataDir).save(state());
    const loaded = await new PendingFundsStore(dataDir).load();
    const deposit = loaded.waiting.get('op-2');
    expect(deposit?.intent.kind === 'deposit' && [...deposit.intent.inputs.keys()]).toEqual([
      `${'cd'.repeat(32)}#1`,
    ]);
    const withdrawal = loaded.waiting.get('op-3')?.intent;
    expect(withdrawal?.kind === 'withdrawal' && withdrawal.statedFeeLovelace).toBe(1_000_000n);
  });

  it('read a file written before anything waited for a signature', async () => {
    const file = join(dataDir, 'funds', 'pending.json');
    await new PendingFundsStore(dataDir).save(state());
    const { waiting: _, ...older } = JSON.parse(await readFile(file, 'utf8')) as Record<
      string,
      unknown
    >;
    await writeFile(file, JSON.stringify(older));
    const store = new PendingFundsStore(dataDir);
    const loaded = await store.load();
    expect(loaded.pending).toHaveLength(1);
    expect(loaded.waiting.size).toBe(0);
    expect(store.notice()).toBeNull();
  });

  it('start empty on a first run', async () => {
    const loaded = await new PendingFundsStore(dataDir).load();
    expect(loaded.pending).toEqual([]);
    expect(loaded.expected.size).toBe(0);
  });

  it.each([
    ['not JSON', '{"version": 1, "pending": ['],
    [
      'a deposit without its transaction',
      JSON.stringify({
        version: 1,
        pending: [{ ...plain(state()).pending[0], txHash: 'not a hash' }],
        expected: [],
      }),
    ],
  ])(
    'when the file is damaged (%s): it is moved aside, the list starts empty, and the trader is told in words',
    async (_what, content) => {
      await mkdir(join(dataDir, 'funds'), { recursive: true });
      await writeFile(join(dataDir, 'funds', 'pending.json'), content);
      const store = new PendingFundsStore(dataDir);
      const loaded = await store.load();
      expect(loaded.pending).toEqual([]);
      const notice = store.notice() ?? '';
      expect(notice).toMatch(/could not be read/);
      expect(notice).toMatch(/Your funds are not affected/);
      expect(notice).not.toContain(dataDir);
      const files = await readdir(join(dataDir, 'funds'));
      expect(files.filter((f) => f.startsWith('pending.json.damaged-'))).toHaveLength(1);
      // And the next save writes a good file again.
      await store.save(state());
      expect(plain(await new PendingFundsStore(dataDir).load())).toEqual(plain(state()));
    },
  );
});
