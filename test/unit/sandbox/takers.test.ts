import { cpSync, rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MARKETS } from '../../../src-sandbox/assets.js';
import { SandboxCore, type CompactionPolicy } from '../../../src-sandbox/sandbox-core.js';
import { MARKET_MAKER_ACCOUNT } from '../../../src-sandbox/market-maker.js';
import { TAKERS_ACCOUNT } from '../../../src-sandbox/takers.js';
import { Trader, USDM_UNIT, readyCrypto, tempDir, txId } from './helpers.js';

/**
 * The simulated takers trade from a generator seeded by the data folder's seed and kept in its
 * state: the same seed and the same journal give the same trades, and a restart (from the journal
 * alone, from a snapshot, or from what a kill -9 leaves on disk) goes on with the same sequence.
 * The inputs are journal entries with fixed times, committed as the HTTP routes commit them.
 */

beforeAll(readyCrypto);

const T0 = 1_900_000_000_000;
const TICKS = 60;
/** One trader, the same in every run: its sell rests just over the market maker's best bid. */
const trader = new Trader('');

type Step = (core: SandboxCore, at: number) => Promise<void>;

/** The trader's part: an account, coins, a deposit and a sell resting just over the best bid. */
const traderSteps = (): Step[] => {
  let accountId = '';
  let utxo = '';
  let deposit = '';
  let order: { order_id: string; tx_hex: string } | undefined;
  return [
    async (core, at) => {
      ({ account_id: accountId } = await core.commit<{ account_id: string }>({
        t: 'account',
        at,
        apiKeyHash: 'a'.repeat(64),
        address: trader.address,
        operationKeyHash: trader.operation.hash,
      }));
    },
    async (core, at) => {
      const paid = await core.commit<{ txHash: string; index: number }>({
        t: 'faucet',
        at,
        address: trader.address,
        amounts: { lovelace: '5000000000', [USDM_UNIT]: '5000000000' },
      });
      utxo = `${paid.txHash}#${paid.index}`;
    },
    async (core, at) => {
      deposit = txId(
        (
          await core.commit<{ tx_hex: string }>({
            t: 'depositBuild',
            at,
            accountId,
            amounts: { lovelace: '4000000000', [USDM_UNIT]: '4000000000' },
            inputs: [utxo],
          })
        ).tx_hex,
      );
    },
    async (core, at) => {
      await core.commit({ t: 'depositSubmit', at, txId: deposit, confirmAt: at });
    },
    async (core, at) => {
      // Just over the best bid: the best ask by far, the first a taker's buy meets.
      const bid = core.current().engine.book('ADAUSDM').bids.best()?.price ?? 6400n;
      order = await core.commit<{ order_id: string; tx_hex: string }>({
        t: 'orderBuild',
        at,
        accountId,
        order: {
          symbol: 'ADAUSDM',
          side: 'sell',
          type: 'limit',
          quantity: 400,
          price: Number(bid + 1n) / 10_000,
        },
      });
    },
    async (core, at) => {
      if (!order) throw new Error('the order was not built');
      await core.commit({
        t: 'orderSubmit',
        at,
        orderId: order.order_id,
        txId: txId(order.tx_hex),
      });
    },
  ];
};

/**
 * The whole run as steps, each with its time: a market maker tick every 2 s, and after it, on
 * two ticks of three, a taker; the trader's steps come on the first ticks.
 */
const script = (): Array<{ at: number; step: Step }> => {
  const steps: Array<{ at: number; step: Step }> = [];
  const mine = traderSteps();
  for (let i = 0; i < TICKS; i++) {
    const at = T0 + i * 2000;
    steps.push({
      at,
      step: async (core, when) => void (await core.commit({ t: 'marketMaker', at: when })),
    });
    const own = mine[i];
    if (own) steps.push({ at: at + 1, step: own });
    if (i % 3 !== 2) {
      steps.push({
        at: at + 2,
        step: async (core, when) => void (await core.commit({ t: 'taker', at: when })),
      });
    }
  }
  return steps;
};

