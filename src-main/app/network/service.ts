import type { EmitEvent } from '../../../src-shared/contract';
import type { ConnectionState } from '../../../src-shared/contract/market';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import {
  NETWORK_LABELS,
  REAL_SERVICE_URLS,
  networkIdOf,
  networkKeyOf,
  type CardanoNetworkId,
  type NetworkChoice,
} from '../../../src-shared/network';
import { BlockfrostChain, KoiosChain, SandboxChain, type ChainLookup } from '../../chain';
import { ExchangeClient, SandboxAdmin, type EmbeddedSandbox } from '../../exchange';
import type { Logger } from '../../log';
import type { SettingsStore } from '../../store/settings';
import { offlineDetail } from './live-feed';
import { realServiceRules, sandboxRules, type ExchangeRules } from './rules';

/** The embedded sandbox is started again after a crash at most this often. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 5 * 60_000;

/** Koios's public endpoints: L1 coins on the real networks need no account. */
const KOIOS = {
  0: 'https://preprod.koios.rest/api/v1',
  1: 'https://api.koios.rest/api/v1',
} as const;

/** Blockfrost's endpoints, for a trader who reads L1 with their own project id. */
const BLOCKFROST = {
  0: 'https://cardano-preprod.blockfrost.io/api/v0',
  1: 'https://cardano-mainnet.blockfrost.io/api/v0',
} as const;

type ClosableChain = ChainLookup & { close?: () => Promise<void> };

/** Where a real network's L1 is read: Koios, or Blockfrost with the trader's project id. */
export interface ChainChoice {
  /** The unlocked wallet's Blockfrost project id for this network, when it saved one. */
  blockfrost?: () => string | null;
  /** Whether the active wallet saved one (sealed while the session is locked). */
  blockfrostSaved?: () => Promise<boolean>;
  /** Other addresses of the two services (tests). */
  urls?: { koios?: string; blockfrost?: string };
}

/**
 * Everything the app holds for one exchange: its client, chain provider, rules and the key under
 * which its caches and journal live. A new one is made when the network changes, so nothing of
 * one network ever serves another.
 */
export class Connection {
  readonly key: string;
  readonly networkId: CardanoNetworkId;
  readonly label: string;
  #clients = new Map<string, ExchangeClient>();
  #rules: Promise<ExchangeRules> | undefined;
  #admin: Promise<SandboxAdmin> | undefined;
  #chain: { provider: string; lookup: ClosableChain } | undefined;
  #router: ChainLookup | undefined;
  #closed = false;

  constructor(
    readonly choice: NetworkChoice,
    private readonly endpoint: () => Promise<{
      baseUrl: string;
      streamUrl?: string;
      adminToken?: string;
    }>,
    private readonly logger: Logger,
    private readonly chainChoice: ChainChoice = {},
  ) {
    this.key = networkKeyOf(choice);
    this.networkId = networkIdOf(choice);
    this.label = NETWORK_LABELS[choice.name];
  }

