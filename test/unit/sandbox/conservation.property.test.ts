import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { USDM } from '../../../src-sandbox/assets.js';
import { SandboxError } from '../../../src-sandbox/errors.js';
import { DEFAULT_RULES, Exchange } from '../../../src-sandbox/exchange.js';
import { IdSequence } from '../../../src-sandbox/ids.js';
import type { JournalEntry } from '../../../src-sandbox/journal-entries.js';
import { isOpen } from '../../../src-sandbox/orders.js';

beforeAll(() => Crypto.ready());

function address(n: number): string {
  const hash = (b: number) => Crypto.Hash28ByteBase16(b.toString(16).padStart(2, '0').repeat(28));
  return Cardano.BaseAddress.fromCredentials(
    Cardano.NetworkId.Testnet,
    { type: Cardano.CredentialType.KeyHash, hash: hash(n + 1) },
    { type: Cardano.CredentialType.KeyHash, hash: hash(n + 100) },
  )
    .toAddress()
    .toBech32();
}

const txIdOf = (hex: string) =>
  Serialization.Transaction.fromCbor(Serialization.TxCBOR(hex)).getId();

type Step =
  | { k: 'faucet'; who: number; ada: number; usdm: number }
  | { k: 'deposit'; who: number; percent: number }
  | {
      k: 'order';
      who: number;
      side: 'buy' | 'sell';
      market: boolean;
      qty: number;
      offset: number;
      slip: number | null;
    }
  | { k: 'cancel'; who: number; pick: number }
  | { k: 'withdraw'; who: number; ada: number }
  | { k: 'maker' }
  | { k: 'wait'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    k: fc.constant('faucet' as const),
    who: fc.nat(2),
    ada: fc.integer({ min: 10, max: 5000 }),
    usdm: fc.integer({ min: 0, max: 5000 }),
  }),
  fc.record({
    k: fc.constant('deposit' as const),
    who: fc.nat(2),
    percent: fc.integer({ min: 1, max: 90 }),
  }),
  fc.record({
    k: fc.constant('order' as const),
    who: fc.nat(2),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    market: fc.boolean(),
    qty: fc.integer({ min: 1, max: 20000 }),
    offset: fc.integer({ min: -300, max: 300 }),
    slip: fc.option(fc.integer({ min: 0, max: 500 })),
  }),
  fc.record({ k: fc.constant('cancel' as const), who: fc.nat(2), pick: fc.nat(50) }),
  fc.record({
    k: fc.constant('withdraw' as const),
    who: fc.nat(2),
    ada: fc.integer({ min: 2, max: 500 }),
  }),
  fc.constant({ k: 'maker' as const }),
  fc.record({ k: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 5000 }) }),
);

/** Runs random steps, journaling what was accepted like the server does. */
function run(steps: Step[]) {
  const exchange = new Exchange(DEFAULT_RULES, new IdSequence('prop'), 7);
  const journal: JournalEntry[] = [];
  let at = 1_800_000_000_000;
  const accept = <T>(entry: JournalEntry): T | undefined => {
    try {
      const result = exchange.apply(entry) as T;
      journal.push(entry);
      return result;
    } catch (e) {
      if (!(e instanceof SandboxError)) throw e;
      return undefined;
    }
  };
  const accounts = [0, 1, 2].map(
    (n) =>
      accept<{ account_id: string }>({
        t: 'account',
        at,
        apiKey: `key${n}`,
        address: address(n),
        operationKeyHash: 'ab'.repeat(28),
      })?.account_id ?? '',
  );
  const checks: string[] = [];
  const check = () => {
    const held = exchange.holdings();
    for (const [unit, minted] of exchange.minted) {
      if ((held.get(unit) ?? 0n) !== minted)
        checks.push(`${unit}: held ${held.get(unit)} minted ${minted}`);
    }
    for (const account of exchange.engine.accounts.values()) {
      for (const [unit, b] of account.balances) {
        if (b.free < 0n || b.locked < 0n) checks.push(`${account.id} ${unit} negative`);
      }
    }
  };
  for (const s of steps) {
    at += 10;
    const who = s.k === 'maker' || s.k === 'wait' ? '' : (accounts[s.who] as string);
    switch (s.k) {
      case 'faucet': {
        const amounts: Record<string, string> = { lovelace: String(s.ada * 1_000_000) };
        if (s.usdm) amounts[USDM.unit] = String(s.usdm * 1_000_000);
        accept({ t: 'faucet', at, address: address(s.who), amounts });
        break;
      }
      case 'deposit': {
        const utxos = exchange.l1.at(address(s.who));
        const total = utxos.reduce((sum, u) => sum + (u.amounts.get('lovelace') ?? 0n), 0n);
        const amount = (total * BigInt(s.percent)) / 100n;
        const built = accept<{ tx_hex: string }>({
          t: 'depositBuild',
          at,
          accountId: who,
          amounts: {
            lovelace: amount.toString(),
            ...(s.percent % 2 ? { [USDM.unit]: '1000000' } : {}),
          },
          inputs: utxos.map((u) => `${u.txHash}#${u.index}`),
        });
        if (built)
          accept({ t: 'depositSubmit', at, txId: txIdOf(built.tx_hex), confirmAt: at + 1000 });
        break;
      }
      case 'order': {
        const price = Math.max(0.0001, (6500 + s.offset) / 10000);
        const built = accept<{ order_id: string; tx_hex: string }>({
          t: 'orderBuild',
          at,
          accountId: who,
          order: s.market
            ? {
                symbol: 'ADAUSDM',
                side: s.side,
                type: 'market',
                quantity: s.qty / 10,
                ...(s.slip === null
                  ? {}
                  : { limit_slippage: true, max_slippage_basis_point: s.slip }),
              }
            : { symbol: 'ADAUSDM', side: s.side, type: 'limit', quantity: s.qty / 10, price },
        });
        if (built)
          accept({ t: 'orderSubmit', at, orderId: built.order_id, txId: txIdOf(built.tx_hex) });
        break;
      }
      case 'cancel': {
        const open = exchange.ordersOf(who).filter(isOpen);
        const order = open[s.pick % Math.max(1, open.length)];
        if (!order) break;
        const built = accept<{ tx_hex: string }>({
          t: 'cancelBuild',
          at,
          accountId: who,
          orderId: order.id,
        });
        if (built) accept({ t: 'cancelSubmit', at, txId: txIdOf(built.tx_hex) });
        break;
      }
      case 'withdraw': {
        const built = accept<{ tx_hex: string }>({
          t: 'withdrawalBuild',
          at,
          accountId: who,
          amounts: { lovelace: String(s.ada * 1_000_000) },
        });
        if (built)
          accept({ t: 'withdrawalSubmit', at, txId: txIdOf(built.tx_hex), settleAt: at + 2000 });
        break;
      }
      case 'maker':
        accept({ t: 'marketMaker', at });
        break;
      case 'wait':
        at += s.ms;
        exchange.settle(at);
        break;
    }
    check();
  }
  return { exchange, journal, checks, at };
}

