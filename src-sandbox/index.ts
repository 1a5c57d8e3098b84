import * as Crypto from '@cardano-sdk/crypto';
import { randomBytes } from 'node:crypto';
import type { ExchangeRules } from './exchange.js';
import { fundsRoutes } from './http/funds-routes.js';
import type { Guard } from './http/guard.js';
import { marketRoutes } from './http/market-routes.js';
import { orderRoutes } from './http/order-routes.js';
import type { RateLimit } from './http/rate-limit.js';
import { sandboxRoutes } from './http/sandbox-routes.js';
import { createServer, type InjectedFailures } from './http/server.js';
import { attachStreams } from './http/streams.js';
import { nextRandom } from './ids.js';
import { SandboxCore, type CompactionPolicy } from './sandbox-core.js';

export type { RateLimit } from './http/rate-limit.js';
export type { ExchangeRules } from './exchange.js';
export type { CompactionPolicy } from './sandbox-core.js';
export { ADMIN_TOKEN_HEADER } from './http/guard.js';
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
  /** Seed of the market maker's random walk and of the takers (a new data folder only). */
  seed?: number;
  /** Time a deposit stays locked before it is free. Default 3000 ms. */
  confirmationDelayMs?: number;
  /** Time before a withdrawal's UTxO appears on L1. Default 5000 ms. */
  withdrawalDelayMs?: number;
  /** Run the built-in market maker. Default true. */
  marketMaker?: boolean;
  /** Let simulated takers trade now and then. Default true. */
  takers?: boolean;
  /**
   * A new data folder starts with a day of past trades on its tape (chart, recent trades, 24 h
   * figures). Default true; tests that count trades turn it off.
   */
  history?: boolean;
  /** Milliseconds between market ticks (maker requotes, takers' chances). Default 2000. */
  marketMakerIntervalMs?: number;
  /** Requests per window per API key; false turns it off. Default 6000 per 60 s. */
  rateLimit?: RateLimit | false;
  /** Exchange rules for a new data folder (an existing one keeps its own). */
  rules?: Partial<ExchangeRules>;
  /** When the journal is compacted into a snapshot (tests make it small). */
  compaction?: CompactionPolicy;
  /** Log requests with fastify's logger. Default false. */
  logger?: boolean;
}

export interface RunningSandbox {
  url: string;
  /** The per-run admin token: header `x-sandbox-token` on every `/sandbox/*` route. */
  adminToken: string;
  /** Set when the data folder was damaged and a fresh exchange started: what happened, in words. */
  notice?: string;
  /** Every HTTP route it serves (method and path pattern). */
  routes: readonly { method: string; path: string }[];
  /** Stops accepting requests, closes the streams, waits for the journal, closes the server. */
  close(): Promise<void>;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { max: 6000, windowMs: 60_000 };
const IDLE_AFTER_MS = 60_000;
/** On an active tick, the chance that a simulated taker trades (about one every 6 s). */
const TAKER_CHANCE = 1 / 3;

/** Starts the sandbox exchange on loopback and replays its journal. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  await Crypto.ready();
  const confirmationDelayMs = options.confirmationDelayMs ?? 3000;
  const withdrawalDelayMs = options.withdrawalDelayMs ?? 5000;
  const seed = options.seed ?? 1;
  const core = await SandboxCore.open(
    options.dataDir,
    seed,
    options.rules ?? {},
    options.compaction,
    options.history ?? true,
  );
  let closing = false;
  const failures: InjectedFailures = { code: 5000, remaining: 0 };
  const guard: Guard = { host: '', adminToken: randomBytes(32).toString('hex') };
  const app = createServer(
    {
      rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
      logger: options.logger ?? false,
      guard,
    },
    () => closing,
    failures,
  );
  const routes: { method: string; path: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, path: route.url });
    }
  });
  orderRoutes(app, core);
  fundsRoutes(app, core, { confirmationDelayMs, withdrawalDelayMs });
  marketRoutes(app, core);
  sandboxRoutes(app, core, { confirmationDelayMs, withdrawalDelayMs }, failures);
  const streams = attachStreams(app.server, core, guard, () => closing);
  core.onChange = () => streams.changed();

  let timer: NodeJS.Timeout | undefined;
  const marketMaker = options.marketMaker ?? true;
  const takers = options.takers ?? true;
  if (marketMaker || takers) {
    let lastRequote = 0;
    let lastTaker = 0;
    // When takers come is drawn from the seed too; what they trade is drawn inside the exchange.
    const schedule = { seed: (seed ^ 0x5c4ed01e) | 0 };
    const tick = () => {
      if (closing) return;
      const at = core.now();
      // While nobody trades or watches, the market moves once a minute: the journal of an idle
      // app stays small.
      const idle = at - core.lastActivityAt > IDLE_AFTER_MS && streams.count() === 0;
      if (marketMaker && !(idle && at - lastRequote < IDLE_AFTER_MS)) {
        lastRequote = at;
        core.commit({ t: 'marketMaker', at }).catch(() => undefined);
      }
      const chance = nextRandom(schedule) < TAKER_CHANCE;
      if (takers && (idle ? at - lastTaker >= IDLE_AFTER_MS : chance)) {
        lastTaker = at;
        core.commit({ t: 'taker', at: core.now() }).catch(() => undefined);
      }
    };
    tick();
    timer = setInterval(tick, options.marketMakerIntervalMs ?? 2000);
    timer.unref();
  }

  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port ?? 0, host });
  } catch (e) {
    if (timer) clearInterval(timer);
    await streams.close();
    await core.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  guard.host = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${guard.host}`,
    adminToken: guard.adminToken,
    ...(core.notice ? { notice: core.notice } : {}),
    routes,
    close() {
      closed ??= (async () => {
        closing = true;
        if (timer) clearInterval(timer);
        await streams.close();
        await app.close();
        await core.close();
      })();
      return closed;
    },
  };
}
