/**
 * Which rows of a long list are on screen: rows have one fixed height, so the visible slice follows
 * from the scroll position alone and only those rows (plus a few either side, so a fast scroll
 * never shows a blank) are ever in the page. 100,000 rows cost what 40 do.
 */
export class VirtualWindow {
  scrollTop = $state(0);
  viewportHeight = $state(0);

  constructor(
    private readonly count: () => number,
    readonly rowHeight: number,
    private readonly overscan = 8,
  ) {}

  readonly total = $derived.by(() => this.count());
  /** Height of the whole list, for the scrollbar. */
  readonly height = $derived.by(() => this.total * this.rowHeight);
  /** The rows at least partly in view: [viewStart, viewEnd). */
  readonly viewStart = $derived.by(() =>
    Math.min(this.total, Math.floor(this.scrollTop / this.rowHeight)),
  );
  readonly viewEnd = $derived.by(() =>
    Math.min(
      this.total,
      Math.ceil((this.scrollTop + Math.max(this.viewportHeight, this.rowHeight)) / this.rowHeight),
    ),
  );
  /**
   * How many rows are drawn: as many as the view can show (cut at both edges) and `overscan`
   * either side. The same number wherever the list is scrolled: at either end of the list the
   * rows that cannot be drawn beyond it are drawn on the other side instead, and a row cut in
   * half still counts, so scrolling never adds nor removes a row element (each is a change the
   * browser lays out from the page's root, not from the row).
   */
  readonly drawn = $derived.by(
    () =>
      Math.ceil(Math.max(this.viewportHeight, this.rowHeight) / this.rowHeight) +
      1 +
      2 * this.overscan,
  );
  /** The rows drawn, [start, end): those in view and at least `overscan` either side. */
  readonly start = $derived.by(() =>
    Math.max(0, Math.min(this.viewStart - this.overscan, this.total - this.drawn)),
  );
  readonly end = $derived.by(() => Math.min(this.total, this.start + this.drawn));
  /** How many whole rows fit: a page for PageUp / PageDown. */
  readonly pageSize = $derived.by(() =>
    Math.max(1, Math.floor(this.viewportHeight / this.rowHeight) - 1),
  );

  /** The scroll position that shows row `index` whole, moving as little as possible. */
  scrollFor(index: number, headerHeight = 0): number {
    const top = index * this.rowHeight;
    const visible = this.viewportHeight - headerHeight;
    if (top < this.scrollTop) return top;
    if (top + this.rowHeight > this.scrollTop + visible) return top + this.rowHeight - visible;
    return this.scrollTop;
  }
}
