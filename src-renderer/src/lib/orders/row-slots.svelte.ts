/** One row of a virtual list as the page draws it: which element (slot) shows which row. */
export interface Placed<R> {
  /** The element's own number, for `{#each}` to key it by. */
  readonly slot: number;
  /** The row's place in the list. */
  readonly index: number;
  /** The record there, or undefined while it is being read. */
  readonly row: R | undefined;
}

/**
 * Which of a virtual list's row elements shows which row, so that the elements are reused as
 * the list scrolls instead of made anew: a record already on screen keeps its element wherever
 * it moves (a live update that pushes it down moves its element with it), a record read where
 * its placeholder stood takes that placeholder's element, and the rest take the elements of the
 * rows that left, in the order those stood, so a jump of a screen or more re-fills every element
 * where it is in the page (no element is moved or made, only its text changes).
 *
 * `placed` is the window's rows in list order: keyed by slot, a screenful after a jump costs
 * the text of some thirty rows, not thirty rows made and thirty destroyed.
 */
export class RowSlots<R> {
  /** The slot each record (by key) had in the last placing. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- the derived's own memory: nothing reads it reactively
  #held = new Map<string, number>();
  /** The last placing: its first index, and the slot at each of its indices in order. */
  #start = 0;
  #order: number[] = [];
  /** The last placing's entries, by slot: an unchanged row keeps its object (nothing to redo). */
  #entries: (Placed<R> | undefined)[] = [];
  #placed: Placed<R>[] = [];
  /** Slots handed out so far (numbers 0 to count - 1). */
  #count = 0;
  /** Working space, reused from one placing to the next (this runs once a frame while scrolling). */
  #slots: number[] = [];
  #rows: (R | undefined)[] = [];
  #used: boolean[] = [];

  constructor(
    private readonly start: () => number,
    private readonly end: () => number,
    private readonly rowAt: (index: number) => R | undefined,
    private readonly keyOf: (row: R) => string,
  ) {}

  readonly placed: readonly Placed<R>[] = $derived.by(() => this.place(this.start(), this.end()));

  /**
   * Gives rows [start, end) their slots (see the class) and remembers them for the next; the
   * same array as the last time when nothing changed.
   */
  place(start: number, end: number): Placed<R>[] {
    const length = Math.max(0, end - start);
    const { keyOf } = this;
    const slots = this.#slots;
    const rows = this.#rows;
    const used = this.#used;
    const order = this.#order;
    slots.length = length;
    rows.length = length;
    used.length = this.#count;
    used.fill(false);
    const take = (i: number, slot: number | undefined) => {
      if (slot === undefined || used[slot]) return;
      slots[i] = slot;
      used[slot] = true;
    };
    // A record still in the window keeps its element.
    for (let i = 0; i < length; i++) {
      const row = this.rowAt(start + i);
      rows[i] = row;
      slots[i] = -1;
      if (row !== undefined) take(i, this.#held.get(keyOf(row)));
    }
    // A record read where its placeholder stood (or one read in place of another that left the
    // list), and a placeholder still waiting, keep the element at their place.
    for (let i = 0; i < length; i++) {
      if (slots[i] === -1) take(i, order[start + i - this.#start]);
    }
    // The rest take the elements that left, top to bottom in the order those stood (so the
    // page's order of them holds and nothing moves), then elements not in use, then new ones.
    let next = 0;
    let spare = 0;
    const free = () => {
      for (; next < order.length; next++) {
        const slot = order[next] ?? -1;
        if (!used[slot]) return slot;
      }
      for (; spare < this.#count; spare++) if (!used[spare] && !order.includes(spare)) return spare;
      return this.#count++;
    };
    for (let i = 0; i < length; i++) {
      if (slots[i] !== -1) continue;
      const slot = free();
      slots[i] = slot;
      used[slot] = true;
    }

    let changed = length !== this.#placed.length;
    const entries = this.#entries;
    const placed: Placed<R>[] = [];
    for (let i = 0; i < length; i++) {
      const slot = slots[i] ?? -1;
      const index = start + i;
      const row = rows[i];
      const last = entries[slot];
      const entry = last && last.index === index && last.row === row ? last : { slot, index, row };
      if (entry !== this.#placed[i]) changed = true;
      placed.push(entry);
    }
    // Records that left, or went to another element, are no longer held where they were; the
    // map changes only where the rows did.
    const held = this.#held;
    for (const slot of order) {
      const row = entries[slot]?.row;
      entries[slot] = undefined;
      if (row === undefined) continue;
      const key = keyOf(row);
      const now = used[slot] ? rows[slots.indexOf(slot)] : undefined;
      if ((now === undefined || keyOf(now) !== key) && held.get(key) === slot) held.delete(key);
    }
    for (let i = 0; i < length; i++) {
      const entry = placed[i];
      if (entry === undefined) continue;
      entries[entry.slot] = entry;
      if (entry.row !== undefined && held.get(keyOf(entry.row)) !== entry.slot) {
        held.set(keyOf(entry.row), entry.slot);
      }
    }
    this.#start = start;
    this.#order = slots;
    this.#slots = order;
    rows.fill(undefined);
    if (changed) this.#placed = placed;
    return this.#placed;
  }
}
