import Decimal from 'decimal.js';
import type { OrderPreview, OrderRequest, Settings } from '../../../../src-shared/contract';
import type { Market, Side } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { Money } from '../../../../src-shared/money';
import type { Result } from '../../../../src-shared/result';
import { bestTakenBy } from '../../../../src-shared/slippage';
import { messageOf, unwrap } from '../api';
import type { BookView } from './book';
import {
  checkDecimal,
  estimate,
  normalizeDecimal,
  orderProblems,
  quantityForShare,
  slippageBp,
  type Estimate,
  type OrderKind,
} from './order-rules';

export interface OrderFormDeps {
  market: () => Market | null;
  book: () => BookView;
  /** Free balance of an asset by name; null while unknown. */
  free: (asset: string) => Decimal | null;
  limits: () => Settings['limits'] | null;
  openOrders: () => number;
  preview: (request: OrderRequest) => Promise<Result<Serialized<OrderPreview>>>;
}

/** What the summary under the form shows: main's preview when it answers for this very order. */
export interface ShownSummary {
  value: { asset: string; amount: string } | null;
  lock: { asset: string; amount: string } | null;
  fee: { asset: string; amount: string } | null;
  /** A market order with a slippage limit: the worst price it may fill at (main's preview). */
  worstPrice: { asset: string; amount: string } | null;
  /** From main's preview (exact, the exchange's rules) or Countersign's own estimate. */
  source: 'preview' | 'estimate';
  average: string | null;
}

const PREVIEW_DELAY_MS = 120;
/** Least time between previews asked only because the book moved. */
const BOOK_PREVIEW_MS = 1000;

/**
 * The order entry form: what the trader typed, checked as they type, with the amount locked, the
 * fee and the free balance shown live. Field messages come from Countersign's own checks at once;
 * main's `trading:preview` (the same checks plus the exchange's) follows a moment later and has
 * the last word before anything is sent.
 */
export class OrderForm {
  side = $state<Side>('buy');
  kind = $state<OrderKind>('limit');
  price = $state('');
  quantity = $state('');
  limitSlippage = $state(true);
  slippage = $state('1');
  postOnly = $state(false);
  /** The trader tried to send: empty fields now count as problems. */
  attempted = $state(false);
  submitting = $state(false);

  /** Main's last preview, with the key and the terms (`previewTerms`) it answers for. */
  preview = $state.raw<{ key: string; terms: string; value: Serialized<OrderPreview> } | null>(
    null,
  );
  previewError = $state<string | null>(null);

  private previewTimer: ReturnType<typeof setTimeout> | null = null;
  private previewSeq = 0;
  /** The order, balance and open-order count main was last asked to preview. */
  private askedTerms = '';

  constructor(private readonly deps: OrderFormDeps) {}

  readonly market = $derived.by(() => this.deps.market());

  readonly priceCheck = $derived(
    checkDecimal(this.price, this.market?.priceDecimals ?? 4, { name: 'price', example: '0.4512' }),
  );
  readonly quantityCheck = $derived(
    checkDecimal(this.quantity, this.market?.quantityDecimals ?? 4, {
      name: 'quantity',
      example: '100',
    }),
  );
  readonly slippageCheck = $derived(slippageBp(this.slippage));

  /** The message under each field, or null. */
  readonly fieldMessages = $derived.by(() => {
    const message = (check: { ok: boolean; message?: string | null }, empty: string) =>
      check.ok ? null : (check.message ?? (this.attempted ? empty : null));
    return {
      price:
        this.kind === 'limit'
          ? message(this.priceCheck, 'Enter a limit price, or click a price in the book.')
          : null,
      quantity: message(this.quantityCheck, 'Enter a quantity.'),
      slippage:
        this.kind === 'market' && this.limitSlippage && !this.slippageCheck.ok
          ? this.slippageCheck.message
          : null,
    };
  });

  /** The request as main receives it, once every field reads well; else null. */
  readonly request: OrderRequest | null = $derived.by(() => {
    const market = this.market;
    if (!market || !this.quantityCheck.ok) return null;
    const base = { symbol: market.symbol, side: this.side, quantity: this.quantityCheck.text };
    if (this.kind === 'limit') {
      if (!this.priceCheck.ok) return null;
      return {
        ...base,
        type: 'limit' as const,
        price: this.priceCheck.text,
        ...(this.postOnly ? { postOnly: true } : {}),
      };
    }
    if (this.limitSlippage && !this.slippageCheck.ok) return null;
    return {
      ...base,
      type: 'market' as const,
      ...(this.limitSlippage && this.slippageCheck.ok ? { slippageBp: this.slippageCheck.bp } : {}),
    };
  });

