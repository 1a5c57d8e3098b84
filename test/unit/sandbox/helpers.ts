import { Cardano, Serialization } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll } from 'vitest';
import {
  startSandbox,
  type RunningSandbox,
  type SandboxOptions,
} from '../../../src-sandbox/index.js';

export const USDM_UNIT = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';

/** The folders this test file made, removed once its tests (and their own cleanup) are done. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  made.push(dir);
  return dir;
}

export interface TestSandbox extends RunningSandbox {
  dataDir: string;
}

/** Admin tokens of the sandboxes the tests started, by URL: `call` sends them on /sandbox/*. */
const adminTokens = new Map<string, string>();

export function rememberAdminToken(url: string, adminToken: string): void {
  adminTokens.set(url, adminToken);
}

/** A sandbox on 127.0.0.1:0 with no market maker, takers, past trades or delays unless asked. */
export async function startTestSandbox(
  options: Partial<SandboxOptions> = {},
): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? tempDir();
  const sandbox = await startSandbox({
    marketMaker: false,
    takers: false,
    history: false,
    confirmationDelayMs: 0,
    withdrawalDelayMs: 0,
    rateLimit: false,
    ...options,
    dataDir,
  });
  rememberAdminToken(sandbox.url, sandbox.adminToken);
  return { ...sandbox, dataDir };
}

/** What the sandbox program prints as its first line. */
export interface Announcement {
  url: string;
  adminToken: string;
  notice?: string;
}

/**
 * Runs the sandbox program as a child process (`command` + `args`, then the data folder's
 * flags) and resolves with its first line once printed; its admin token is remembered for `call`.
 */
export async function spawnSandboxProcess(
  command: { command: string; args: readonly string[] },
  args: readonly string[],
  cwd = process.cwd(),
): Promise<Announcement & { child: ChildProcess }> {
  const child = spawn(command.command, [...command.args, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const announced = JSON.parse(first) as Announcement;
  rememberAdminToken(announced.url, announced.adminToken);
  return { ...announced, child };
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/**
 * One HTTP call; JSON in and out (text kept for the plain-text 404). On `/sandbox/*` it sends
 * the sandbox's admin token, unless `adminToken: false`.
 */
export async function call<T = unknown>(
  url: string,
  method: string,
  path: string,
  options: {
    key?: string;
    body?: unknown;
    headers?: Record<string, string>;
    adminToken?: boolean;
  } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  const token = adminTokens.get(url);
  if (path.startsWith('/sandbox/') && token && options.adminToken !== false) {
    headers['x-sandbox-token'] = token;
  }
  Object.assign(headers, options.headers);
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body: body as T, text, headers: response.headers };
}

/** A key pair signing with @cardano-sdk directly. */
export class TestKey {
  readonly privateKey: Crypto.Ed25519PrivateKey;
  readonly publicKeyHex: string;
  readonly hash: string;

  constructor() {
    this.privateKey = Crypto.Ed25519PrivateKey.fromNormalBytes(
      crypto.getRandomValues(new Uint8Array(32)),
    );
    const pub = this.privateKey.toPublic();
    this.publicKeyHex = pub.hex();
    this.hash = pub.hash().hex();
  }

  /** Adds a vkey witness over blake2b-256 of the original body bytes; the body is untouched. */
  sign(txHex: string): string {
    const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex));
    const signature = this.privateKey.sign(HexBlob(tx.getId())).hex();
    return withWitnesses(txHex, [[this.publicKeyHex, signature]]);
  }
}

export function withWitnesses(txHex: string, witnesses: [string, string][]): string {
  const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex));
  const set = tx.witnessSet();
  const existing = set.vkeys()?.toCore() ?? [];
  set.setVkeys(
    Serialization.CborSet.fromCore(
      [
        ...existing,
        ...witnesses.map(
          ([vkey, sig]) =>
            [Crypto.Ed25519PublicKeyHex(vkey), Crypto.Ed25519SignatureHex(sig)] as [
              Crypto.Ed25519PublicKeyHex,
              Crypto.Ed25519SignatureHex,
            ],
        ),
      ],
      Serialization.VkeyWitness.fromCore,
    ),
  );
  tx.setWitnessSet(set);
  return tx.toCbor();
}

export function txId(txHex: string): string {
  return Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex)).getId();
}

export function decodeTx(txHex: string): Cardano.Tx {
  return Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex)).toCore();
}

/** A trader: wallet key (base testnet address), operation key, API key once registered. */
export class Trader {
  readonly wallet = new TestKey();
  readonly stake = new TestKey();
  readonly operation = new TestKey();
  readonly address: string;
  apiKey = '';
  accountId = '';

