import type {
  EmitEvent,
  FundsOverview,
  FundsRules,
  PreparedOperation,
  WalletBalance,
} from '../../../src-shared/contract';
import { FUNDS_WATCH_HOURS } from '../../../src-shared/contract/funds';
import { LOVELACE } from '../../../src-shared/assets';
import type { Balance } from '../../../src-shared/domain';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import {
  Money,
  fromSmallestUnit,
  groupedText,
  smallestUnitText,
  toSmallestUnit,
} from '../../../src-shared/money';
import type { Logger } from '../../log';
import { refOf, totalOf, type InputUtxo } from '../../chain';
import type { TransactionSigner } from '../../signing';
import type { WalletBook } from '../../wallet';
import { activeAccount, signingProfile, type TradingAccount } from '../network/account';
import { assetOf, PUBLISHED_L1_FEE, type ExchangeRules } from '../network/rules';
import type { Connection, NetworkService } from '../network/service';
import type { OperationsService, ToReview } from '../operations/service';
import { depositReserve, selectCoins } from './coin-selection';
import type { Expected, PendingFundsStore, PendingState, Tracked, Waiting } from './pending-store';

export interface FundsDeps {
  network: NetworkService;
  book: WalletBook;
  signer: TransactionSigner;
  operations: OperationsService;
  emit: EmitEvent;
  apiKey: () => string;
  /** The wallet's L1 balance, as the wallet area reads it. */
  walletBalance: () => Promise<WalletBalance>;
  /** Where the deposits and withdrawals on their way are kept across restarts (memory only without). */
  store?: PendingFundsStore;
  logger?: Logger;
  now?: () => number;
}

/** After this long a deposit or withdrawal leaves the pending list whatever happened. */
const GIVE_UP_MS = FUNDS_WATCH_HOURS * 60 * 60_000;
/** Built and not sent: the newest are kept (one that is never confirmed is forgotten in time). */
const MAX_EXPECTED = 20;

const parseAmounts = (
  rules: ExchangeRules,
  amounts: ReadonlyArray<{ unit: string; amount: string }>,
): Map<string, bigint> => {
  const out = new Map<string, bigint>();
  for (const { unit, amount } of amounts) {
    const asset = rules.assets.find((a) => a.unit === unit);
    if (!asset) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `This exchange does not hold that asset (${unit.slice(0, 12)}…). Choose ADA or another listed asset.`,
      );
    }
    const value = new Money(amount);
    if (value.decimalPlaces() > asset.decimals) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `${asset.name} has ${asset.decimals} decimals; ${amount} has more. Round it and try again.`,
      );
    }
    if (value.lte(0)) {
      throw new AppError(ErrorCode.InvalidInput, `The ${asset.name} amount must be more than 0.`);
    }
    out.set(unit, (out.get(unit) ?? 0n) + toSmallestUnit(value, asset.decimals));
  }
  return out;
};

/** Drops the entries of the wallets `gone` names; true if any was there. */
const dropWallets = (state: PendingState, gone: (walletId: string) => boolean): boolean => {
  const before = state.pending.length + state.expected.size;
  state.pending = state.pending.filter((p) => !gone(p.walletId));
  for (const [id, e] of state.expected) if (gone(e.walletId)) state.expected.delete(id);
  return state.pending.length + state.expected.size !== before;
};

const ada = (lovelace: bigint): string => smallestUnitText(lovelace, 6);

const describe = (rules: ExchangeRules, amounts: ReadonlyMap<string, bigint>): string =>
  [...amounts]
    .map(([unit, q]) => {
      const asset = assetOf(rules, unit);
      return `${groupedText(smallestUnitText(q, asset.decimals))} ${asset.name}`;
    })
    .join(' + ');

/**
 * Deposits and withdrawals: the exchange builds them, the signer checks them against exactly
 * what the trader typed, the wallet key signs them (spending password each time). Submitted ones
 * stay in the pending list until they land.
 */
