import type { Api, PendingOperation } from '../../../../src-shared/contract';
import { PendingOperation as PendingOperationSchema } from '../../../../src-shared/contract/operations';
import { messageOf, unwrap } from '../api';
import type { Notices } from '../shell/notices.svelte';

const parseList = (value: unknown): PendingOperation[] | null => {
  const parsed = PendingOperationSchema.array().safeParse(value);
  return parsed.success ? parsed.data : null;
};

/**
 * Signed operations an earlier run left unfinished (a crash, a lost connection while submitting).
 * Main asks the exchange what became of each; the trader submits or discards it here. Nothing is
 * submitted without the trader's word, and main never submits one twice.
 */
export class PendingOperations {
  list = $state<PendingOperation[]>([]);
  /** The id being resolved, to disable its buttons meanwhile. */
  busy = $state<string | null>(null);
  /** The trader chose to decide later: the prompt stays closed until the list changes. */
  deferred = $state(false);
  readonly open: boolean = $derived(this.list.length > 0 && !this.deferred);

  private readonly stop: () => void;

  constructor(
    private readonly api: Api,
    private readonly notices: Notices,
  ) {
    this.stop = api.on('operations:pending', (payload) => {
      const list = parseList(payload);
      if (list) this.replace(list);
    });
  }

  private replace(list: PendingOperation[]): void {
    const known = this.list.map((p) => p.id);
    if (list.some((p) => !known.includes(p.id))) this.deferred = false;
    this.list = list;
  }

  async load(): Promise<void> {
    try {
      const list = parseList(await unwrap(this.api.operations.pending()));
      if (list) this.replace(list);
    } catch {
      // Until main's journal answers, there is nothing to offer.
    }
  }

  async resolve(operation: PendingOperation, action: 'submit' | 'discard'): Promise<void> {
    this.busy = operation.id;
    try {
      const list = parseList(
        await unwrap(this.api.operations.resolve({ id: operation.id, action })),
      );
      if (list) this.replace(list);
      if (action === 'submit') this.notices.success('Submitted after restart', operation.title);
      else this.notices.info('Removed from the unfinished list', operation.title);
    } catch (error) {
      this.notices.error(
        action === 'submit' ? 'Could not submit it' : 'Could not remove it',
        `${operation.title}: ${messageOf(error)}`,
      );
    } finally {
      this.busy = null;
    }
  }

  later(): void {
    this.deferred = true;
  }

  show(): void {
    this.deferred = false;
  }

  dispose(): void {
    this.stop();
  }
}
