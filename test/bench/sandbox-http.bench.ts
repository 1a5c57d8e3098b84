/**
 * Signed orders per second over HTTP: 8 concurrent clients, each its own HD wallet and account,
 * each order built, then checked and signed through the app's real signing path (the
 * `TransactionSigner`: decode, intent check against the typed terms, operation key, witness
 * added without re-encoding the body) and submitted, against the sandbox CLI running as a child
 * process (journal fsync included). Only the key sources are the bench's own (keys held in
 * memory instead of the keychain). Prints one JSON line per figure.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import {
  TransactionSigner,
  type CancelOrderIntent,
  type PlaceOrderIntent,
} from '../../src-main/signing';
import {
  accountKeyOf,
  addressesOf,
  cryptoIsReady,
  paymentSigningKeyOf,
  rootKeyFromEntropy,
  SigningKey,
  type WalletRecord,
} from '../../src-main/wallet';
import { SandboxTrader, USDM_UNIT } from '../fixtures/cardano/sandbox-session';
import { quietSandboxArgs, sourceSandboxCommand } from '../harness/sandbox-command';

const CLIENTS = 8;
const WARMUP_MS = 3_000;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;

await cryptoIsReady();
const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const child = spawn(
  sourceSandboxCommand.command,
  [
    ...(process.env.BENCH_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...sourceSandboxCommand.args,
    ...quietSandboxArgs(dataDir),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const firstLine = await new Promise<string>((resolve) =>
  createInterface({ input: child.stdout }).once('line', resolve),
);
const { url, adminToken } = JSON.parse(firstLine) as { url: string; adminToken?: string };

const pool = new Pool(url, { connections: CLIENTS * 2 });

/** A fresh HD wallet (CIP-1852) with an operation key, and the app's signer over them. */
const walletOf = () => {
  const account = accountKeyOf(rootKeyFromEntropy(randomBytes(32)));
  const addresses = addressesOf(account.toPublic(), 0);
  const payment = new SigningKey(Buffer.from(paymentSigningKeyOf(account)));
  const operation = new SigningKey(Buffer.from(account.derive([2, 0]).toRawKey().bytes()));
  const record: WalletRecord = {
    id: '00000000-0000-4000-8000-000000000000',
    name: 'Bench',
    kind: 'full',
    accountPublicKey: account.toPublic().hex(),
    operationKeyHash: operation.keyHash,
    createdAt: new Date().toISOString(),
  };
  const signer = new TransactionSigner({
    session: { withOperationKey: (use) => use(operation) },
    secrets: { openPaymentKey: () => Promise.resolve(payment) },
    book: { active: () => Promise.resolve(record) },
    attempts: { guard: (check) => check() },
  });
  return { addresses, operation, signer };
};

const traders: SandboxTrader[] = [];
async function client(index: number) {
  const wallet = walletOf();
  const trader = await new SandboxTrader(
    url,
    wallet.addresses.baseAddress,
    wallet.operation.keyHash,
    adminToken,
  ).join();
  traders.push(trader);
  const coins = await trader.faucet(1_000_000_000_000n, 1_000_000_000_000n);
  const deposit = await trader.buildDeposit(
    new Map([
      ['lovelace', 999_000_000_000n],
      [USDM_UNIT, 999_000_000_000n],
    ]),
    [coins],
  );
  const signedDeposit = await wallet.signer.signFunds(
    deposit.txHex,
    deposit.intent,
    trader.profile,
    'in-memory key',
  );
  await trader.submitFunds('deposit', signedDeposit.signedTxHex);
  const side = index % 2 === 0 ? 'buy' : 'sell';
  const signTrade = (txHex: string, intent: PlaceOrderIntent | CancelOrderIntent) =>
    wallet.signer.signTrade(txHex, intent, trader.profile).then((s) => s.signedTxHex);
  return async (): Promise<boolean> => {
    let built: Awaited<ReturnType<SandboxTrader['buildLimitOrder']>>;
    try {
      built = await trader.buildLimitOrder({ side, quantity: '10', price: '0.65' });
    } catch (error) {
      if (String(error).includes('4110')) {
        const open = await pool.request({
          path: '/accounts/order-records?status=open&limit=250',
          method: 'GET',
          headers: { 'x-api-key': trader.apiKey },
        });
        const page = (await open.body.json()) as {
          data: { orders: { id: string; active_order_utxo_id?: string }[] }[];
        };
        for (const o of page.data[0]?.orders ?? []) {
          const c = await trader.call<{ tx_hex: string }>('DELETE', `/order/${o.id}/build`);
          if (c.status === 200 && o.active_order_utxo_id) {
            const signed = await signTrade(c.body.tx_hex, {
              kind: 'cancel-order',
              orderId: o.id,
              orderUtxo: o.active_order_utxo_id,
            });
            await trader.call('DELETE', '/order/submit', { signed_tx: signed });
          }
        }
      }
      return false;
    }
    const signed = await signTrade(built.txHex, built.intent);
    const submitted = await trader.submitOrder(built.orderId, signed);
    return submitted.status === 200;
  };
}

const placeOrders = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
const latencies: number[] = [];
let failures = 0;
let measuring = false;
let stop = false;
const loops = placeOrders.map(async (place) => {
  while (!stop) {
    const t0 = performance.now();
    const ok = await place();
    if (!measuring) continue;
    if (ok) latencies.push(performance.now() - t0);
    else failures++;
  }
});
await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
measuring = true;
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
measuring = false;
const seconds = (performance.now() - started) / 1000;
stop = true;
await Promise.all(loops);
const exited =
  child.exitCode === null && child.signalCode === null
    ? new Promise((resolve) => child.once('exit', resolve))
    : Promise.resolve();
child.kill('SIGTERM');
await pool.close();
await Promise.all(traders.map((t) => t.close()));
await exited;
rmSync(dataDir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const at = (p: number) =>
  Number(
    (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(2),
  );
const extra = {
  clients: CLIENTS,
  signing: 'the app’s TransactionSigner (decode, intent check, operation key)',
  seconds: Number(seconds.toFixed(1)),
  orders: latencies.length,
  refused: failures,
  journal: 'fdatasync per group commit',
  load_average_1m: Number(loadavg()[0]?.toFixed(2)),
  cores: cpus().length,
};
console.log(
  JSON.stringify({
    bench: 'sandbox.http.signed_orders_per_s',
    value: Math.round(latencies.length / seconds),
    unit: 'ops/s',
    ...extra,
  }),
);
console.log(
  JSON.stringify({ bench: 'sandbox.http.order_latency_p50', value: at(0.5), unit: 'ms', ...extra }),
);
console.log(
  JSON.stringify({
    bench: 'sandbox.http.order_latency_p99',
    value: at(0.99),
    unit: 'ms',
    ...extra,
  }),
);