function fingerprint(exchange: Exchange, at: number) {
  exchange.settle(at);
  return {
    held: [...exchange.holdings()].map(([u, q]) => `${u}:${q}`).sort(),
    balances: [...exchange.engine.accounts.values()].map((a) => [
      a.id,
      [...a.balances]
        .filter(([, b]) => b.free !== 0n || b.locked !== 0n)
        .map(([u, b]) => `${u}:${b.free}/${b.locked}`)
        .sort(),
    ]),
    orders: [...exchange.engine.orders.values()].map(
      (o) =>
        `${o.id}:${o.status}:${o.executedBase}:${o.remaining}:${o.executions.map((e) => e.id).join(',')}`,
    ),
    utxos: [0, 1, 2].map((n) => exchange.l1.at(address(n)).map((u) => `${u.txHash}#${u.index}`)),
  };
}

describe('conservation', () => {
  it('the sum of every asset over L1, accounts, fees, withdrawals in flight and L1 fees equals what was minted', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const { checks } = run([
          { k: 'faucet', who: 0, ada: 3000, usdm: 3000 },
          { k: 'deposit', who: 0, percent: 50 },
          { k: 'maker' },
          ...steps,
        ]);
        expect(checks).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('a fixed session with fills, cancels, deposits and withdrawals conserves every asset', () => {
    const { exchange, checks } = run([
      { k: 'faucet', who: 0, ada: 3000, usdm: 3000 },
      { k: 'faucet', who: 1, ada: 3000, usdm: 3000 },
      { k: 'deposit', who: 0, percent: 80 },
      { k: 'deposit', who: 1, percent: 81 },
      { k: 'wait', ms: 2000 },
      { k: 'maker' },
      { k: 'order', who: 0, side: 'buy', market: true, qty: 1000, offset: 0, slip: null },
      { k: 'order', who: 1, side: 'sell', market: false, qty: 2000, offset: -200, slip: null },
      { k: 'order', who: 0, side: 'buy', market: false, qty: 500, offset: -100, slip: null },
      { k: 'order', who: 1, side: 'sell', market: true, qty: 300, offset: 0, slip: 50 },
      { k: 'cancel', who: 0, pick: 0 },
      { k: 'withdraw', who: 0, ada: 100 },
      { k: 'wait', ms: 3000 },
    ]);
    expect(checks).toEqual([]);
    const fills = [...exchange.engine.orders.values()].reduce((n, o) => n + o.executions.length, 0);
    expect(fills).toBeGreaterThan(3);
    expect(exchange.burned.get('lovelace') ?? 0n).toBeGreaterThan(0n);
    expect(exchange.engine.fees.get('lovelace') ?? 0n).toBeGreaterThan(0n);
  });

  it('replaying the accepted entries rebuilds the same state (ids, fills, balances, UTxOs)', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const { exchange, journal, at } = run([
          { k: 'faucet', who: 1, ada: 3000, usdm: 3000 },
          { k: 'deposit', who: 1, percent: 60 },
          { k: 'maker' },
          ...steps,
        ]);
        const replayed = new Exchange(DEFAULT_RULES, new IdSequence('prop'), 7);
        for (const entry of journal) replayed.apply(entry);
        expect(fingerprint(replayed, at)).toEqual(fingerprint(exchange, at));
      }),
      { numRuns: 30 },
    );
  });
});
