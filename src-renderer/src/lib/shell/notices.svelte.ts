export type NoticeTone = 'success' | 'error' | 'info' | 'warning';

export interface Notice {
  id: number;
  tone: NoticeTone;
  title: string;
  detail: string | null;
  /** Epoch milliseconds. */
  at: number;
  read: boolean;
  /** What it is about (an order: `order:<id>`): one toast on screen for each. */
  topic: string | null;
}

/** The topic of the notices about one order (its placing, its fills, its cancel). */
export const orderTopic = (orderId: string): string => `order:${orderId}`;
/** The topic of the notices about one deposit or withdrawal (sent, then landed), by its transaction. */
export const transactionTopic = (txHash: string): string => `tx:${txHash}`;

export interface NoticeOptions {
  /**
   * What the notice is about. A toast about the same thing already on screen leaves it for this
   * one ("Order filled" takes the place of "Order placed"; both stay in the activity list).
   */
  topic?: string | null;
  /**
   * An earlier step than what may already be told (an order placed, whose fill can arrive
   * first). Once a later step of its topic has been told, it is not put on screen, and it takes
   * its place in the activity list below that step, at the step's time if that was earlier, so
   * the list reads in the order things happened.
   */
  earlierStep?: boolean;
}

/** How long a toast stays on screen; errors stay until the trader dismisses them. */
const TOAST_MS: Record<NoticeTone, number | null> = {
  success: 6_000,
  info: 6_000,
  warning: 10_000,
  error: null,
};

const KEEP = 200;

/**
 * Toasts on screen at once: a burst of orders would otherwise stack them over the open orders'
 * Cancel buttons; the older ones are still in the activity list.
 */
const ON_SCREEN = 3;

/**
 * Every outcome the trader should hear of: shown as a toast, and kept (newest first) in the
 * activity list, so a toast missed while looking elsewhere is never lost.
 */
export class Notices {
  /** The activity list, newest first. */
  all = $state<Notice[]>([]);
  /** Ids of the notices on screen as toasts. */
  shown = $state<number[]>([]);
  readonly toasts: Notice[] = $derived(
    this.shown.map((id) => this.all.find((n) => n.id === id)).filter((n) => n !== undefined),
  );
  readonly unread: number = $derived(this.all.filter((n) => !n.read).length);

  private nextId = 1;
  private timers: Record<number, ReturnType<typeof setTimeout>> = {};

  constructor(private readonly now: () => number = () => Date.now()) {}

  add(
    tone: NoticeTone,
    title: string,
    detail: string | null = null,
    { topic = null, earlierStep = false }: NoticeOptions = {},
  ): Notice {
    // The oldest notice told of a later step of this one's topic (the list is newest first).
    const later =
      earlierStep && topic !== null ? this.all.findLastIndex((n) => n.topic === topic) : -1;
    const next = this.all[later];
    const notice: Notice = {
      id: this.nextId++,
      tone,
      title,
      detail,
      at: next ? Math.min(this.now(), next.at) : this.now(),
      read: false,
      topic,
    };
    if (next) {
      this.all = [...this.all.slice(0, later + 1), notice, ...this.all.slice(later + 1)].slice(
        0,
        KEEP,
      );
      return notice;
    }
    this.all = [notice, ...this.all].slice(0, KEEP);
    const told = topic === null ? [] : this.toasts.filter((t) => t.topic === topic);
    for (const toast of told) this.dismiss(toast.id);
    this.shown = [...this.shown, notice.id].slice(-ON_SCREEN);
    const ms = TOAST_MS[tone];
    if (ms !== null) this.timers[notice.id] = setTimeout(() => this.dismiss(notice.id), ms);
    return notice;
  }

  success(title: string, detail: string | null = null, options?: NoticeOptions): Notice {
    return this.add('success', title, detail, options);
  }

  error(title: string, detail: string | null = null): Notice {
    return this.add('error', title, detail);
  }

  info(title: string, detail: string | null = null): Notice {
    return this.add('info', title, detail);
  }

  warning(title: string, detail: string | null = null): Notice {
    return this.add('warning', title, detail);
  }

  /** Takes a toast off the screen; it stays in the activity list. */
  dismiss(id: number): void {
    clearTimeout(this.timers[id]);
    this.timers = Object.fromEntries(
      Object.entries(this.timers).filter(([key]) => Number(key) !== id),
    );
    this.shown = this.shown.filter((shown) => shown !== id);
  }

  markAllRead(): void {
    if (this.unread === 0) return;
    this.all = this.all.map((n) => (n.read ? n : { ...n, read: true }));
  }

  clear(): void {
    for (const id of this.shown) this.dismiss(id);
    this.all = [];
  }

  dispose(): void {
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.timers = {};
  }
}
