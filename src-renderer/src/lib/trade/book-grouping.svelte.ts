import type Decimal from 'decimal.js';
import { SvelteMap } from 'svelte/reactivity';
import { groupSteps } from './book';

const STEP_KEY = 'countersign.trade.book-step.';

/**
 * The price step the trader groups each market's book by, kept across restarts: the market's own
 * tick (no grouping) until another is chosen. A saved step that is not one of the market's (its
 * decimals changed) reads as the tick.
 */
export class BookGrouping {
  /** The step chosen per market, as its text. */
  readonly #chosen = new SvelteMap<string, string>();

  constructor(
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
  ) {}

  /** The steps `priceDecimals` offers, smallest (the tick) first. */
  steps(priceDecimals: number): Decimal[] {
    return groupSteps(priceDecimals);
  }

  /** The step chosen for `symbol`, as one of `steps(priceDecimals)`. */
  stepOf(symbol: string, priceDecimals: number): Decimal {
    return this.#chosenOf(symbol, this.steps(priceDecimals));
  }

  /** The step the book's levels are grouped by; null at the market's tick (as quoted). */
  groupingOf(symbol: string, priceDecimals: number): Decimal | null {
    const steps = this.steps(priceDecimals);
    const step = this.#chosenOf(symbol, steps);
    return step === steps[0] ? null : step;
  }

  #chosenOf(symbol: string, steps: readonly Decimal[]): Decimal {
    const chosen = this.#chosen.get(symbol) ?? this.storage?.getItem(STEP_KEY + symbol) ?? null;
    return steps.find((s) => s.toFixed() === chosen) ?? (steps[0] as Decimal);
  }

  choose(symbol: string, step: string): void {
    this.#chosen.set(symbol, step);
    this.storage?.setItem(STEP_KEY + symbol, step);
  }
}