  get isSandbox(): boolean {
    return this.choice.name === 'sandbox';
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The exchange client, authenticated with `apiKey` when given (public data needs none). */
  async client(apiKey: string | null): Promise<ExchangeClient> {
    if (this.#closed) {
      throw new AppError(
        ErrorCode.Network,
        'The network was changed while this was running. Nothing was sent; try again.',
      );
    }
    const cacheKey = apiKey ?? '';
    let client = this.#clients.get(cacheKey);
    if (!client) {
      const { baseUrl, streamUrl } = await this.endpoint();
      client = new ExchangeClient(
        { baseUrl, ...(apiKey ? { apiKey } : {}), ...(streamUrl ? { streamUrl } : {}) },
        {
          logger: this.logger,
          // The sandbox on this machine takes far more than the real service's published limit.
          ...(this.isSandbox ? { rateLimit: { max: 6000, windowMs: 60_000 } } : {}),
        },
      );
      this.#clients.set(cacheKey, client);
    }
    return client;
  }

  /** The embedded sandbox's own endpoints (accounts, faucet, its L1); null on other networks. */
  async sandboxAdmin(): Promise<SandboxAdmin | null> {
    if (!this.isSandbox) return null;
    this.#admin ??= this.endpoint().then(
      ({ baseUrl, adminToken }) =>
        new SandboxAdmin({ baseUrl, ...(adminToken ? { adminToken } : {}) }),
    );
    this.#admin.catch(() => {
      this.#admin = undefined;
    });
    return this.#admin;
  }

  /**
   * Where the wallet's coins on L1 are read for this network: the sandbox's own ledger; on the
   * real networks Blockfrost when the trader saved a project id (and the session is unlocked),
   * else Koios, which needs none.
   */
  chain(): ChainLookup {
    if (this.isSandbox) return this.#provider();
    // Real networks: the provider is chosen at each call, since unlocking opens the project id.
    this.#router ??= {
      utxosAt: async (address, signal) => (await this.#realProvider()).utxosAt(address, signal),
      resolve: async (refs, signal) => (await this.#realProvider()).resolve(refs, signal),
    };
    return this.#router;
  }

  /** Blockfrost while its project id is open; while it is sealed, a request to unlock. */
  async #realProvider(): Promise<ChainLookup> {
    if (!this.#blockfrost() && (await this.chainChoice.blockfrostSaved?.())) {
      throw new AppError(
        ErrorCode.Locked,
        'Your coins are read through your Blockfrost project, whose id is encrypted with your spending password: unlock to read them.',
      );
    }
    return this.#provider();
  }

  #blockfrost(): string | null {
    return this.chainChoice.blockfrost?.() ?? null;
  }

  #provider(): ChainLookup {
    const projectId = this.isSandbox ? null : this.#blockfrost();
    const provider = this.isSandbox ? 'sandbox' : projectId ? `blockfrost ${projectId}` : 'koios';
    if (this.#chain?.provider !== provider) {
      void this.#chain?.lookup.close?.().catch(() => undefined);
      const lookup: ClosableChain = this.isSandbox
        ? new SandboxChain(async () => {
            const { baseUrl, adminToken } = await this.endpoint();
            return { baseUrl, ...(adminToken ? { adminToken } : {}) };
          })
        : projectId
          ? new BlockfrostChain({
              baseUrl: this.chainChoice.urls?.blockfrost ?? BLOCKFROST[this.networkId],
              projectId,
            })
          : new KoiosChain({ baseUrl: this.chainChoice.urls?.koios ?? KOIOS[this.networkId] });
      this.#chain = { provider, lookup };
    }
    return this.#chain.lookup;
  }

  /** The exchange's rules, read once per connection. */
  rules(): Promise<ExchangeRules> {
    this.#rules ??= (async () => {
      const admin = await this.sandboxAdmin();
      if (!admin) return realServiceRules(this.choice);
      return sandboxRules(await admin.network());
    })();
    this.#rules.catch(() => {
      this.#rules = undefined;
    });
    return this.#rules;
  }

  close(): void {
    this.#closed = true;
    for (const client of this.#clients.values()) void client.close();
    this.#clients.clear();
    void this.#admin?.then(
      (admin) => admin.close(),
      () => undefined,
    );
    void this.#chain?.lookup.close?.().catch(() => undefined);
    this.#chain = undefined;
    this.#admin = undefined;
  }
}

export interface NetworkServiceDeps {
  settings: SettingsStore;
  emit: EmitEvent;
  logger: Logger;
  /**
   * Starts the embedded sandbox (absent where the app cannot run one); `onExit` is called if it
   * ends on its own after it started.
   */
  startSandbox?: (onExit: () => void) => Promise<EmbeddedSandbox>;
  /** The unlocked wallet's Blockfrost project id for the current network, if it saved one. */
  /** How a real network's L1 is read (Koios, or the trader's Blockfrost project). */
  chain?: ChainChoice;
  /** Called after the network changed (the session locks: API keys are per network). */
  onSwitch?: (connection: Connection) => Promise<void>;
  now?: () => number;
}

