import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlockfrostChain, KoiosChain, scriptRefOf, totalOf } from '../../../../src-main/chain';
import { ExchangeError } from '../../../../src-main/exchange';
import {
  WALLET,
  blockfrostAddressUtxos,
  blockfrostScripts,
  expectedUtxos,
  koiosAddressUtxos,
} from '../../../fixtures/exchange/chain';
import { FakeClock } from '../../../fixtures/exchange/fake-clock';
import {
  json,
  startFakeServer,
  type FakeHandler,
  type FakeServer,
} from '../../../fixtures/exchange/fake-server';

/**
 * Koios and Blockfrost, served their real response shapes by a local server: both give the
 * wallet's coins in the seed's input-UTxO shape, the same for the same chain, with paging,
 * tokens, inline datums and reference scripts (checked against their hashes).
 */

let server: FakeServer;
let handler: FakeHandler = () => undefined;
beforeAll(async () => {
  server = await startFakeServer((req, res, socket) => handler(req, res, socket));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const options = { clock: new FakeClock(), rateLimit: false as const };

const koiosRow = (i: number) => ({
  ...koiosAddressUtxos()[0],
  tx_hash: i.toString(16).padStart(64, '0'),
  tx_index: 0,
});

describe('Koios', () => {
  it('maps POST /address_utxos (extended) to input UTxOs, leaving out spent ones', async () => {
    handler = (req, res) =>
      json(res, 200, req.path === '/api/v1/address_utxos' ? koiosAddressUtxos() : []);
    const koios = new KoiosChain(
      { baseUrl: `${server.url}/api/v1`, apiToken: 'koios-jwt' },
      options,
    );
    const utxos = await koios.utxosAt(WALLET);
    await koios.close();
    expect(utxos).toEqual(expectedUtxos());
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request?.body ?? '')).toEqual({ _addresses: [WALLET], _extended: true });
    expect(request?.headers.authorization).toBe('Bearer koios-jwt');
    expect(totalOf(utxos).get('lovelace')).toBe(34_861_170n);
  });

  it('reads every page of a wallet with more than 1000 coins', async () => {
    handler = (req, res) => {
      const offset = Number(req.query.get('offset'));
      const rows =
        offset === 0 ? Array.from({ length: 1000 }, (_, i) => koiosRow(i)) : [koiosRow(1000)];
      json(res, 200, rows);
    };
    const koios = new KoiosChain({ baseUrl: server.url }, options);
    const utxos = await koios.utxosAt(WALLET);
    await koios.close();
    expect(utxos).toHaveLength(1001);
    expect(server.requests.map((r) => [r.query.get('offset'), r.query.get('limit')])).toEqual([
      ['0', '1000'],
      ['1000', '1000'],
    ]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses a reference script that does not match its hash', async () => {
    const rows = koiosAddressUtxos();
    (rows[2]?.reference_script as { hash: string }).hash = '00'.repeat(28);
    handler = (_req, res) => json(res, 200, rows);
    const koios = new KoiosChain({ baseUrl: server.url }, options);
    await expect(koios.utxosAt(WALLET)).rejects.toThrow(
      /answer of Koios to read your wallet's coins .* the reference script of `\[2\]` does not match its hash/,
    );
    await koios.close();
  });

  it('says what is wrong with a bad answer, naming Koios', async () => {
    handler = (_req, res) => json(res, 200, [{ ...koiosAddressUtxos()[0], value: 'lots' }]);
    const koios = new KoiosChain({ baseUrl: server.url }, options);
    const error = await koios.utxosAt(WALLET).catch((e: unknown) => e);
    await koios.close();
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as Error).message).toMatch(
      /^The answer of Koios to read your wallet's coins \(POST \/address_utxos\) .*`\[0\]\.value`/,
    );
  });
});

