/** One row of a virtual list as the page draws it: which element (slot) shows which row. */
export interface Placed<R> {
  /** The element's own number, for `{#each}` to key it by. */
  readonly slot: number;
  /** The row's place in the list. */
  readonly index: number;
  /** The record there, or undefined while it is being read. */
  readonly row: R | undefined;
}

/** Rows in view a frame always fills, however small the screen (see `RowSlots.place`). */
const MIN_FILL = 8;

/** The rows to draw, [start, end), and those of them in view, [viewStart, viewEnd). */
export interface RowRange {
  start: number;
  end: number;
  viewStart: number;
  viewEnd: number;
}

/**
 * Which of a virtual list's row elements shows which row, so that the elements are reused as the
 * list scrolls instead of made anew:
 * - a record already drawn keeps its element wherever it moves (a live update that pushes it down
 *   moves its element with it), and a row read where its placeholder stood takes that element;
 * - the rest take the elements of rows that left, so a jump of a screen or more draws some
 *   thirty elements anew and makes none.
 *
 * `placed` lists the elements in the order of their slots, which never changes: an element is
 * never moved in the page (a move is a removal and an insertion, whose style and layout the
 * browser works out anew); the rows' places in the list are their `index` (the table gives
 * assistive technology the list order).
 *
 * A frame fills at most half a screen of rows in view with records they did not show (drawing
 * their texts is most of a frame's work); the rest wait at their places for the next frame
 * (`deferredInView`, then `fillMore()`). A frame that changes rows in view leaves the rows drawn
 * beyond the view that would change for later (`deferred`, then `catchUp()`): after a jump, the
 * screen shows in one or two frames and the rows either side of it, there for the next scroll,
 * follow after.
 */
export class RowSlots<R> {
  /** The entry each slot draws (undefined: the slot is not in the page). */
  #entries: (Placed<R> | undefined)[] = [];
  /** The slot each drawn record (by key) is in. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- the derived's own memory: nothing reads it reactively
  #held = new Map<string, number>();
  #placed: Placed<R>[] = [];
  /** Working space, reused from one placing to the next (this runs once a frame while scrolling). */
  #slots: number[] = [];
  #rows: (R | undefined)[] = [];
  #at: number[] = [];
  #used: boolean[] = [];
  #next: (Placed<R> | undefined)[] = [];
  #gathered: Placed<R>[] = [];
  #order: Placed<R>[] = [];
  #catchUp = $state(0);
  #all = false;
  /** The last placing left rows for a later frame (see `catchUp`). */
  deferred = false;
  /** Of them, rows in view: the next frame should fill them (`fillMore`), not the one after. */
  deferredInView = false;

  constructor(
    private readonly range: () => RowRange,
    private readonly rowAt: (index: number) => R | undefined,
    private readonly keyOf: (row: R) => string,
  ) {}

  readonly placed: readonly Placed<R>[] = $derived.by(() => {
    void this.#catchUp;
    const all = this.#all;
    this.#all = false;
    return this.place(this.range(), all);
  });

  /**
   * The entries of `placed` in list order (by index): `placed` itself when it is in that order
   * already (after a jump it is), otherwise a list reused from one call to the next.
   */
  inListOrder(): readonly Placed<R>[] {
    const placed = this.placed;
    let sorted = true;
    for (let k = 1; k < placed.length && sorted; k++) {
      sorted = (placed[k - 1]?.index ?? 0) < (placed[k]?.index ?? 0);
    }
    if (sorted) return placed;
    // Sorted in place by insertion into a list of the same length (shortening an array frees
    // its storage, and growing it again by pushes makes new storage: garbage every frame).
    const order = this.#order;
    if (order.length !== placed.length) order.length = placed.length;
    for (let n = 0; n < placed.length; n++) {
      const entry = placed[n] as Placed<R>;
      let k = n;
      for (; k > 0 && (order[k - 1]?.index ?? 0) > entry.index; k--)
        order[k] = order[k - 1] as Placed<R>;
      order[k] = entry;
    }
    return order;
  }

  /** Draws the rows a frame left for later (call after that frame is drawn). */
  catchUp(): void {
    this.#all = true;
    this.#catchUp++;
  }

  /** Fills the next share of the rows in view a frame left waiting (see `place`). */
  fillMore(): void {
    this.#catchUp++;
  }

