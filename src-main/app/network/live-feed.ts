import { AppError } from '../../../src-shared/errors';
import { ExchangeError } from '../../exchange';

/**
 * What the app-wide connection state says when a read fails: of a transport failure, the
 * connection itself and what to do ("Countersign could not reach the exchange: the connection
 * was refused. Check …"), not the one read that met it, which may be another screen's; of any
 * other failure, its own message.
 */
export const offlineDetail = (error: unknown, fallback: string): string => {
  if (error instanceof ExchangeError && error.connection) {
    return [error.connection, error.advice].filter(Boolean).join(' ');
  }
  return error instanceof AppError ? error.message : fallback;
};

/**
 * One live source of data: a WebSocket stream while it is up, polling while it is down. The
 * renderer never polls; this does, only as the fallback the issue of a lost stream calls for.
 */
export interface LiveFeedOptions {
  /** Opens the stream; reports its state; returns how to close it. */
  openStream: (onState: (state: 'connecting' | 'live' | 'down', detail: string) => void) => {
    close(): void;
  } | null;
  /** One read by HTTP, when the stream is down. */
  poll: () => Promise<void>;
  pollEveryMs: number;
  /** The feed's state changed (for the status bar). */
  onState: (state: 'live' | 'polling' | 'offline', detail: string) => void;
  setTimer?: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
}

export class LiveFeed {
  #stream: { close(): void } | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling = false;
  #stopped = false;

  constructor(private readonly options: LiveFeedOptions) {}

  start(): void {
    this.#stream = this.options.openStream((state, detail) => {
      if (this.#stopped) return;
      if (state === 'live') {
        this.#stopPolling();
        this.options.onState('live', detail);
      } else if (state === 'down') {
        this.#startPolling(detail);
      }
    });
    // No stream at all (none published for this exchange): poll from the start.
    if (!this.#stream)
      this.#startPolling('This exchange has no live stream; updating every few seconds.');
    // Read once now, whatever the stream does, so the screen is filled at once.
    void this.#pollOnce();
  }

  async #pollOnce(): Promise<boolean> {
    try {
      await this.options.poll();
      return true;
    } catch (error) {
      if (!this.#stopped) {
        this.options.onState('offline', offlineDetail(error, 'The exchange does not answer.'));
      }
      return false;
    }
  }

  #startPolling(detail: string): void {
    if (this.#polling || this.#stopped) return;
    this.#polling = true;
    this.options.onState('polling', detail);
    const tick = async () => {
      if (!this.#polling || this.#stopped) return;
      if (await this.#pollOnce()) this.options.onState('polling', detail);
      if (this.#polling && !this.#stopped) {
        this.#timer = (this.options.setTimer ?? setTimeout)(
          () => void tick(),
          this.options.pollEveryMs,
        );
        this.#timer.unref?.();
      }
    };
    this.#timer = (this.options.setTimer ?? setTimeout)(
      () => void tick(),
      this.options.pollEveryMs,
    );
    this.#timer.unref?.();
  }

  #stopPolling(): void {
    this.#polling = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Read now (after the trader changed something), whatever the stream does. */
  refresh(): Promise<boolean> {
    return this.#pollOnce();
  }

  stop(): void {
    this.#stopped = true;
    this.#stopPolling();
    this.#stream?.close();
    this.#stream = null;
  }
}

/** What a feed needs of the exchange's streams: open one, and hear every stream's state. */
export interface StreamSource {
  onState(
    listener: (status: {
      stream: string;
      state: 'connecting' | 'live' | 'down';
      detail: string;
    }) => void,
  ): () => void;
}

/** Opens one named stream and passes on only its own state changes. */
export const openNamedStream = (
  streams: StreamSource,
  name: string,
  open: () => { close(): void },
  onState: (state: 'connecting' | 'live' | 'down', detail: string) => void,
): { close(): void } => {
  const stop = streams.onState((status) => {
    if (status.stream === name) onState(status.state, status.detail);
  });
  const handle = open();
  return {
    close: () => {
      stop();
      handle.close();
    },
  };
};