/** Every trade on the tape (both markets) and what the trader's account holds. */
const tape = (core: SandboxCore) => {
  const exchange = core.current();
  const account = [...exchange.engine.accounts.keys()].find(
    (id) => id !== TAKERS_ACCOUNT && id !== MARKET_MAKER_ACCOUNT,
  );
  const ada = account ? exchange.engine.balance(account, 'lovelace') : undefined;
  return {
    trades: MARKETS.map((m) =>
      exchange.engine
        .trades(m.symbol)
        .map((t) => `${m.symbol} ${t.at} ${t.takerSide} ${t.priceTicks} ${t.baseUnits}`),
    ),
    trader: account
      ? ['lovelace', USDM_UNIT].map((unit) => {
          const b = exchange.engine.balance(account, unit);
          return `${b.free}/${b.locked}`;
        })
      : [],
    /** Lovelace the trader's resting sell has sold (commission is paid in USDM). */
    sold: ada ? 4_000_000_000n - ada.free - ada.locked : 0n,
  };
};

interface RunOptions {
  seed?: number;
  compaction?: CompactionPolicy;
  /** After this many steps: `close` (a clean stop), or `crash` (reopen a copy of the folder as a kill -9 leaves it). */
  restart?: { after: number; how: 'close' | 'crash' };
}

const run = async ({ seed = 7, compaction, restart }: RunOptions = {}) => {
  let dataDir = tempDir();
  const folders = [dataDir];
  // A data folder keeps the seed it was made with: the restart is given another one.
  const open = (given = seed) => SandboxCore.open(dataDir, given, {}, compaction);
  let core = await open();
  const steps = script();
  let restarted = false;
  for (const [i, { at, step }] of steps.entries()) {
    if (restart && i === restart.after) {
      if (restart.how === 'close') {
        await core.close();
      } else {
        // Every commit was awaited, so its line is on disk; once a snapshot being written is done
        // too, a copy of the folder is what a kill -9 here leaves behind (never closed, no final
        // snapshot: the copy has the lock file of a process that is gone).
        await core.synced();
        const copy = tempDir();
        folders.push(copy);
        cpSync(dataDir, copy, { recursive: true });
        await core.close();
        dataDir = copy;
      }
      core = await open(seed + 1000);
      restarted = true;
    }
    await step(core, at);
  }
  const result = tape(core);
  await core.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  return { ...result, restarted };
};

describe('simulated takers', () => {
  it('trade the same from the same seed and inputs, and differently from another seed', async () => {
    const a = await run();
    const b = await run();
    const takerTrades = a.trades.flat().length;
    console.info(
      `takers: ${JSON.stringify({ trades: takerTrades, ticks: TICKS, soldLovelace: `${a.sold}` })}`,
    );
    // Not an empty tape: both markets traded, and the trader's resting sell was filled (in part).
    expect(a.trades.every((market) => market.length > 0)).toBe(true);
    expect(a.sold).toBeGreaterThan(0n);
    expect(b).toEqual(a);
    const other = await run({ seed: 8 });
    expect(other.trades).not.toEqual(a.trades);
  });

  it.each([
    { what: 'from the journal alone', how: 'close' as const, compaction: undefined },
    {
      what: 'from a snapshot (the generator is in it)',
      how: 'close' as const,
      compaction: { entries: 10, bytes: 1 << 20 },
    },
    {
      what: 'after a kill -9 (the folder as it was left)',
      how: 'crash' as const,
      compaction: undefined,
    },
    {
      what: 'after a kill -9 with snapshots written',
      how: 'crash' as const,
      compaction: { entries: 7, bytes: 1 << 20 },
    },
  ])('go on with the same sequence after a restart $what', async ({ how, compaction }) => {
    const straight = await run({ ...(compaction ? { compaction } : {}) });
    for (const after of [37, 90]) {
      const restarted = await run({
        restart: { after, how },
        ...(compaction ? { compaction } : {}),
      });
      expect(restarted.restarted).toBe(true);
      expect(restarted.trades).toEqual(straight.trades);
      expect(restarted.trader).toEqual(straight.trader);
    }
  });
});