  readonly requestKey = $derived(this.request ? JSON.stringify(this.request) : '');

  readonly estimate: Estimate | null = $derived.by(() => {
    const market = this.market;
    if (!market || !this.quantityCheck.ok) return null;
    return estimate({
      market,
      side: this.side,
      kind: this.kind,
      quantity: this.quantityCheck.value,
      price: this.priceCheck.ok ? this.priceCheck.value : null,
      book: this.deps.book(),
      slippage:
        this.kind === 'market' && this.limitSlippage && this.slippageCheck.ok
          ? this.slippageCheck.bp
          : null,
    });
  });

  /** The asset this order would lock, and how much of it is free. */
  readonly lockAsset = $derived(
    this.market ? (this.side === 'buy' ? this.market.quote : this.market.base) : null,
  );
  readonly free = $derived.by(() => (this.lockAsset ? this.deps.free(this.lockAsset) : null));

  /**
   * What a preview answers for: the order, and what its checks depend on that can change while
   * it is on screen (the free balance, the number of open orders).
   */
  readonly previewTerms = $derived.by(() =>
    this.request
      ? `${this.requestKey}|${this.free?.toFixed() ?? '?'}|${this.deps.openOrders()}`
      : '',
  );
  readonly previewKey = $derived.by(() => {
    if (!this.request) return '';
    // And for a market order, the best price it takes from: it is valued, locked and limited
    // from that.
    const best =
      this.kind === 'market' ? (bestTakenBy(this.side, this.deps.book())?.toFixed() ?? '-') : '';
    return `${this.previewTerms}|${best}`;
  });

  readonly currentPreview = $derived(
    this.preview && this.preview.key === this.previewKey ? this.preview.value : null,
  );

  /** Reasons the order cannot be sent, in words; empty when it may go. */
  readonly problems: string[] = $derived.by(() => {
    const market = this.market;
    if (!market || !this.request || !this.estimate || !this.quantityCheck.ok) return [];
    const local = orderProblems({
      market,
      quantity: this.quantityCheck.value,
      est: this.estimate,
      free: this.free,
      limits: this.deps.limits(),
      openOrders: this.deps.openOrders(),
      kind: this.kind,
    });
    if (local.length > 0) return local;
    // Main's refusals hold while only the book has moved since (it is asked again soon).
    return this.preview?.terms === this.previewTerms ? this.preview.value.problems : [];
  });

  readonly summary: ShownSummary = $derived.by(() => {
    const preview = this.currentPreview;
    if (preview) {
      return {
        value: preview.value,
        lock: preview.lock,
        fee: preview.fee,
        worstPrice: preview.worstPrice,
        source: 'preview',
        average: this.estimate?.average?.toFixed() ?? null,
      };
    }
    const est = this.estimate;
    const text = (x: { asset: string; amount: Decimal }) => ({
      asset: x.asset,
      amount: x.amount.toFixed(),
    });
    return {
      value: est && this.market ? { asset: this.market.quote, amount: est.value.toFixed() } : null,
      lock: est ? text(est.lock) : null,
      fee: est ? text(est.fee) : null,
      worstPrice:
        est?.worst && this.market
          ? { asset: this.market.quote, amount: est.worst.toFixed() }
          : null,
      source: 'estimate',
      average: est?.average?.toFixed() ?? null,
    };
  });

  readonly canSubmit = $derived(
    this.request !== null &&
      this.problems.length === 0 &&
      !this.submitting &&
      Object.values(this.fieldMessages).every((m) => m === null),
  );

