/**
 * How fast the sandbox starts, fresh and aged:
 * - time to its first line (the URL the app waits for) on a fresh data folder, as one bundle with
 *   its libraries (what the app ships) and as the same code loading them from node_modules;
 * - an aged data folder (BENCH_AGED_ORDERS orders, 100,000 by default, placed and filled through
 *   the sandbox's own state machine, journaled and compacted as in use): its size on disk, the
 *   time to the first line, and how long a page of history and a new order take there.
 * Prints one JSON line per figure. BENCH_AGED_DIR=<folder> keeps the aged folder for the next run.
 */
import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { hashApiKey } from '../../src-sandbox/api-keys.js';
import { SandboxCore } from '../../src-sandbox/sandbox-core.js';
import { report } from './measure';

const AGED_ORDERS = Number(process.env.BENCH_AGED_ORDERS ?? 100_000);
const RUNS = 5;
const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';
const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'sandbox-startup-bench-'));
const context = {
  load_average_1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  cores: cpus().length,
};

/** esbuild of the sandbox program: whole, or leaving its libraries to node_modules. */
function bundle(name: string, external: boolean): string {
  const outfile = join(external ? root : work, `${name}.mjs`);
  const built = spawnSync(
    join(root, 'node_modules/.bin/esbuild'),
    [
      'src-sandbox/cli.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${outfile}`,
      "--banner:js=import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      '--log-level=error',
      ...(external ? ['--packages=external'] : []),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(built.stderr);
  return outfile;
}

/** Milliseconds from spawning `node file` to its first stdout line; then it is stopped. */
async function firstLine(file: string, dataDir: string): Promise<{ ms: number; url: string }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [file, '--port', '0', '--data-dir', dataDir, '--no-market-maker', '--no-takers'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const ms = performance.now() - started;
  const { url, adminToken } = JSON.parse(line) as { url: string; adminToken: string };
  stopLater.set(url, child);
  tokens.set(url, adminToken);
  return { ms, url };
}
const stopLater = new Map<string, ReturnType<typeof spawn>>();
const tokens = new Map<string, string>();
async function stop(url: string): Promise<void> {
  const child = stopLater.get(url);
  if (!child) return;
  stopLater.delete(url);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const round = (x: number) => Math.round(x * 10) / 10;

// ---- fresh: bundled vs libraries from node_modules ----
const whole = bundle('sandbox-whole', false);
const split = bundle('.sandbox-bench-external', true);
try {
  const times: Record<string, number[]> = { bundled: [], node_modules: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const [kind, file] of [
      ['bundled', whole],
      ['node_modules', split],
    ] as const) {
      const dataDir = join(work, `fresh-${kind}-${i}`);
      const { ms, url } = await firstLine(file, dataDir);
      times[kind]?.push(ms);
      await stop(url);
    }
  }
  const bundled = median(times.bundled ?? []);
  const modules = median(times.node_modules ?? []);
  report('sandbox.startup.first_line_bundled', {
    value: round(bundled),
    unit: 'ms',
    runs: RUNS,
    ...context,
  });
  report('sandbox.startup.first_line_node_modules', {
    value: round(modules),
    unit: 'ms',
    runs: RUNS,
    ...context,
  });
  report('sandbox.startup.bundle_speedup', { value: round(modules / bundled), unit: '×' });
} finally {
  rmSync(split, { force: true });
}

// ---- aged: many orders placed, filled and archived through the state machine ----
await Crypto.ready();
// BENCH_AGED_DIR keeps the aged folder (and its traders' API keys beside it) for the next run,
// which starts from it instead of generating it again (some ten minutes on two cores).
const keep = process.env.BENCH_AGED_DIR;
const aged = keep ?? join(work, 'aged');
const keysFile = `${aged}.keys.json`;
const reuse = keep !== undefined && existsSync(keysFile);
const TRADERS = 32;
const apiKeys: string[] = reuse
  ? (JSON.parse(readFileSync(keysFile, 'utf8')) as string[])
  : Array.from({ length: TRADERS }, () => randomBytes(16).toString('hex'));
const generated = performance.now();
if (!reuse) {
  const core = await SandboxCore.open(aged, 1, {});
  // Enterprise testnet addresses of two traders' key hashes.
  const address = (i: number) =>
    Cardano.EnterpriseAddress.fromCredentials(Cardano.NetworkId.Testnet, {
      type: Cardano.CredentialType.KeyHash,
      hash: Crypto.Hash28ByteBase16(
        createHash('sha256').update(`trader ${i}`).digest('hex').slice(0, 56),
      ),
    })
      .toAddress()
      .toBech32()
      .toString();
  const accounts: string[] = [];
  for (let i = 0; i < TRADERS; i++) {
    const a = address(i);
    const { account_id } = await core.commit<{ account_id: string }>({
      t: 'account',
      at: core.now(),
      apiKeyHash: hashApiKey(apiKeys[i] as string),
      address: a,
      operationKeyHash: randomBytes(28).toString('hex'),
    });
    accounts.push(account_id);
    const utxo = await core.commit<{ txHash: string; index: number }>({
      t: 'faucet',
      at: core.now(),
      address: a,
      amounts: { lovelace: '1000000000000', [USDM]: '1000000000000' },
    });
    const deposit = await core.commit<{ tx_hex: string }>({
      t: 'depositBuild',
      at: core.now(),
      accountId: account_id,
      amounts: { lovelace: '900000000000', [USDM]: '900000000000' },
      inputs: [`${utxo.txHash}#${utxo.index}`],
    });
    await core.commit({
      t: 'depositSubmit',
      at: core.now(),
      txId: txId(deposit.tx_hex),
      confirmAt: 0,
    });
  }
  // Rounds of one order per trader, sells and buys at one price: every pair fills, so history
  // grows as in real use. A trader's next order spends the UTxO its last one left, so a round's
  // builds are all taken before its submits.
  for (let placed = 0; placed < AGED_ORDERS; placed += TRADERS) {
    const built = await Promise.all(
      accounts.map((accountId, i) =>
        core.commit<{ order_id: string; tx_hex: string }>({
          t: 'orderBuild',
          at: core.now(),
          accountId,
          order: {
            symbol: 'ADAUSDM',
            side: i % 2 === 0 ? 'sell' : 'buy',
            type: 'limit',
            quantity: 10,
            price: 0.65,
          },
        }),
      ),
    );
    await Promise.all(
      built.map((b) =>
        core.commit({
          t: 'orderSubmit',
          at: core.now(),
          orderId: b.order_id,
          txId: txId(b.tx_hex),
        }),
      ),
    );
  }
  await core.close();
  if (keep) writeFileSync(keysFile, JSON.stringify(apiKeys));
  report('sandbox.aged.generate_s', {
    value: round((performance.now() - generated) / 1000),
    unit: 's',
    orders: AGED_ORDERS,
  });
}
const sizes = Object.fromEntries(
  readdirSync(aged).map((name) => [
    name.replace(/-[0-9a-f]{16}/, ''),
    statSync(join(aged, name)).size,
  ]),
);
report('sandbox.aged.data_folder_kb', {
  value: Math.round(Object.values(sizes).reduce((a, b) => a + b, 0) / 1024),
  unit: 'KiB',
  orders: AGED_ORDERS,
  files: JSON.stringify(sizes),
});
const agedTimes: number[] = [];
let url = '';
for (let i = 0; i < 3; i++) {
  if (url) await stop(url);
  const started = await firstLine(whole, aged);
  agedTimes.push(started.ms);
  url = started.url;
}
report('sandbox.aged.first_line_bundled', {
  value: round(median(agedTimes)),
  unit: 'ms',
  orders: AGED_ORDERS,
  runs: agedTimes.length,
  target: '≤ 1000 ms',
  ...context,
});

// Reads on the aged sandbox, over HTTP: the newest and the oldest page of one trader's history
// (a 32nd of the orders), candles over the whole tape, the network facts.
const token = tokens.get(url) ?? '';
const key = { 'x-api-key': apiKeys[0] as string };
const timeGet = async (path: string, headers: Record<string, string> = {}) => {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    const r = await fetch(url + path, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
    samples.push(performance.now() - t0);
  }
  return median(samples);
};
const pages = Math.min(1000, Math.ceil(AGED_ORDERS / TRADERS / 250));
report('sandbox.aged.history_first_page_median', {
  value: round(await timeGet('/accounts/order-records?status=orderHistory&limit=250', key)),
  unit: 'ms',
  orders: AGED_ORDERS,
  page_size: 250,
});
report('sandbox.aged.history_last_page_median', {
  value: round(
    await timeGet(`/accounts/order-records?status=orderHistory&limit=250&page=${pages}`, key),
  ),
  unit: 'ms',
  orders: AGED_ORDERS,
  page: pages,
  page_size: 250,
});
report('sandbox.aged.candles_1h_median', {
  value: round(await timeGet('/market/graph/ADAUSDM?interval=1h')),
  unit: 'ms',
  orders: AGED_ORDERS,
});
report('sandbox.aged.network_median', {
  value: round(await timeGet('/sandbox/network', { 'x-sandbox-token': token })),
  unit: 'ms',
  orders: AGED_ORDERS,
});
await stop(url);
rmSync(work, { recursive: true, force: true });

function txId(txHex: string): string {
  return Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex)).getId();
}
