import { z } from 'zod';
import {
  ExchangeError,
  HttpTransport,
  InputUtxo,
  parseAnswer,
  unexpectedAnswer,
  type AnswerOf,
  type HttpOptions,
  type ServiceProfile,
} from '../exchange';
import { scriptLanguage, scriptRefOf, type ScriptRef } from './script-ref';
import type { ChainLookup, CoinOutput } from './utxo';

/**
 * Blockfrost (`GET /addresses/{address}/utxos`, pages of 100, header `project_id`;
 * https://cardano-mainnet.blockfrost.io/api/v0, https://cardano-preprod.blockfrost.io/api/v0).
 * An address never seen on chain answers 404: no coins. A reference script is named by its
 * hash only, so it is fetched (`/scripts/{hash}`, then its CBOR or, for a native script, JSON).
 * Single outputs, spent or not, come from their transaction (`/txs/{hash}/utxos`; 404 when the
 * chain does not know the transaction).
 */

const PAGE = 100;
const MAX_PAGES = 100;

const BLOCKFROST: ServiceProfile = {
  name: 'Blockfrost',
  unreachableAdvice:
    'Check your internet connection, or go back to Koios in Settings › Coins on Cardano.',
  credentialAdvice: 'Check the Blockfrost project id in Settings › Coins on Cardano.',
};

const Hex = z.string().regex(/^(?:[0-9a-fA-F]{2})*$/);

const BlockfrostUtxo = z.object({
  address: z.string().min(1).max(200),
  tx_hash: z.string().regex(/^[0-9a-fA-F]{64}$/),
  output_index: z.number().int().nonnegative(),
  amount: z.array(
    z.object({
      unit: z.string().regex(/^(lovelace|[0-9a-fA-F]{56}(?:[0-9a-fA-F]{2}){0,32})$/),
      quantity: z.string().regex(/^\d{1,30}$/),
    }),
  ),
  data_hash: Hex.nullish(),
  inline_datum: Hex.nullish(),
  reference_script_hash: z
    .string()
    .regex(/^[0-9a-fA-F]{56}$/)
    .nullish(),
});

const Amount = z.array(
  z.object({
    unit: z.string().regex(/^(lovelace|[0-9a-fA-F]{56}(?:[0-9a-fA-F]{2}){0,32})$/),
    quantity: z.string().regex(/^\d{1,30}$/),
  }),
);

const BlockfrostTxUtxos = z.object({
  outputs: z.array(
    z.object({
      address: z.string().min(1).max(200),
      amount: Amount,
      output_index: z.number().int().nonnegative(),
    }),
  ),
});

export class BlockfrostChain implements ChainLookup {
  readonly #http: HttpTransport;

