import type { OperationProgress, OperationStep } from '../../../src-shared/contract';
import type { Dispatch } from '../../dispatch';

/** Steps after which an operation is over: nothing of it is under way any more. */
const OVER: ReadonlySet<OperationStep> = new Set(['done', 'failed', 'discarded']);

/** How long a trade the trader is reviewing holds back a restart (an abandoned dialog expires). */
export const REVIEW_HOLD_MS = 10 * 60 * 1000;

/**
 * What the trader has under way, so that an agreed update restarts the app only between trades,
 * never in the middle of one: requests still being handled, and operations (orders, cancels,
 * deposits, withdrawals) from build to their last step, including one awaiting the trader's
 * confirmation (for up to REVIEW_HOLD_MS).
 */
export class InFlight {
  #count = 0;
  /** Operation id → its step and when it got there. */
  #operations = new Map<string, { step: OperationStep; at: number }>();
  #waiting: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  get busy(): boolean {
    return this.#count > 0 || this.#openOperations() > 0;
  }

  /** Resolves once nothing is under way (at once if nothing is). */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    const idle = new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#settle();
    return idle;
  }

  /** Follows an operation through its steps (`operations:progress`). */
  observe(progress: OperationProgress): void {
    if (OVER.has(progress.step)) this.#operations.delete(progress.operationId);
    else this.#operations.set(progress.operationId, { step: progress.step, at: this.now() });
    this.#settle();
  }

  /** Counts every call through `dispatch`, except the channels `ignore` names. */
  wrap(dispatch: Dispatch, ignore: (channel: string) => boolean = () => false): Dispatch {
    return async (channel, payload) => {
      if (ignore(channel)) return dispatch(channel, payload);
      this.#count += 1;
      try {
        return await dispatch(channel, payload);
      } finally {
        this.#count -= 1;
        this.#settle();
      }
    };
  }

  #openOperations(): number {
    const now = this.now();
    for (const [id, { step, at }] of this.#operations) {
      if (step === 'awaiting-confirmation' && now - at >= REVIEW_HOLD_MS) {
        this.#operations.delete(id);
      }
    }
    return this.#operations.size;
  }

  /** Wakes the waiters once idle; while only reviews hold it, looks again when one expires. */
  #settle(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiting.length === 0) return;
    if (!this.busy) {
      this.#waiting.splice(0).forEach((resolve) => resolve());
      return;
    }
    if (this.#count > 0) return;
    const reviews = [...this.#operations.values()].filter(
      (entry) => entry.step === 'awaiting-confirmation',
    );
    if (reviews.length !== this.#operations.size) return;
    const soonest = Math.min(...reviews.map((entry) => entry.at + REVIEW_HOLD_MS));
    this.#timer = setTimeout(() => this.#settle(), Math.max(0, soonest - this.now()));
  }
}