  /**
   * Asks main for its preview of the order as it now reads, a moment after the last keystroke.
   * When only the book has moved (a market order's figures follow it), at most once a second
   * however fast it moves: each preview is several reads of the exchange, and the form's own
   * figures follow the book meanwhile.
   */
  refreshPreview(delay = PREVIEW_DELAY_MS): void {
    if (!this.request) {
      this.clearPreviewTimer();
      this.previewError = null;
      return;
    }
    if (this.preview?.key === this.previewKey) {
      this.clearPreviewTimer();
      return;
    }
    const bookOnly = this.askedTerms === this.previewTerms;
    if (bookOnly && this.previewTimer) return;
    this.clearPreviewTimer();
    const run = async () => {
      this.previewTimer = null;
      const request = this.request;
      if (!request) return;
      const key = this.previewKey;
      const terms = (this.askedTerms = this.previewTerms);
      const seq = ++this.previewSeq;
      try {
        const value = await unwrap(this.deps.preview(request));
        if (seq === this.previewSeq) {
          this.preview = { key, terms, value };
          this.previewError = null;
        }
      } catch (error) {
        if (seq === this.previewSeq) this.previewError = messageOf(error);
      }
    };
    const wait = bookOnly ? Math.max(delay, BOOK_PREVIEW_MS) : delay;
    if (wait <= 0) void run();
    else this.previewTimer = setTimeout(() => void run(), wait);
  }

  private clearPreviewTimer(): void {
    if (this.previewTimer) clearTimeout(this.previewTimer);
    this.previewTimer = null;
  }

  /** Clicking a level in the book: its price, and with `quantity` the size up to that level. */
  usePrice(price: Decimal, quantity?: Decimal): void {
    const market = this.market;
    this.kind = 'limit';
    this.price = price.toFixed(market?.priceDecimals ?? 4);
    if (quantity) {
      this.quantity = quantity
        .toDecimalPlaces(market?.quantityDecimals ?? 4, Decimal.ROUND_DOWN)
        .toFixed();
    }
  }

  /** A share of the free balance as the quantity; a message when it cannot be worked out. */
  useShare(share: number): string | null {
    const market = this.market;
    if (!market) return 'Choose a market first.';
    const free = this.free;
    if (!free) return `Your ${this.lockAsset ?? 'exchange'} balance is not known yet.`;
    const price = this.priceCheck.ok ? this.priceCheck.value : null;
    if (this.side === 'buy' && this.kind === 'limit' && !price) {
      return 'Enter a limit price first: the share of your balance depends on it.';
    }
    const quantity = quantityForShare({
      share,
      side: this.side,
      kind: this.kind,
      free,
      price,
      book: this.deps.book(),
      quantityDecimals: market.quantityDecimals,
    });
    if (!quantity) return 'The book has no asks to size a market buy against.';
    this.quantity = quantity.toFixed();
    return null;
  }

  /** Arrow keys in the price field: one tick up or down. */
  stepPrice(direction: 1 | -1): void {
    const decimals = this.market?.priceDecimals ?? 4;
    const tick = new Money(1).div(new Money(10).pow(decimals));
    const current = this.priceCheck.ok ? this.priceCheck.value : null;
    const fallback =
      direction === 1
        ? (this.deps.book().bids[0]?.price ?? null)
        : (this.deps.book().asks[0]?.price ?? null);
    const start = current ?? fallback;
    if (!start) return;
    const next = current ? start.plus(tick.times(direction)) : start;
    if (next.greaterThan(0)) this.price = next.toFixed(decimals);
  }

  /** Tidies a field when the trader leaves it (`,5` → `0.5`). */
  tidy(field: 'price' | 'quantity' | 'slippage'): void {
    this[field] = normalizeDecimal(this[field]);
  }

  /**
   * Sends the order through the operation runner (confirmation, signing, progress, outcome).
   * Returns true when the exchange accepted it; the quantity is cleared for the next order, the
   * price kept.
   */
  async submit(send: (request: OrderRequest) => Promise<boolean>): Promise<boolean> {
    this.attempted = true;
    const request = this.request;
    if (!request || !this.canSubmit) return false;
    // A market order's slippage limit as the trader sees it priced: main never signs a worse one.
    const worst = this.summary.worstPrice;
    this.submitting = true;
    try {
      const done = await send(
        request.type === 'market' && request.slippageBp !== undefined && worst
          ? { ...request, worstPrice: worst.amount }
          : request,
      );
      if (done) {
        this.quantity = '';
        this.attempted = false;
        this.preview = null;
      }
      return done;
    } finally {
      this.submitting = false;
    }
  }

  dispose(): void {
    if (this.previewTimer) clearTimeout(this.previewTimer);
    this.previewSeq++;
  }
}
