import type { Dispatch } from '../../dispatch';

/**
 * Counts the trader's requests still being handled, so that an agreed update restarts the app
 * only between them, never in the middle of signing or sending a trade.
 */
export class InFlight {
  #count = 0;
  #waiting: Array<() => void> = [];

  get busy(): boolean {
    return this.#count > 0;
  }

  /** Resolves once no request is being handled (at once if none is). */
  whenIdle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
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
        if (this.#count === 0) this.#waiting.splice(0).forEach((resolve) => resolve());
      }
    };
  }
}