describe('Blockfrost', () => {
  const serveBlockfrost =
    (pages: Array<Array<Record<string, unknown>>>): FakeHandler =>
    (req, res) => {
      if (req.headers.project_id !== 'preprodABC') {
        return json(res, 403, {
          status_code: 403,
          error: 'Forbidden',
          message: 'Invalid project token.',
        });
      }
      const scripts = blockfrostScripts();
      const script = /^\/api\/v0\/scripts\/([0-9a-f]{56})(\/cbor|\/json)?$/.exec(req.path);
      if (script) {
        const entry = scripts[script[1] ?? ''];
        if (!entry)
          return json(res, 404, {
            status_code: 404,
            error: 'Not Found',
            message: 'The requested component has not been found.',
          });
        return json(
          res,
          200,
          script[2] === '/cbor' ? entry.cbor : script[2] === '/json' ? entry.json : entry.info,
        );
      }
      if (req.path === `/api/v0/addresses/${WALLET}/utxos`) {
        return json(res, 200, pages[Number(req.query.get('page')) - 1] ?? []);
      }
      json(res, 404, {
        status_code: 404,
        error: 'Not Found',
        message: 'The requested component has not been found.',
      });
    };

  it('maps GET /addresses/{address}/utxos to the same input UTxOs as Koios, fetching reference scripts', async () => {
    handler = serveBlockfrost([blockfrostAddressUtxos()]);
    const blockfrost = new BlockfrostChain(
      { baseUrl: `${server.url}/api/v0`, projectId: 'preprodABC' },
      options,
    );
    expect(await blockfrost.utxosAt(WALLET)).toEqual(expectedUtxos());
    await blockfrost.close();
    expect(server.requests.map((r) => r.path.replace(WALLET, '{address}'))).toEqual([
      '/api/v0/addresses/{address}/utxos',
      '/api/v0/scripts/793f8c8cffba081b2a56462fc219cc8fe652d6a338b62c7b134876e7',
      '/api/v0/scripts/793f8c8cffba081b2a56462fc219cc8fe652d6a338b62c7b134876e7/cbor',
      '/api/v0/scripts/7ede9628c487796ff9d47e80ce2eb2c3ba33844155e0ac27c0e3ed1e',
      '/api/v0/scripts/7ede9628c487796ff9d47e80ce2eb2c3ba33844155e0ac27c0e3ed1e/json',
    ]);
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      page: '1',
      count: '100',
    });
  });

  it('reads page after page, and an address the chain has never seen (404) has no coins', async () => {
    const row = blockfrostAddressUtxos()[0] ?? {};
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...row,
        tx_hash: (from + i).toString(16).padStart(64, '0'),
      }));
    handler = serveBlockfrost([page(0, 100), page(100, 3)]);
    const blockfrost = new BlockfrostChain(
      { baseUrl: `${server.url}/api/v0`, projectId: 'preprodABC' },
      options,
    );
    expect(await blockfrost.utxosAt(WALLET)).toHaveLength(103);
    expect(server.requests.map((r) => r.query.get('page'))).toEqual(['1', '2']);
    const unseen = 'addr_test1vz09v9yfxguvlp0zsnrpa3tdtm7el8xufp3m5lsm7qxzclgmzkket';
    expect(await blockfrost.utxosAt(unseen)).toEqual([]);
    await blockfrost.close();
  });

  it('a wrong project id says which setting to check', async () => {
    handler = serveBlockfrost([blockfrostAddressUtxos()]);
    const blockfrost = new BlockfrostChain(
      { baseUrl: `${server.url}/api/v0`, projectId: 'wrong' },
      options,
    );
    const error = await blockfrost.utxosAt(WALLET).catch((e: unknown) => e);
    await blockfrost.close();
    expect(error).toMatchObject({ httpStatus: 403 });
    expect((error as Error).message).toBe(
      "Blockfrost refused to read your wallet's coins (HTTP 403: “Invalid project token.”). Check the Blockfrost project id in Settings › Coins on Cardano.",
    );
  });
});

