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
  /** The rows drawn: those in view and `overscan` either side. */
  readonly start = $derived.by(() => Math.max(0, this.viewStart - this.overscan));
  readonly end = $derived.by(() => Math.min(this.total, this.viewEnd + this.overscan));
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
