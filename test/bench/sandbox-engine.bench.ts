/**
 * Matching engine throughput in-process: a mix of resting limit orders, crossing orders and
 * cancels on ADAUSDM, from 100 accounts, the book held at ≤ 10,000 resting orders. Prints one
 * JSON line per figure.
 */
import { loadavg } from 'node:os';
import { MARKETS, type Market } from '../../src-sandbox/assets.js';
import { MatchingEngine } from '../../src-sandbox/engine.js';
import { IdSequence, nextRandom } from '../../src-sandbox/ids.js';

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 1_000_000);
const ACCOUNTS = 100;
/** The book is kept to a realistic depth: past this many resting orders, cancel instead. */
const MAX_RESTING = 10_000;
const market = MARKETS[0] as Market;

function runOnce(operations: number, cheapIds: boolean) {
  const ids = new IdSequence('bench');
  let counter = 0;
  const nextId = cheapIds ? () => `id-${counter++}` : () => ids.uuid();
  const engine = new MatchingEngine(nextId);
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `account-${i}`);
  for (const a of accounts) {
    engine.balance(a, market.base.unit).free = 10n ** 18n;
    engine.balance(a, market.quote.unit).free = 10n ** 18n;
  }
  const random = { seed: 42 };
  const resting: string[] = [];
  let places = 0;
  let crossings = 0;
  let cancels = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < operations; i++) {
    const r = nextRandom(random);
    const account = accounts[i % ACCOUNTS] as string;
    if ((r < 0.2 || resting.length >= MAX_RESTING) && resting.length > 0) {
      const index = Math.floor(nextRandom(random) * resting.length);
      const id = resting[index] as string;
      resting[index] = resting[resting.length - 1] as string;
      resting.pop();
      if (engine.orders.get(id)?.resting) engine.cancelOrder(id, i);
      engine.orders.delete(id);
      cancels++;
      continue;
    }
    const buy = nextRandom(random) < 0.5;
    const crossing = r > 0.8;
    const offset = BigInt(1 + Math.floor(nextRandom(random) * 50));
    const priceTicks = crossing
      ? buy
        ? 6_500n + 20n
        : 6_500n - 20n
      : buy
        ? 6_500n - offset
        : 6_500n + offset;
    const order = engine.placeOrder({
      id: nextId(),
      accountId: account,
      market,
      side: buy ? 'buy' : 'sell',
      type: 'limit',
      quantity: BigInt(10 + Math.floor(nextRandom(random) * 100)) * 1_000_000n,
      priceTicks,
      marketLimitTicks: null,
      slippageBp: 0,
      postOnly: false,
      commissionRateBp: 10,
      utxoId: 'bench#0',
      at: i,
    });
    if (order.resting) resting.push(order.id);
    else engine.orders.delete(order.id);
    if (crossing) crossings++;
    else places++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, places, crossings, cancels, resting: resting.length };
}

runOnce(100_000, false); // warm-up
for (const cheapIds of [false, true]) {
  const r = runOnce(OPERATIONS, cheapIds);
  console.log(
    JSON.stringify({
      bench: cheapIds ? 'sandbox.engine.orders_per_s_counter_ids' : 'sandbox.engine.orders_per_s',
      value: Math.round(OPERATIONS / r.seconds),
      unit: 'ops/s',
      operations: OPERATIONS,
      places: r.places,
      crossing: r.crossings,
      cancels: r.cancels,
      resting_at_end: r.resting,
      load_average_1m: Number(loadavg()[0]?.toFixed(2)),
      ids: cheapIds ? 'plain counter strings' : 'IdSequence UUIDs, as the sandbox runs',
    }),
  );
}