describe('whose coins a transaction spends (resolve)', () => {
  // Two of the wallet's outputs (one spent since), and one the chain has never seen.
  const rows = koiosAddressUtxos();
  const refOfRow = (r: Record<string, unknown>) => `${String(r.tx_hash)}#${String(r.tx_index)}`;
  const known = rows.slice(0, 2).map(refOfRow);
  const spent = rows.filter((r) => r.is_spent === true).map(refOfRow);
  const unseen = `${'e'.repeat(64)}#0`;
  const asked = [...known, ...spent, unseen];
  const expected = new Map(
    asked.map((ref) => {
      const row = rows.find((r) => refOfRow(r) === ref);
      if (!row) return [ref, null];
      const assets = (row.asset_list ?? []) as Array<Record<string, string>>;
      return [
        ref,
        {
          address: WALLET,
          amounts: new Map([
            ['lovelace', BigInt(String(row.value))],
            ...assets.map(
              (a) => [`${a.policy_id}${a.asset_name ?? ''}`, BigInt(String(a.quantity))] as const,
            ),
          ]),
        },
      ];
    }),
  );

  it('Koios: POST /utxo_info, spent outputs included, unknown ones null, 50 refs a request', async () => {
    handler = (req, res) => {
      const wanted = new Set((JSON.parse(req.body) as { _utxo_refs: string[] })._utxo_refs);
      json(
        res,
        200,
        rows.filter((r) => wanted.has(refOfRow(r))),
      );
    };
    const koios = new KoiosChain({ baseUrl: `${server.url}/api/v1` }, options);
    expect(spent).toHaveLength(1);
    expect(await koios.resolve(asked)).toEqual(expected);
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/api/v1/utxo_info']]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ _utxo_refs: asked });
    server.requests.length = 0;
    const many = Array.from({ length: 120 }, (_, i) => `${i.toString(16).padStart(64, '0')}#0`);
    const answer = await koios.resolve(many);
    await koios.close();
    expect([...answer.values()].every((v) => v === null)).toBe(true);
    expect(
      server.requests.map(
        (r) => (JSON.parse(r.body) as { _utxo_refs: string[] })._utxo_refs.length,
      ),
    ).toEqual([50, 50, 20]);
  });

  it('Koios: an answer that does not say whose a coin is is refused in words', async () => {
    handler = (_req, res) => json(res, 200, [{ ...rows[0], address: null }]);
    const koios = new KoiosChain({ baseUrl: server.url }, options);
    const error = await koios.resolve([known[0] ?? '']).catch((e: unknown) => e);
    await koios.close();
    expect((error as Error).message).toMatch(/Koios.*`\[0\]\.address` is missing/);
  });

  it('Blockfrost: GET /txs/{hash}/utxos once per transaction, 404 for one it never saw: the same answer', async () => {
    const byTx = new Map<string, Array<Record<string, unknown>>>();
    for (const r of rows) {
      const list = byTx.get(String(r.tx_hash)) ?? [];
      list.push(r);
      byTx.set(String(r.tx_hash), list);
    }
    handler = (req, res) => {
      const hash = /^\/api\/v0\/txs\/([0-9a-f]{64})\/utxos$/.exec(req.path)?.[1] ?? '';
      const outputs = byTx.get(hash);
      if (!outputs) {
        return json(res, 404, {
          status_code: 404,
          error: 'Not Found',
          message: 'The requested component has not been found.',
        });
      }
      // Blockfrost's tx_content_utxo: every output of the transaction, spent ones marked.
      json(res, 200, {
        hash,
        inputs: [],
        outputs: outputs.map((r) => ({
          address: r.address,
          amount: [
            { unit: 'lovelace', quantity: String(r.value) },
            ...((r.asset_list ?? []) as Array<Record<string, string>>).map((a) => ({
              unit: `${a.policy_id}${a.asset_name ?? ''}`,
              quantity: String(a.quantity),
            })),
          ],
          output_index: r.tx_index,
          data_hash: null,
          inline_datum: null,
          collateral: false,
          reference_script_hash: null,
          consumed_by_tx: r.is_spent ? 'f'.repeat(64) : null,
        })),
      });
    };
    const blockfrost = new BlockfrostChain(
      { baseUrl: `${server.url}/api/v0`, projectId: 'preprodABC' },
      options,
    );
    expect(await blockfrost.resolve(asked)).toEqual(expected);
    await blockfrost.close();
    const hashes = new Set(asked.map((r) => r.split('#')[0]));
    expect(server.requests).toHaveLength(hashes.size);
  });
});

describe('reference scripts', () => {
  it('accepts a Plutus script wrapped once or twice, and nothing that misses the hash', () => {
    const hash = '793f8c8cffba081b2a56462fc219cc8fe652d6a338b62c7b134876e7';
    const twice = scriptRefOf('plutusV2', { cbor: '4e4d01000033222220051200120011' }, hash);
    const once = scriptRefOf('plutusV2', { cbor: '4d01000033222220051200120011' }, hash);
    expect(twice).toEqual({ scriptRef: '82024e4d01000033222220051200120011', scriptHash: hash });
    expect(once).toEqual(twice);
    expect(scriptRefOf('plutusV1', { cbor: '4e4d01000033222220051200120011' }, hash)).toBeNull();
    expect(scriptRefOf('plutusV2', { cbor: 'zz' }, hash)).toBeNull();
  });
});
