import { z } from 'zod';
import {
  HttpTransport,
  InputUtxo,
  parseAnswer,
  unexpectedAnswer,
  type HttpOptions,
  type ServiceProfile,
} from '../exchange';
import { scriptLanguage, scriptRefOf } from './script-ref';
import type { ChainLookup, CoinOutput } from './utxo';

/**
 * Koios (`POST /address_utxos` with `_extended: true`; https://api.koios.rest/api/v1 on
 * mainnet, https://preprod.koios.rest/api/v1 on preprod), an optional bearer token. Answers are
 * pages of at most 1000 rows (PostgREST): read with `offset` until a short page. Single outputs,
 * spent or not, come from `POST /utxo_info`, which leaves out those it does not know.
 */

const PAGE = 1000;
const MAX_PAGES = 50;
/** Outputs asked for in one `utxo_info` request. */
const REFS_PER_REQUEST = 50;

const KOIOS: ServiceProfile = {
  name: 'Koios',
  unreachableAdvice:
    'Check your internet connection, or read your coins through your own Blockfrost project instead (Settings › Coins on Cardano).',
  credentialAdvice:
    'Try again later, or read your coins through your own Blockfrost project instead (Settings › Coins on Cardano).',
};

const Hex = z.string().regex(/^(?:[0-9a-fA-F]{2})*$/);

const KoiosUtxo = z.object({
  tx_hash: z.string().regex(/^[0-9a-fA-F]{64}$/),
  tx_index: z.number().int().nonnegative(),
  address: z.string().min(1).max(200).nullish(),
  value: z.union([z.string().regex(/^\d{1,30}$/), z.number().int().nonnegative()]),
  datum_hash: Hex.nullish(),
  inline_datum: z.object({ bytes: Hex }).nullish(),
  reference_script: z.object({ hash: Hex, type: z.string(), bytes: Hex }).nullish(),
  asset_list: z
    .array(
      z.object({
        policy_id: z.string().regex(/^[0-9a-fA-F]{56}$/),
        asset_name: z
          .string()
          .regex(/^(?:[0-9a-fA-F]{2}){0,32}$/)
          .nullish(),
        quantity: z.union([z.string().regex(/^\d{1,30}$/), z.number().int().nonnegative()]),
      }),
    )
    .nullish(),
  is_spent: z.boolean().nullish(),
});

export class KoiosChain implements ChainLookup {
  readonly #http: HttpTransport;

  constructor(config: { baseUrl: string; apiToken?: string }, options: HttpOptions = {}) {
    this.#http = new HttpTransport(
      {
        baseUrl: config.baseUrl,
        service: KOIOS,
        ...(config.apiToken ? { headers: { authorization: `Bearer ${config.apiToken}` } } : {}),
      },
      { rateLimit: { max: 10, windowMs: 1_000 }, ...options },
    );
  }

  async utxosAt(address: string, signal?: AbortSignal): Promise<InputUtxo[]> {
    const action = "read your wallet's coins";
    const out: InputUtxo[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const reply = await this.#http.request({
        method: 'POST',
        path: '/address_utxos',
        query: { offset: page * PAGE, limit: PAGE },
        body: JSON.stringify({ _addresses: [address], _extended: true }),
        kind: 'read',
        action,
        ...(signal ? { signal } : {}),
      });
      const where = { endpoint: reply.endpoint, action, service: KOIOS.name };
      const rows = parseAnswer(z.array(KoiosUtxo), reply.body ?? [], where);
      for (const [i, row] of rows.entries()) {
        if (row.is_spent) continue;
        const ref = row.reference_script;
        const script = ref
          ? (() => {
              const language = scriptLanguage(ref.type);
              const made = language ? scriptRefOf(language, { cbor: ref.bytes }, ref.hash) : null;
              if (!made) {
                throw unexpectedAnswer(
                  where,
                  `the reference script of \`[${i}]\` does not match its hash`,
                );
              }
              return made;
            })()
          : null;
        out.push(
          InputUtxo.parse({
            input: { tx_hash: row.tx_hash.toLowerCase(), output_index: row.tx_index },
            output: {
              address: row.address ?? address,
              amount: [
                { unit: 'lovelace', quantity: String(row.value) },
                ...(row.asset_list ?? []).map((a) => ({
                  unit: `${a.policy_id}${a.asset_name ?? ''}`.toLowerCase(),
                  quantity: String(a.quantity),
                })),
              ],
              data_hash: row.datum_hash ? row.datum_hash.toLowerCase() : null,
              plutus_data: row.inline_datum ? row.inline_datum.bytes.toLowerCase() : null,
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
    const unique = [...out.keys()];
    for (let i = 0; i < unique.length; i += REFS_PER_REQUEST) {
      const reply = await this.#http.request({
        method: 'POST',
        path: '/utxo_info',
        body: JSON.stringify({ _utxo_refs: unique.slice(i, i + REFS_PER_REQUEST) }),
        kind: 'read',
        action,
        ...(signal ? { signal } : {}),
      });
      const where = { endpoint: reply.endpoint, action, service: KOIOS.name };
      const rows = parseAnswer(z.array(KoiosUtxo), reply.body ?? [], where);
      for (const [n, row] of rows.entries()) {
        const ref = `${row.tx_hash.toLowerCase()}#${row.tx_index}`;
        if (!out.has(ref)) continue;
        // Whose coin it is is the point of the question: an answer without it is no answer.
        if (!row.address) throw unexpectedAnswer(where, `\`[${n}].address\` is missing`);
        out.set(ref, {
          address: row.address,
          amounts: new Map([
            ['lovelace', BigInt(row.value)],
            ...(row.asset_list ?? []).map(
              (a) =>
                [`${a.policy_id}${a.asset_name ?? ''}`.toLowerCase(), BigInt(a.quantity)] as const,
            ),
          ]),
        });
      }
    }
    return out;
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}