export class FundsService {
  /** What is on its way, and what was built and not sent yet (see PendingFundsStore). */
  #state: PendingState | undefined;
  #loading: Promise<PendingState> | undefined;
  /** Deposits and withdrawals sent and not yet written down (see `flush`). */
  readonly #tracking = new Set<Promise<void>>();
  /** What waited for a signature, brought back this run: by `network|wallet`. */
  readonly #restoring = new Map<string, Promise<boolean>>();

  constructor(private readonly deps: FundsDeps) {}

  #now(): number {
    return (this.deps.now ?? Date.now)();
  }

  async #loaded(): Promise<PendingState> {
    if (this.#state) return this.#state;
    this.#loading ??= this.#load();
    const state = await this.#loading;
    this.#state ??= state;
    return this.#state;
  }

  async #load(): Promise<PendingState> {
    const { store } = this.deps;
    const state: PendingState = store
      ? await store.load().catch((error: unknown) => {
          this.deps.logger?.warn('could not read the deposits and withdrawals on their way', error);
          return { pending: [], expected: new Map(), waiting: new Map() };
        })
      : { pending: [], expected: new Map(), waiting: new Map() };
    // A wallet removed in an earlier run (or while the file could not be written) leaves nothing
    // behind: its entries would never be shown again, nor settled.
    const known = await this.deps.book.list().then(
      ({ wallets }) => new Set(wallets.map((w) => w.id)),
      () => null,
    );
    if (known && dropWallets(state, (walletId) => !known.has(walletId))) {
      this.#state = state;
      await this.#save();
    }
    return state;
  }

  /**
   * A removed wallet's deposits and withdrawals on their way are forgotten with it: no screen
   * would show them again. Its funds are not touched (they are on the exchange and the chain).
   */
  async forgetWallet(walletId: string): Promise<void> {
    const state = await this.#loaded();
    if (dropWallets(state, (id) => id === walletId)) await this.#save();
  }

  /**
   * Writes the state as it is when its turn comes. A failed write keeps it in memory for this run
   * (it is what the Funds screen lists, not the funds themselves) and is logged.
   */
  async #save(): Promise<void> {
    const { store } = this.deps;
    const state = this.#state;
    if (!store || !state) return;
    await store.save(state).catch((error: unknown) => {
      this.deps.logger?.warn('could not save the deposits and withdrawals on their way', error);
    });
  }

  async rules(): Promise<FundsRules> {
    const rules = await (await this.deps.network.connection()).rules();
    // Without the exchange's fee parameters no deposit is built; the published ones size it.
    const reserve = depositReserve(rules.l1Fee ?? PUBLISHED_L1_FEE);
    return {
      minDepositLovelace: rules.minDepositLovelace.toString(),
      minWithdrawalLovelace: rules.minWithdrawalLovelace.toString(),
      withdrawalFeeLovelace: rules.withdrawalFeeLovelace.toString(),
      withdrawalFeeFromPayout: rules.withdrawalFeeFromPayout,
      depositReserveLovelace: reserve.lovelace.toString(),
      depositReservePerTokenLovelace: reserve.perTokenLovelace.toString(),
      depositReserveCoins: reserve.coins,
      depositReservePerCoinLovelace: reserve.perCoinLovelace.toString(),
    };
  }

  async overview(): Promise<FundsOverview> {
    const connection = await this.deps.network.connection();
    const client = await connection.client(this.deps.apiKey());
    const exchange = await client.balances();
    const walletId = (await this.deps.book.active())?.id;
    const state = await this.#loaded();
    await this.#settle(connection, walletId, exchange);
    return {
      exchange,
      readAt: new Date(this.#now()).toISOString(),
      pending: state.pending
        .filter((p) => p.network === connection.key && p.walletId === walletId)
        .map(({ kind, txHash, title, submittedAt }) => ({ kind, txHash, title, submittedAt })),
    };
  }

  /**
   * Drops what has landed (a withdrawal's coin is in the wallet, a deposit is credited) of the
   * wallet and network shown; those of other wallets and networks wait until they are shown.
   */
  async #settle(
    connection: Connection,
    walletId: string | undefined,
    balances: readonly Balance[],
  ): Promise<void> {
    const state = await this.#loaded();
    const ours = (p: Tracked) => p.network === connection.key && p.walletId === walletId;
    const mine = state.pending.filter(ours);
    if (!mine.length) return;
    let walletUtxos: Set<string> | null = null;
    if (mine.some((p) => p.kind === 'withdrawal')) {
      const account = await activeAccount(this.deps.book, connection);
      walletUtxos = new Set(
        (
          await connection
            .chain()
            .utxosAt(account.baseAddress)
            .catch(() => [])
        ).map(refOf),
      );
    }
    const now = this.#now();
    const rules = await connection.rules();
    const total = (unit: string): Money => {
      const b = balances.find((x) => x.unit === unit);
      return b ? b.free.plus(b.locked) : new Money(0);
    };
    const landed = (p: Tracked): boolean => {
      if (p.kind === 'withdrawal') return walletUtxos?.has(`${p.txHash}#0`) ?? false;
      // A deposit is credited once the exchange holds the amount more than before, as free funds.
      return [...p.amounts].every(([unit, q]) => {
        const before = p.totalBefore.get(unit) ?? new Money(0);
        const amount = fromSmallestUnit(q, assetOf(rules, unit).decimals);
        const credited = total(unit).minus(before).gte(amount);
        const locked = balances.find((x) => x.unit === unit)?.locked ?? new Money(0);
        return credited && locked.lt(amount);
      });
    };
    const settled: Array<{ entry: Tracked; outcome: 'landed' | 'unconfirmed' }> = [];
    for (const entry of mine) {
      // Another read may have settled it while this one waited for the chain and the rules.
      if (!state.pending.includes(entry)) continue;
      if (landed(entry)) settled.push({ entry, outcome: 'landed' });
      else if (now - entry.submittedAtMs > GIVE_UP_MS)
        settled.push({ entry, outcome: 'unconfirmed' });
    }
    if (!settled.length) return;
    state.pending = state.pending.filter((p) => !settled.some((s) => s.entry === p));
    await this.#save();
    // Told once each, as it leaves the list: the renderer turns it into a toast.
    for (const { entry, outcome } of settled) {
      const { kind, txHash, title } = entry;
      this.deps.emit('funds:settled', { kind, txHash, title, outcome });
    }
  }

  /** Pushes the balances and pending list (after a change, or from the live feed). */
  async refresh(): Promise<void> {
    try {
      this.deps.emit('funds:changed', await this.overview());
    } catch {
      // The live feed reports connection problems; a missed refresh comes again.
    }
  }

  wallet(): Promise<WalletBalance> {
    return this.deps.walletBalance();
  }

  async #walletContext(connection: Connection): Promise<TradingAccount> {
    return activeAccount(this.deps.book, connection);
  }

  async prepareDeposit(request: {
    amounts: Array<{ unit: string; amount: string }>;
    utxos?: string[] | undefined;
  }): Promise<PreparedOperation> {
    const connection = await this.deps.network.connection();
    const rules = await connection.rules();
    const amounts = parseAmounts(rules, request.amounts);
    const lovelace = amounts.get(LOVELACE) ?? 0n;
    if (lovelace < rules.minDepositLovelace) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `A deposit must include at least ${ada(rules.minDepositLovelace)} ADA (this one has ${ada(lovelace)}). Add ADA to it.`,
      );
    }
    const title = `Deposit ${describe(rules, amounts)}`;
    const operation = this.deps.operations.begin('deposit', title);
    try {
      const account = await this.#walletContext(connection);
      const client = await connection.client(this.deps.apiKey());
      const walletCoins = await connection.chain().utxosAt(account.baseAddress);
      await this.restoreWaiting();
      // Coins a deposit waiting for its offline signature spends are not spent twice.
      const waiting = this.deps.operations.heldCoins(connection);
      const coins = walletCoins.filter((u) => !waiting.has(refOf(u)));
      let inputs: InputUtxo[];
      if (request.utxos) {
        const byId = new Map(coins.map((u) => [refOf(u), u]));
        inputs = request.utxos.map((id) => {
          const coin = byId.get(id);
          const holder = waiting.get(id);
          if (holder) {
            throw new AppError(
              ErrorCode.InvalidInput,
              `The coin ${id.slice(0, 10)}…${id.slice(-4)} is spent by “${holder}”, which waits for its signature (Funds › Waiting for a signature). Choose another coin, or send or discard that one first.`,
            );
          }
          if (!coin) {
            throw new AppError(
              ErrorCode.InvalidInput,
              `The coin ${id.slice(0, 10)}…${id.slice(-4)} is not in your wallet any more (spent, or not yet confirmed). Choose again.`,
            );
          }
          return coin;
        });
        const held = totalOf(inputs);
        for (const [unit, q] of amounts) {
          if ((held.get(unit) ?? 0n) < q + (unit === LOVELACE ? 1_200_000n : 0n)) {
            throw new AppError(
              ErrorCode.InvalidInput,
              `The coins you chose hold ${describe(rules, new Map([[unit, held.get(unit) ?? 0n]]))}, not enough for ${describe(rules, new Map([[unit, q]]))} plus the network fee and change. Choose more coins.`,
            );
          }
        }
      } else {
        if (!rules.l1Fee)
          throw new AppError(ErrorCode.Network, 'The exchange’s fee parameters are unknown.');
        try {
          inputs = await selectCoins(coins, amounts, account.baseAddress, rules.l1Fee);
        } catch (error) {
          if (waiting.size === 0 || !(error instanceof AppError)) throw error;
          const holders = [...new Set(waiting.values())].map((t) => `“${t}”`).join(', ');
          throw new AppError(
            ErrorCode.InvalidInput,
            `${error.message} Some of your wallet’s coins are spent by ${holders}, which waits for its signature (Funds › Waiting for a signature): send or discard it to use them.`,
            { cause: error },
          );
        }
      }
      const { txHex } = await client.buildDeposit({
        amounts: [...amounts].map(([unit, quantity]) => ({ unit, quantity })),
        inputUtxos: inputs,
      });
      this.deps.operations.progress(operation, 'checking');
      const profile = signingProfile(connection, account, rules);
      const intent = {
        kind: 'deposit' as const,
        amounts,
        inputs: new Map(
          inputs.map((u) => [
            refOf(u),
            {
              address: u.output.address,
              amounts: new Map(u.output.amount.map((a) => [a.unit, BigInt(a.quantity)])),
            },
          ]),
        ),
      };
      const balancesBefore = await client.balances().catch(() => [] as Balance[]);
      return await this.#review(operation, account, {
        connection,
        txHex,
        intent,
        profile,
        ttlSeconds: rules.fundsTtlSeconds,
        amounts,
        totalBefore: new Map(
          [...amounts.keys()].map((unit) => {
            const b = balancesBefore.find((x) => x.unit === unit);
            return [unit, b ? b.free.plus(b.locked) : new Money(0)];
          }),
        ),
      });
    } catch (error) {
      this.deps.operations.progress(
        operation,
        'failed',
        error instanceof AppError ? error.message : null,
      );
      throw error;
    }
  }

  async prepareWithdrawal(request: {
    amounts: Array<{ unit: string; amount: string }>;
  }): Promise<PreparedOperation> {
    const connection = await this.deps.network.connection();
    const rules = await connection.rules();
    const amounts = parseAmounts(rules, request.amounts);
    const lovelace = amounts.get(LOVELACE) ?? 0n;
    if (lovelace < rules.minWithdrawalLovelace) {
      throw new AppError(
        ErrorCode.InvalidInput,
        `A withdrawal must include at least ${ada(rules.minWithdrawalLovelace)} ADA (this one has ${ada(lovelace)}). Add ADA to it.`,
      );
    }
    const client = await connection.client(this.deps.apiKey());
    const balances = await client.balances();
    for (const [unit, q] of amounts) {
      const asset = assetOf(rules, unit);
      const free = balances.find((b) => b.unit === unit)?.free ?? new Money(0);
      const onTop = unit === LOVELACE && !rules.withdrawalFeeFromPayout;
      const needed = fromSmallestUnit(
        q + (onTop ? rules.withdrawalFeeLovelace : 0n),
        asset.decimals,
      );
      if (needed.gt(free)) {
        throw new AppError(
          ErrorCode.InvalidInput,
          `Not enough free ${asset.name} on the exchange: ${needed.toFixed()} needed${onTop ? ` (with the ${ada(rules.withdrawalFeeLovelace)} ADA withdrawal fee)` : ''}, ${free.toFixed()} free. Withdraw less, or cancel orders that lock it.`,
        );
      }
    }
    const title = `Withdraw ${describe(rules, amounts)}`;
    const operation = this.deps.operations.begin('withdrawal', title);
    try {
      const account = await this.#walletContext(connection);
      const { txHex } = await client.buildWithdrawal({
        amounts: [...amounts].map(([unit, quantity]) => ({ unit, quantity })),
      });
      this.deps.operations.progress(operation, 'checking');
      const profile = signingProfile(connection, account, rules);
      // Whose coins it spends is asked of the chain by the signer, input by input.
      const intent = {
        kind: 'withdrawal' as const,
        amounts,
        statedFeeLovelace: rules.withdrawalFeeFromPayout ? rules.withdrawalFeeLovelace : 0n,
      };
      return await this.#review(operation, account, {
        connection,
        txHex,
        intent,
        profile,
        ttlSeconds: rules.fundsTtlSeconds,
        amounts,
        totalBefore: new Map(),
      });
    } catch (error) {
      this.deps.operations.progress(
        operation,
        'failed',
        error instanceof AppError ? error.message : null,
      );
      throw error;
    }
  }

  /**
   * Has the built transaction checked (the confirmation dialog's summary and intent check) and
   * remembers what it moves, for the list of what is on its way once it is sent.
   */
  async #review(
    operation: { id: string; kind: 'deposit' | 'withdrawal'; title: string },
    account: TradingAccount,
    built: Pick<ToReview, 'connection' | 'txHex' | 'intent' | 'profile' | 'ttlSeconds'> &
      Pick<Expected, 'amounts' | 'totalBefore'>,
  ): Promise<PreparedOperation> {
    const { amounts, totalBefore, ...request } = built;
    // Noted (on the disk) while the transaction is checked, not after: a prepare is no slower.
    const noted = this.#expect(operation.id, {
      kind: operation.kind,
      title: operation.title,
      network: built.connection.key,
      walletId: account.wallet.id,
      amounts,
      totalBefore,
    });
    const prepared = await this.deps.operations.review(operation, {
      ...request,
      kind: operation.kind,
      title: operation.title,
      keys: {
        operationKeyHash: account.wallet.operationKeyHash,
        paymentKeyHash: account.paymentKeyHash,
      },
      offline: account.wallet.kind === 'watch-only',
      orderId: null,
      cancelsOrderId: null,
    });
    await noted;
    return prepared;
  }

  /** Remembers what a built deposit or withdrawal moves, for when it is sent (maybe after a restart). */
  async #expect(operationId: string, expected: Expected): Promise<void> {
    const state = await this.#loaded();
    state.expected.set(operationId, expected);
    // Never one at the offline device: it is what that one's signature will be followed by.
    const droppable = [...state.expected.keys()].filter((id) => !state.waiting.has(id));
    for (const oldest of droppable.slice(0, Math.max(0, state.expected.size - MAX_EXPECTED))) {
      state.expected.delete(oldest);
    }
    await this.#save();
  }

  /**
   * A watch-only wallet's deposit or withdrawal was handed to its offline device: it is kept on
   * disk, to wait for its signature after a restart as well.
   */
  async handedOut(operationId: string, waiting: Waiting): Promise<void> {
    const state = await this.#loaded();
    if (!state.expected.has(operationId)) return;
    state.waiting.set(operationId, waiting);
    await this.#save();
  }

  /** One handed out was discarded: it waits no more. */
  async released(operationId: string): Promise<void> {
    const state = await this.#loaded();
    if (state.waiting.delete(operationId)) await this.#save();
  }

  /**
   * After a restart (or on coming back to the wallet or network), what the active watch-only
   * wallet had handed to its offline device is read and checked against what was asked again,
   * and waits for its signature as it did; what has expired is dropped. Once per wallet and
   * network a run, unless it could not be checked (the exchange or the chain unreachable).
   */
  async restoreWaiting(): Promise<void> {
    const state = await this.#loaded();
    if (state.waiting.size === 0) return;
    const connection = await this.deps.network.connection();
    const account = await this.#walletContext(connection).catch(() => null);
    if (!account) return;
    const key = `${connection.key}|${account.wallet.id}`;
    let restoring = this.#restoring.get(key);
    if (!restoring) {
      restoring = this.#restore(state, connection, account);
      this.#restoring.set(key, restoring);
    }
    if (!(await restoring)) this.#restoring.delete(key);
  }

  /** True when everything waiting for this wallet and network is back. */
  async #restore(
    state: PendingState,
    connection: Connection,
    account: TradingAccount,
  ): Promise<boolean> {
    const now = this.#now();
    let changed = false;
    let complete = true;
    for (const [id, waiting] of [...state.waiting]) {
      const expected = state.expected.get(id);
      if (!expected || waiting.expiresAt <= now) {
        state.waiting.delete(id);
        changed = true;
        continue;
      }
      if (expected.network !== connection.key || expected.walletId !== account.wallet.id) continue;
      if (account.wallet.kind !== 'watch-only' || this.deps.operations.has(id)) continue;
      try {
        const rules = await connection.rules();
        await this.deps.operations.review(
          { id, title: expected.title },
          {
            connection,
            txHex: waiting.txHex,
            intent: waiting.intent,
            profile: signingProfile(connection, account, rules),
            kind: expected.kind,
            title: expected.title,
            keys: {
              operationKeyHash: account.wallet.operationKeyHash,
              paymentKeyHash: account.paymentKeyHash,
            },
            offline: true,
            orderId: null,
            cancelsOrderId: null,
            ttlSeconds: (waiting.expiresAt - now) / 1000,
            expiresAt: waiting.expiresAt,
          },
          { handedOut: true },
        );
      } catch (error) {
        complete = false;
        this.deps.logger?.warn('could not check again what waits for an offline signature', error);
      }
    }
    if (changed) await this.#save();
    return complete;
  }

  /**
   * The operations service reports a deposit or withdrawal sent (confirmed now, or from the
   * recovery prompt after a restart): it is on its way from now.
   */
  submitted(operationId: string, txHash: string): Promise<void> {
    const task = this.#track(operationId, txHash).finally(() => this.#tracking.delete(task));
    this.#tracking.add(task);
    return task;
  }

  async #track(operationId: string, txHash: string): Promise<void> {
    const state = await this.#loaded();
    const expected = state.expected.get(operationId);
    if (!expected) return;
    state.expected.delete(operationId);
    state.waiting.delete(operationId);
    const now = this.#now();
    state.pending.push({
      ...expected,
      txHash,
      submittedAt: new Date(now).toISOString(),
      submittedAtMs: now,
    });
    await this.#save();
    await this.refresh();
  }

  /** Waits until what was sent is on disk (the app calls it as it closes). */
  async flush(): Promise<void> {
    await Promise.all([...this.#tracking]);
  }
}
