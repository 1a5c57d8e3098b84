import type { Api } from '../../../../src-shared/contract';
import { Market } from '../../../../src-shared/domain';
import { unwrap } from '../api';

/**
 * The exchange's markets, read once for the whole window: the Trade screen, the Orders browser
 * and the frame's fill toasts all show this one list. It is read when first needed, shared by
 * everyone who asks while the read runs, asked again after a read that failed, and forgotten when
 * the trader switches to another exchange (whose markets may differ).
 */
export class MarketList {
  /** The markets that parsed (one main could not describe is left out rather than guessed). */
  list = $state.raw<Market[]>([]);
  #reading: Promise<readonly Market[]> | null = null;
  /** Bumped by `forget`: a read that began before it does not fill the list after it. */
  #generation = 0;

  constructor(private readonly api: Api) {}

  /** The markets: the list held, or main's answer (one read for every caller meanwhile). */
  read(): Promise<readonly Market[]> {
    if (this.list.length > 0) return Promise.resolve(this.list);
    if (this.#reading) return this.#reading;
    const generation = this.#generation;
    const reading = unwrap(this.api.market.markets())
      .then((answer) => {
        const list = answer.flatMap((m) => {
          const parsed = Market.safeParse(m);
          return parsed.success ? [parsed.data] : [];
        });
        if (generation === this.#generation) this.list = list;
        return list;
      })
      .finally(() => {
        if (this.#reading === reading) this.#reading = null;
      });
    this.#reading = reading;
    return reading;
  }

  /**
   * Another exchange: the list is dropped. If it was in use, the new exchange's is read at once
   * (a screen showing markets shows the new ones); otherwise the next `read` asks main.
   */
  forget(): void {
    const inUse = this.list.length > 0 || this.#reading !== null;
    this.#generation++;
    this.#reading = null;
    this.list = [];
    if (inUse) void this.read().catch(() => undefined);
  }
}