  constructor(config: { baseUrl: string; projectId: string }, options: HttpOptions = {}) {
    this.#http = new HttpTransport(
      { baseUrl: config.baseUrl, service: BLOCKFROST, headers: { project_id: config.projectId } },
      { rateLimit: { max: 10, windowMs: 1_000 }, ...options },
    );
  }

  async utxosAt(address: string, signal?: AbortSignal): Promise<InputUtxo[]> {
    if (!/^[A-Za-z0-9_]{10,200}$/.test(address)) {
      throw new ExchangeError({
        failure: 'invalid-request',
        detail: 'That is not a Cardano address.',
        advice: 'Check the wallet address.',
      });
    }
    const action = "read your wallet's coins";
    const out: InputUtxo[] = [];
    const scripts = new Map<string, Promise<ScriptRef>>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      let body: unknown;
      try {
        const reply = await this.#http.request({
          method: 'GET',
          path: `/addresses/${encodeURIComponent(address)}/utxos`,
          query: { page, count: PAGE },
          kind: 'read',
          action,
          ...(signal ? { signal } : {}),
        });
        body = reply.body;
      } catch (error) {
        // 404: an address the chain has never seen holds nothing.
        if (error instanceof ExchangeError && error.httpStatus === 404) return out;
        throw error;
      }
      const where: AnswerOf = {
        endpoint: 'GET /addresses/{address}/utxos',
        action,
        service: BLOCKFROST.name,
      };
      const rows = parseAnswer(z.array(BlockfrostUtxo), body ?? [], where);
      for (const row of rows) {
        const hash = row.reference_script_hash?.toLowerCase();
        let script: ScriptRef | null = null;
        if (hash) {
          let pending = scripts.get(hash);
          if (!pending) {
            pending = this.#script(hash, signal);
            scripts.set(hash, pending);
          }
          script = await pending;
        }
        out.push(
          InputUtxo.parse({
            input: { tx_hash: row.tx_hash.toLowerCase(), output_index: row.output_index },
            output: {
              address: row.address,
              amount: row.amount.map((a) => ({ unit: a.unit.toLowerCase(), quantity: a.quantity })),
              data_hash: row.data_hash ? row.data_hash.toLowerCase() : null,
              plutus_data: row.inline_datum ? row.inline_datum.toLowerCase() : null,
              script_ref: script?.scriptRef ?? null,
              script_hash: script?.scriptHash ?? null,
            },
          }),
        );
      }
      if (rows.length < PAGE) return out;
    }
    return out;
  }

  async resolve(
    refs: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, CoinOutput | null>> {
    const action = 'look up the coins a transaction spends';
    const out = new Map<string, CoinOutput | null>(refs.map((ref) => [ref, null]));
    const byTx = new Map<string, Set<number>>();
    for (const ref of out.keys()) {
      const [hash = '', index = ''] = ref.split('#');
      if (!/^[0-9a-f]{64}$/.test(hash) || !/^\d{1,5}$/.test(index)) continue;
      byTx.set(hash, (byTx.get(hash) ?? new Set()).add(Number(index)));
    }
    const where: AnswerOf = { endpoint: 'GET /txs/{hash}/utxos', action, service: BLOCKFROST.name };
    for (const [hash, indexes] of byTx) {
      let body: unknown;
      try {
        body = (
          await this.#http.request({
            method: 'GET',
            path: `/txs/${hash}/utxos`,
            kind: 'read',
            action,
            ...(signal ? { signal } : {}),
          })
        ).body;
      } catch (error) {
        // 404: a transaction the chain has never seen created none of these outputs.
        if (error instanceof ExchangeError && error.httpStatus === 404) continue;
        throw error;
      }
      for (const o of parseAnswer(BlockfrostTxUtxos, body, where).outputs) {
        if (!indexes.has(o.output_index)) continue;
        out.set(`${hash}#${o.output_index}`, {
          address: o.address,
          amounts: new Map(o.amount.map((a) => [a.unit.toLowerCase(), BigInt(a.quantity)])),
        });
      }
    }
    return out;
  }

  async #script(hash: string, signal?: AbortSignal): Promise<ScriptRef> {
    const action = 'read a reference script';
    const get = async (path: string) =>
      (
        await this.#http.request({
          method: 'GET',
          path,
          kind: 'read',
          action,
          ...(signal ? { signal } : {}),
        })
      ).body;
    const where: AnswerOf = { endpoint: 'GET /scripts/{hash}', action, service: BLOCKFROST.name };
    const info = parseAnswer(z.object({ type: z.string() }), await get(`/scripts/${hash}`), where);
    const language = scriptLanguage(info.type);
    if (!language)
      throw unexpectedAnswer(where, `the script type “${info.type.slice(0, 20)}” is unknown`);
    const made =
      language === 'native'
        ? scriptRefOf(
            language,
            {
              json: parseAnswer(
                z.object({ json: z.unknown() }),
                await get(`/scripts/${hash}/json`),
                where,
              ).json,
            },
            hash,
          )
        : scriptRefOf(
            language,
            {
              cbor: parseAnswer(z.object({ cbor: Hex }), await get(`/scripts/${hash}/cbor`), where)
                .cbor,
            },
            hash,
          );
    if (!made) throw unexpectedAnswer(where, `the script ${hash} does not match its hash`);
    return made;
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}
