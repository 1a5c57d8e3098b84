import * as Crypto from '@cardano-sdk/crypto';
import type { ExchangeRules } from './exchange.js';
import { fundsRoutes } from './http/funds-routes.js';
import { marketRoutes } from './http/market-routes.js';
import { orderRoutes } from './http/order-routes.js';
import type { RateLimit } from './http/rate-limit.js';
import { sandboxRoutes } from './http/sandbox-routes.js';
import { createServer, type InjectedFailures } from './http/server.js';
import { SandboxCore } from './sandbox-core.js';

export type { RateLimit } from './http/rate-limit.js';
export type { ExchangeRules } from './exchange.js';
export { EXCHANGE_ADDRESSES } from './addresses.js';
export { ADA, USDM, NIGHT, MARKETS } from './assets.js';
export { ErrorCode } from './errors.js';

export interface SandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Folder of the journal; created if missing. Its state is replayed on start. */
  dataDir: string;
  /** Seed of the market maker's random walk (a new data folder only). */
  seed?: number;
  /** Time a deposit stays locked before it is free. Default 3000 ms. */
  confirmationDelayMs?: number;
  /** Time before a withdrawal's UTxO appears on L1. Default 5000 ms. */
  withdrawalDelayMs?: number;
  /** Run the built-in market maker. Default true. */
  marketMaker?: boolean;
  /** Milliseconds between market maker requotes. Default 2000. */
  marketMakerIntervalMs?: number;
  /** Requests per window per API key; false turns it off. Default 6000 per 60 s. */
  rateLimit?: RateLimit | false;
  /** Exchange rules for a new data folder (an existing one keeps its own). */
  rules?: Partial<ExchangeRules>;
  /** Log requests with fastify's logger. Default false. */
  logger?: boolean;
}

export interface RunningSandbox {
  url: string;
  /** Stops accepting requests, waits for the journal, closes the server. */
  close(): Promise<void>;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { max: 6000, windowMs: 60_000 };
const IDLE_AFTER_MS = 60_000;

/** Starts the sandbox exchange on loopback and replays its journal. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  await Crypto.ready();
  const confirmationDelayMs = options.confirmationDelayMs ?? 3000;
  const withdrawalDelayMs = options.withdrawalDelayMs ?? 5000;
  const core = await SandboxCore.open(options.dataDir, options.seed ?? 1, options.rules ?? {});
  let closing = false;
  const failures: InjectedFailures = { code: 5000, remaining: 0 };
  const app = createServer(
    { rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT, logger: options.logger ?? false },
    () => closing,
    failures,
  );
  orderRoutes(app, core);
  fundsRoutes(app, core, { confirmationDelayMs, withdrawalDelayMs });
  marketRoutes(app, core);
  sandboxRoutes(app, core, { confirmationDelayMs, withdrawalDelayMs }, failures);

  let timer: NodeJS.Timeout | undefined;
  if (options.marketMaker ?? true) {
    let lastRequote = 0;
    const requote = () => {
      const at = core.now();
      // While nobody trades, requote once a minute: the journal stays small for an idle app.
      const idle = at - core.lastActivityAt > IDLE_AFTER_MS;
      if (closing || (idle && at - lastRequote < IDLE_AFTER_MS)) return;
      lastRequote = at;
      core.commit({ t: 'marketMaker', at }).catch(() => undefined);
    };
    requote();
    timer = setInterval(requote, options.marketMakerIntervalMs ?? 2000);
    timer.unref();
  }

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host ?? '127.0.0.1';
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closed ??= (async () => {
        closing = true;
        if (timer) clearInterval(timer);
        await app.close();
        await core.close();
      })();
      return closed;
    },
  };
}
