/**
 * Signed orders per second over HTTP: 8 concurrent clients, each its own account, each order
 * built, signed with the operation key (Ed25519 over blake2b-256 of the body bytes) and
 * submitted, against the sandbox CLI running as a child process (journal fsync included).
 * Prints one JSON line per figure.
 */
import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { spawn } from 'node:child_process';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { quietSandboxArgs, sourceSandboxCommand } from '../harness/sandbox-command';

const CLIENTS = 8;
const WARMUP_MS = 3_000;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;
const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';

await Crypto.ready();
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
const { url, adminToken } = JSON.parse(firstLine) as { url: string; adminToken: string };

const pool = new Pool(url, { connections: CLIENTS * 2 });

async function post<T>(
  path: string,
  body: unknown,
  key?: string,
  method: 'POST' | 'DELETE' = 'POST',
): Promise<{ status: number; body: T }> {
  const response = await pool.request({
    path,
    method,
    headers: {
      'content-type': 'application/json',
      ...(key ? { 'x-api-key': key } : {}),
      // The sandbox-only routes need the per-run admin token it printed.
      ...(path.startsWith('/sandbox/') ? { 'x-sandbox-token': adminToken } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: (await response.body.json()) as T };
}

/** Ed25519 key with node:crypto for speed; the same bytes the SDK would produce. */
class Key {
  readonly seed = randomBytes(32);
  readonly sdk = Crypto.Ed25519PrivateKey.fromNormalBytes(this.seed);
  readonly vkey = this.sdk.toPublic().hex();
  readonly hash = this.sdk.toPublic().hash().hex();
  private readonly key = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), this.seed]),
    format: 'der',
    type: 'pkcs8',
  });

  /** The unsigned tx is [body, {}, true, null]: sign the body's hash, add one vkey witness. */
  signTx(txHex: string): string {
    let body: string;
    if (txHex.startsWith('84') && txHex.endsWith('a0f5f6')) {
      body = txHex.slice(2, -6); // [body, {}, true, null]: the body is everything in between
    } else {
      const reader = new Serialization.CborReader(HexBlob(txHex));
      reader.readStartArray();
      body = Buffer.from(reader.readEncodedValue()).toString('hex');
    }
    const id = Crypto.blake2b.hash(HexBlob(body), 32);
    const signature = sign(null, Buffer.from(id, 'hex'), this.key).toString('hex');
    return `84${body}a10081825820${this.vkey}5840${signature}f5f6`;
  }
}

async function client(index: number) {
  const wallet = new Key();
  const operation = new Key();
  const address = Cardano.EnterpriseAddress.fromCredentials(Cardano.NetworkId.Testnet, {
    type: Cardano.CredentialType.KeyHash,
    hash: Crypto.Hash28ByteBase16(wallet.hash),
  })
    .toAddress()
    .toBech32();
  const account = await post<{ api_key: string }>('/sandbox/accounts', {
    address,
    operation_key_hash: operation.hash,
  });
  const key = account.body.api_key;
  const utxo = await post<unknown>('/sandbox/faucet', {
    address,
    amount: [
      { unit: 'lovelace', quantity: '1000000000000' },
      { unit: USDM, quantity: '1000000000000' },
    ],
  });
  const deposit = await post<{ tx_hex: string }>(
    '/accounts/deposit/build',
    {
      deposit_amount: [
        { unit: 'lovelace', quantity: '999000000000' },
        { unit: USDM, quantity: '999000000000' },
      ],
      input_utxos: [utxo.body],
    },
    key,
  );
  await post('/accounts/deposit/submit', { signed_tx: wallet.signTx(deposit.body.tx_hex) }, key);
  const side = index % 2 === 0 ? 'buy' : 'sell';
  return async (): Promise<boolean> => {
    const built = await post<{ order_id: string; tx_hex: string; code?: number }>(
      '/order/build',
      { symbol: 'ADAUSDM', side, type: 'limit', quantity: 10, price: 0.65 },
      key,
    );
    if (built.status !== 200) {
      if (built.body.code === 4110) {
        const open = await pool.request({
          path: '/accounts/order-records?status=open&limit=250',
          method: 'GET',
          headers: { 'x-api-key': key },
        });
        const page = (await open.body.json()) as { data: { orders: { id: string }[] }[] };
        for (const o of page.data[0]?.orders ?? []) {
          const c = await post<{ tx_hex: string }>(
            `/order/${o.id}/build`,
            undefined,
            key,
            'DELETE',
          );
          if (c.status === 200)
            await post(
              '/order/submit',
              { signed_tx: operation.signTx(c.body.tx_hex) },
              key,
              'DELETE',
            );
        }
      }
      return false;
    }
    const submitted = await post(
      '/order/submit',
      { order_id: built.body.order_id, signed_tx: operation.signTx(built.body.tx_hex) },
      key,
    );
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
child.kill('SIGTERM');
await pool.close();

latencies.sort((a, b) => a - b);
const at = (p: number) =>
  Number(
    (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(2),
  );
const extra = {
  clients: CLIENTS,
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