  /**
   * Gives the rows of `range` their slots (see the class) and remembers them for the next; with
   * `all`, none is left for later. The same array as the last time when nothing changed.
   */
  place({ start, end, viewStart, viewEnd }: RowRange, all = false): Placed<R>[] {
    const length = Math.max(0, end - start);
    const { keyOf } = this;
    const entries = this.#entries;
    const count = entries.length;
    const slots = this.#slots;
    const rows = this.#rows;
    const at = this.#at;
    const used = this.#used;
    slots.length = length;
    rows.length = length;
    at.length = length;
    at.fill(-1);
    used.length = count;
    used.fill(false);
    for (let slot = 0; slot < count; slot++) {
      const index = entries[slot]?.index ?? -1;
      if (index >= start && index < end) at[index - start] = slot;
    }
    const take = (i: number, slot: number | undefined) => {
      if (slot === undefined || slot < 0 || used[slot]) return;
      slots[i] = slot;
      used[slot] = true;
    };
    // A record drawn keeps its element.
    for (let i = 0; i < length; i++) {
      const row = this.rowAt(start + i);
      rows[i] = row;
      slots[i] = -1;
      if (row !== undefined) take(i, this.#held.get(keyOf(row)));
    }
    // A record read where its placeholder stood (or in place of one that left the list), and a
    // placeholder still waiting, keep the element at their place.
    for (let i = 0; i < length; i++) if (slots[i] === -1) take(i, at[i]);
    // The rest take the elements of rows that left, then new ones.
    let free = 0;
    for (let i = 0; i < length; i++) {
      if (slots[i] !== -1) continue;
      while (free < count && used[free]) free++;
      const slot = free++;
      slots[i] = slot;
      used[slot] = true;
    }

    const changes = (i: number) => {
      const last = entries[slots[i] ?? -1];
      return !last || last.index !== start + i || last.row !== rows[i];
    };
    // A frame draws the texts of at most half a screen of rows (most of a frame's work: after
    // a jump, or a page, a whole screen of them would take two frames' time in one); the rest
    // show "Reading…" a frame longer, at their places.
    let inView = false;
    this.deferredInView = false;
    const viewFrom = Math.max(0, viewStart - start);
    const viewTo = Math.min(length, viewEnd - start);
    const share = Math.max(MIN_FILL, Math.ceil((viewTo - viewFrom) / 2));
    let filling = 0;
    for (let i = viewFrom; i < viewTo; i++) {
      if (!changes(i)) continue;
      inView = true;
      if (all || rows[i] === undefined || entries[slots[i] ?? -1]?.row === rows[i]) continue;
      if (++filling <= share) continue;
      rows[i] = undefined;
      this.deferredInView = true;
    }
    // Rows beyond the view wait a frame when the view changed, if their element can stay as it
    // is meanwhile: new, or still showing its own row at its place (or waiting at it).
    this.deferred = this.deferredInView;
    if (inView && !all) {
      for (let i = 0; i < length; i++) {
        const index = start + i;
        if ((index >= viewStart && index < viewEnd) || !changes(i)) continue;
        const slot = slots[i] ?? -1;
        const last = entries[slot];
        if (last && last.row !== undefined && this.rowAt(last.index) !== last.row) continue;
        slots[i] = -1;
        used[slot] = last !== undefined;
        this.deferred = true;
      }
    }

    // The new entries, by slot: those placed, those left as they were, and none for the rest.
    // (`next` is all empty between calls, and never shortened: see `inListOrder`.)
    const next = this.#next;
    let size = count;
    for (let i = 0; i < length; i++) {
      const slot = slots[i] ?? -1;
      if (slot === -1) continue;
      if (slot >= size) size = slot + 1;
      const last = entries[slot];
      const index = start + i;
      const row = rows[i];
      next[slot] = last && last.index === index && last.row === row ? last : { slot, index, row };
    }
    let changed = false;
    // Gathered in a list kept between calls; a new one is made only when the rows changed.
    const gathered = this.#gathered;
    let n = 0;
    for (let slot = 0; slot < size; slot++) {
      const entry = next[slot] ?? (used[slot] ? entries[slot] : undefined);
      const last = entries[slot];
      if (entry !== last) {
        changed = true;
        if (last?.row !== undefined && this.#held.get(keyOf(last.row)) === slot) {
          this.#held.delete(keyOf(last.row));
        }
        if (entry?.row !== undefined) this.#held.set(keyOf(entry.row), slot);
      }
      entries[slot] = entry;
      if (entry) gathered[n++] = entry;
    }
    while (entries.length > 0 && entries[entries.length - 1] === undefined) entries.pop();
    rows.fill(undefined);
    next.fill(undefined, 0, size);
    if (changed || n !== this.#placed.length) this.#placed = gathered.slice(0, n);
    return this.#placed;
  }
}