/**
 * The exchange the app talks to: the trader's choice (kept in settings), the connection to it,
 * and its live state for the status bar. Switching closes the old connection (and stops the
 * embedded sandbox when leaving it) before the new one serves anything.
 */
export class NetworkService {
  #connection: Connection | undefined;
  #sandbox: Promise<EmbeddedSandbox> | null = null;
  #state: ConnectionState;
  #listeners = new Set<(connection: Connection) => void>();
  #choice: NetworkChoice | undefined;
  #restarts: number[] = [];
  #disposed = false;
  /** A switch under way: no connection is made until it has decided the network. */
  #switching: Promise<void> | undefined;

  constructor(private readonly deps: NetworkServiceDeps) {
    this.#state = {
      state: 'connecting',
      network: 'sandbox',
      detail: 'Connecting to the exchange…',
      since: new Date(this.#now()).toISOString(),
    };
  }

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The running embedded sandbox, if the app started one. */
  get sandbox(): Promise<EmbeddedSandbox> | null {
    return this.#sandbox;
  }

  async #endpointOf(choice: NetworkChoice): Promise<{
    baseUrl: string;
    streamUrl?: string;
    adminToken?: string;
  }> {
    switch (choice.name) {
      case 'sandbox': {
        const sandbox = this.#startSandbox();
        if (!sandbox) {
          throw new AppError(
            ErrorCode.Network,
            'The built-in practice exchange cannot run here. Choose another network in Settings.',
          );
        }
        const running = await sandbox;
        return {
          baseUrl: running.url,
          streamUrl: running.url.replace(/^http/, 'ws'),
          ...(running.adminToken ? { adminToken: running.adminToken } : {}),
        };
      }
      case 'staging':
      case 'production':
        return { ...REAL_SERVICE_URLS[choice.name] };
      case 'custom':
        return {
          baseUrl: choice.baseUrl,
          ...(choice.streamUrl ? { streamUrl: choice.streamUrl } : {}),
        };
    }
  }

  #startSandbox(): Promise<EmbeddedSandbox> | null {
    if (!this.#sandbox && this.deps.startSandbox) {
      const started = this.deps.startSandbox(() => void this.#sandboxEnded(started));
      // A failed start is reported to whoever uses the exchange; it must not crash the app.
      started.catch((error: unknown) => {
        this.deps.logger.error('embedded sandbox did not start', error);
        this.report(
          'offline',
          error instanceof AppError ? error.message : 'The practice exchange did not start.',
        );
        if (this.#sandbox === started) this.#sandbox = null;
      });
      this.#sandbox = started;
    }
    return this.#sandbox;
  }

  /**
   * The embedded sandbox ended without being asked to (it crashed or was killed): start it again
   * from its own data, a few times at most, and reconnect everything that used it.
   */
  async #sandboxEnded(ended: Promise<EmbeddedSandbox>): Promise<void> {
    if (this.#sandbox !== ended || this.#disposed) return;
    this.#sandbox = null;
    const now = this.#now();
    this.#restarts = this.#restarts.filter((at) => now - at < RESTART_WINDOW_MS);
    if (this.#restarts.length >= MAX_RESTARTS) {
      this.report(
        'offline',
        'The practice exchange stopped several times in a row. Quit and reopen Countersign; if it keeps stopping, reset the practice exchange in Settings.',
      );
      return;
    }
    this.#restarts.push(now);
    this.deps.logger.warn('embedded sandbox ended on its own; starting it again');
    this.report('connecting', 'The practice exchange stopped unexpectedly. Starting it again…');
    const current = this.#connection;
    if (!current?.isSandbox) return;
    current.close();
    this.#connection = undefined;
    const next = await this.connection();
    for (const listener of this.#listeners) listener(next);
  }

  /**
   * Asks the exchange a public question as soon as a connection is made, so the status bar says
   * whether it answers before any live feed runs (on the welcome screen, while locked); asks
   * again, less and less often, while it does not answer.
   */
  #probe(connection: Connection, delayMs = 0): void {
    const timer = setTimeout(() => {
      void (async () => {
        if (this.#connection !== connection || connection.closed) return;
        try {
          const client = await connection.client(null);
          await client.marketPrice('ADAUSDM');
          if (this.#connection === connection && this.#state.state !== 'polling') {
            this.report('live', `Connected to ${connection.label}.`);
          }
        } catch (error) {
          if (this.#connection !== connection || connection.closed) return;
          this.report(
            'offline',
            offlineDetail(
              error,
              `${connection.label} does not answer. Check your connection; Countersign keeps trying.`,
            ),
          );
          this.#probe(connection, Math.min(30_000, Math.max(2_000, delayMs * 2)));
        }
      })();
    }, delayMs);
    timer.unref?.();
  }

  async #stopSandbox(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = null;
    await sandbox?.then(
      (running) => running.stop(),
      () => undefined,
    );
  }

  async choice(): Promise<NetworkChoice> {
    this.#choice = (await this.deps.settings.read()).network;
    return this.#choice;
  }

  /** The chosen network, known once `start` has run. */
  get current(): NetworkChoice {
    if (!this.#choice) throw new Error('NetworkService.current read before start()');
    return this.#choice;
  }

  /**
   * The connection to the chosen exchange (made on first use). During a switch it is the new
   * network's: asked for while the choice is being written, it waits for it, never reconnecting
   * to the network being left.
   */
  async connection(): Promise<Connection> {
    while (this.#switching) await this.#switching;
    return this.#connect();
  }

  async #connect(): Promise<Connection> {
    if (!this.#connection) {
      const choice = await this.choice();
      this.#connection = new Connection(
        choice,
        () => this.#endpointOf(choice),
        this.deps.logger,
        this.deps.chain,
      );
      this.#state = { ...this.#state, network: this.#connection.label };
      if (choice.name === 'sandbox') this.#startSandbox();
      this.#probe(this.#connection);
    }
    return this.#connection;
  }

  /** Starts what the chosen network needs right away (the sandbox on a new install). */
  async start(): Promise<void> {
    await this.connection();
  }

  onSwitch(listener: (connection: Connection) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async switchTo(choice: NetworkChoice): Promise<Connection> {
    const current = await this.connection();
    if (networkKeyOf(choice) === current.key && choice.name !== 'custom') return current;
    // Closed before anything is awaited: from here on nothing of the old network reaches the
    // screens. Should the settings write fail, the next use reconnects to the old choice.
    current.close();
    this.#connection = undefined;
    let switched!: () => void;
    this.#switching = new Promise((resolve) => (switched = resolve));
    let next: Connection;
    try {
      await this.deps.settings.update((settings) => ({ ...settings, network: choice }));
      this.#choice = choice;
      if (current.isSandbox && choice.name !== 'sandbox') await this.#stopSandbox();
      next = await this.#connect();
    } finally {
      this.#switching = undefined;
      switched();
    }
    this.report('connecting', `Connecting to ${next.label}…`);
    await this.deps.onSwitch?.(next);
    for (const listener of this.#listeners) listener(next);
    return next;
  }

  state(): ConnectionState {
    return this.#state;
  }

  /** Live state of the exchange, as the feeds see it; pushed to the renderer when it changes. */
  report(state: ConnectionState['state'], detail: string): void {
    if (this.#state.state === state && this.#state.detail === detail) return;
    this.#state = {
      state,
      network: this.#connection?.label ?? this.#state.network,
      detail,
      since: new Date(this.#now()).toISOString(),
    };
    this.deps.emit('exchange:connection', this.#state);
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#connection?.close();
    this.#connection = undefined;
    await this.#stopSandbox();
  }
}