  constructor(readonly url: string) {
    this.address = Cardano.BaseAddress.fromCredentials(
      Cardano.NetworkId.Testnet,
      { type: Cardano.CredentialType.KeyHash, hash: Crypto.Hash28ByteBase16(this.wallet.hash) },
      { type: Cardano.CredentialType.KeyHash, hash: Crypto.Hash28ByteBase16(this.stake.hash) },
    )
      .toAddress()
      .toBech32();
  }

  async register(withOperationKey = true): Promise<this> {
    const r = await call<{ api_key: string; account_id: string }>(
      this.url,
      'POST',
      '/sandbox/accounts',
      {
        body: {
          address: this.address,
          ...(withOperationKey ? { operation_key_hash: this.operation.hash } : {}),
        },
      },
    );
    if (r.status !== 200) throw new Error(`register: ${r.text}`);
    this.apiKey = r.body.api_key;
    this.accountId = r.body.account_id;
    return this;
  }

  request<T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    return call<T>(this.url, method, path, { key: this.apiKey, body });
  }

  async faucet(lovelace: bigint, usdm: bigint): Promise<void> {
    const amount = [{ unit: 'lovelace', quantity: lovelace.toString() }];
    if (usdm > 0n) amount.push({ unit: USDM_UNIT, quantity: usdm.toString() });
    const r = await call(this.url, 'POST', '/sandbox/faucet', {
      body: { address: this.address, amount },
    });
    if (r.status !== 200) throw new Error(`faucet: ${r.text}`);
  }

  async utxos(): Promise<InputUtxo[]> {
    const r = await call<InputUtxo[]>(this.url, 'GET', `/sandbox/utxos?address=${this.address}`);
    return r.body;
  }

  /** Faucet, then deposit everything but 10 ADA (for fees and change) to the exchange. */
  async fund(ada: number, usdm: number): Promise<void> {
    const lovelace = BigInt(ada) * 1_000_000n;
    const usdmUnits = BigInt(usdm) * 1_000_000n;
    await this.faucet(lovelace + 10_000_000n, usdmUnits);
    const deposit_amount = [{ unit: 'lovelace', quantity: lovelace.toString() }];
    if (usdmUnits > 0n) deposit_amount.push({ unit: USDM_UNIT, quantity: usdmUnits.toString() });
    const built = await this.request<{ tx_hex: string }>('POST', '/accounts/deposit/build', {
      deposit_amount,
      input_utxos: await this.utxos(),
    });
    if (built.status !== 200) throw new Error(`deposit build: ${built.text}`);
    const submitted = await this.request('POST', '/accounts/deposit/submit', {
      signed_tx: this.wallet.sign(built.body.tx_hex),
    });
    if (submitted.status !== 200) throw new Error(`deposit submit: ${submitted.text}`);
  }

  async balances(): Promise<Record<string, { free: number; locked: number }>> {
    const r = await this.request<{ asset: string; free: number; locked: number }[]>(
      'GET',
      '/accounts/balance',
    );
    return Object.fromEntries(r.body.map((b) => [b.asset, { free: b.free, locked: b.locked }]));
  }

  /** Build, sign with the operation key and submit an order; returns the submit reply. */
  async place(order: Record<string, unknown>): Promise<Reply<{ order: OrderRecord }>> {
    const built = await this.request<{ order_id: string; tx_hex: string }>(
      'POST',
      '/order/build',
      order,
    );
    if (built.status !== 200) return built as unknown as Reply<{ order: OrderRecord }>;
    return this.request<{ order: OrderRecord }>('POST', '/order/submit', {
      order_id: built.body.order_id,
      signed_tx: this.operation.sign(built.body.tx_hex),
    });
  }

  async cancel(orderId: string): Promise<Reply> {
    const built = await this.request<{ tx_hex: string }>('DELETE', `/order/${orderId}/build`);
    if (built.status !== 200) return built;
    return this.request('DELETE', '/order/submit', {
      signed_tx: this.operation.sign(built.body.tx_hex),
    });
  }
}

export interface InputUtxo {
  input: { tx_hash: string; output_index: number };
  output: { address: string; amount: { unit: string; quantity: string }[] };
}

export interface ExecutionRecord {
  id: string;
  order_id: string;
  account_id: string;
  counter_party_order_id: string;
  execution_price: string;
  filled_base_qty: string;
  filled_quote_qty: string;
  commission: string;
  commission_unit: string;
  role: string;
  created_at: string;
}

export interface OrderRecord {
  id: string;
  account_id: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  price: string;
  base_qty: string;
  quote_qty: string;
  locked_base_qty: string;
  locked_quote_qty: string;
  executed_base_qty: string;
  executed_quote_qty: string;
  executed_price: string;
  ob_open_order_base_qty: string;
  market_order_limit_price: string;
  slippage_bp: number;
  commission: string;
  commission_rate_bp: number;
  commission_unit: string;
  active_order_utxo_id: string;
  created_at: string;
  updated_at: string;
  order_execution_records: ExecutionRecord[];
}

export async function readyCrypto(): Promise<void> {
  await Crypto.ready();
}
