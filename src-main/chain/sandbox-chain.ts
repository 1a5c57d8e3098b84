import { SandboxAdmin, type HttpOptions, type InputUtxo } from '../exchange';
import { coinOf, refOf, type ChainLookup, type CoinOutput } from './utxo';

/** Where the embedded sandbox is, once it has started: its URL and the admin token it announced. */
export type SandboxTarget = string | { baseUrl: string; adminToken?: string };

/** The embedded sandbox's simulated L1: `GET /sandbox/utxos?address=`, through its admin client. */
export class SandboxChain implements ChainLookup {
  readonly #target: () => Promise<SandboxTarget>;
  readonly #options: HttpOptions;
  #admin: { key: string; admin: SandboxAdmin } | null = null;

  /** `options` may be a timeout in ms (the older signature). */
  constructor(target: () => Promise<SandboxTarget>, options: HttpOptions | number = {}) {
    this.#target = target;
    this.#options = typeof options === 'number' ? { timeoutMs: options } : options;
  }

  async utxosAt(address: string, signal?: AbortSignal): Promise<InputUtxo[]> {
    return (await this.#adminFor()).utxos(address, signal);
  }

  async resolve(
    refs: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, CoinOutput | null>> {
    const out = new Map<string, CoinOutput | null>(refs.map((ref) => [ref, null]));
    const admin = await this.#adminFor();
    const unique = [...out.keys()];
    for (let i = 0; i < unique.length; i += 100) {
      for (const utxo of await admin.coins(unique.slice(i, i + 100), signal)) {
        const ref = refOf(utxo);
        if (out.has(ref)) out.set(ref, coinOf(utxo));
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.#admin?.admin.close();
    this.#admin = null;
  }

  /** One admin client per sandbox address; a restarted sandbox (new port) gets a new one. */
  async #adminFor(): Promise<SandboxAdmin> {
    const target = await this.#target();
    const config = typeof target === 'string' ? { baseUrl: target } : target;
    const key = `${config.baseUrl} ${config.adminToken ?? ''}`;
    if (this.#admin?.key !== key) {
      void this.#admin?.admin.close();
      this.#admin = { key, admin: new SandboxAdmin(config, this.#options) };
    }
    return this.#admin.admin;
  }
}
