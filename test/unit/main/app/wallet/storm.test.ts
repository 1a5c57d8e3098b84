import * as Crypto from '@cardano-sdk/crypto';
import { bech32 } from '@scure/base';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppServices, type AppServices } from '../../../../../src-main/app';
import type { Logger } from '../../../../../src-main/log';
import type * as Vault from '../../../../../src-main/wallet/vault';
import {
  cryptoIsReady,
  delayAfter,
  FREE_ATTEMPTS,
  maskApiKey,
  MemorySecretStore,
  newRecoveryPhrase,
  SigningKey,
  operationKeyFromXprv,
} from '../../../../../src-main/wallet';
import type { WalletList, WalletSummary } from '../../../../../src-shared/contract';
import { ErrorCode } from '../../../../../src-shared/errors';
import type { Result } from '../../../../../src-shared/result';
import { STRONG_PASSWORD, TEST_VAULT_COST } from '../../../../fixtures/cardano/wallet-services';

/**
 * 100 concurrent mixed operations against the session, wallet and settings services, through the real
 * composition and dispatcher, from every entry point that takes the spending password. Every
 * password check (each opening of a sealed key) is recorded in the order it ran, with the
 * operation it belongs to, so the schedule can be replayed against what really happened.
 */
const probe = vi.hoisted(() => ({
  checks: [] as Array<{ op: string | undefined; label: string; at: number }>,
  currentOp: (): string | undefined => undefined,
}));

vi.mock('../../../../../src-main/wallet/vault', async (importOriginal) => {
  const actual = await importOriginal<typeof Vault>();
  return {
    ...actual,
    openSecret: (...args: Parameters<typeof actual.openSecret>) => {
      probe.checks.push({ op: probe.currentOp(), label: args[2], at: Date.now() });
      return actual.openSecret(...args);
    },
  };
});

const context = new AsyncLocalStorage<string>();
probe.currentOp = () => context.getStore();

/** A small seeded generator: the storm is the same every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

interface Op {
  id: string;
  kind: Kind;
  /** What it asks, for the checks after the storm. */
  wallet?: string;
  value?: string | number;
  run: () => Promise<Result<unknown>>;
}

type Kind =
  | 'unlock-wrong'
  | 'unlock-right'
  | 'apikey-wrong'
  | 'apikey-right'
  | 'remove-wrong'
  | 'remove-right'
  | 'import-wrong'
  | 'import-right'
  | 'restore'
  | 'restore-same'
  | 'create'
  | 'rename'
  | 'select'
  | 'autolock'
  | 'settings'
  | 'status'
  | 'list'
  | 'addresses'
  | 'lock'
  | 'touch';

/** An attacker guessing from every entry point while the trader works. */
const ATTACK: Record<Kind, number> = {
  'unlock-wrong': 18,
  'unlock-right': 3,
  'apikey-wrong': 9,
  'apikey-right': 3,
  'remove-wrong': 4,
  'remove-right': 2,
  'import-wrong': 3,
  'import-right': 0,
  restore: 10,
  'restore-same': 2,
  create: 2,
  rename: 12,
  select: 6,
  autolock: 8,
  settings: 6,
  status: 3,
  list: 3,
  addresses: 1,
  lock: 3,
  touch: 2,
};

/** A trader (and scripts) doing everything at once, with a few typos: the throttle never bites. */
const BUSY: Record<Kind, number> = {
  'unlock-wrong': 1,
  'unlock-right': 8,
  'apikey-wrong': 1,
  'apikey-right': 10,
  'remove-wrong': 1,
  'remove-right': 2,
  'import-wrong': 0,
  'import-right': 1,
  restore: 12,
  'restore-same': 2,
  create: 2,
  rename: 14,
  select: 8,
  autolock: 10,
  settings: 8,
  status: 4,
  list: 4,
  addresses: 4,
  lock: 4,
  touch: 4,
};

const WRONG = 'not the spending password';

const valueOf = <T>(result: Result<unknown>): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
};

/** The exchange's encrypted copy of a fresh operation key, as `GET /accounts/operation-key` gives it. */
const exchangeCopy = () => {
  const root = Crypto.Bip32PrivateKey.fromBip39Entropy(randomBytes(32), '');
  const xprv = bech32.encode('xprv', bech32.toWords(root.bytes()), 1023);
  const iv = randomBytes(12);
  const salt = randomBytes(16);
  const key = pbkdf2Sync('trading pw', salt, 100_000, 32, 'sha256');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(xprv, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    encryptedOperationKey: JSON.stringify({
      iv: iv.toString('base64'),
      salt: salt.toString('base64'),
      ciphertext: data.toString('base64'),
    }),
    operationKeyHash: new SigningKey(operationKeyFromXprv(xprv)).keyHash,
  };
};

interface Storm {
  dataDir: string;
  store: MemorySecretStore;
  services: AppServices;
  ops: Op[];
  answers: Map<string, Result<unknown>>;
  checks: typeof probe.checks;
  initial: WalletSummary[];
  logged: string[];
  importedKeyHash: string;
  ms: number;
  config: () => Parameters<typeof createAppServices>[0];
}

const runStorm = async (mix: Record<Kind, number>, seed: number): Promise<Storm> => {
  await cryptoIsReady();
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-storm-'));
  const store = new MemorySecretStore();
  const logged: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (message) => logged.push(message),
  };
  const config = () => ({
    name: 'Countersign',
    version: 'test',
    dataDir,
    runtime: 'harness' as const,
    network: { name: 'sandbox' as const },
    logger,
    send: () => undefined,
    secretStore: store,
    vaultCost: TEST_VAULT_COST,
  });
  const services = await createAppServices(config());
  const call = (channel: string, payload?: unknown) => services.dispatch(channel, payload);
  const initial: WalletSummary[] = [];
  for (let i = 0; i < 4; i++) {
    const answer = await call('wallet:restore', {
      name: `W${i}`,
      words: newRecoveryPhrase(),
      password: STRONG_PASSWORD,
    });
    initial.push(valueOf<WalletSummary>(answer));
  }
  const copy = exchangeCopy();
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const ids = initial.map((w) => w.id);
  const duplicatePhrase = newRecoveryPhrase();
  const importKey = (spendingPassword: string) => async (): Promise<Result<unknown>> => {
    // No IPC channel of its own yet (settings:importOperationKey wraps it): the service itself.
    try {
      const value = await services.wallet.importExchangeOperationKey({
        walletId: ids[1] ?? '',
        ...copy,
        tradingPassword: 'trading pw',
        spendingPassword,
      });
      return { ok: true, value };
    } catch (error) {
      const { code, message } = error as { code?: ErrorCode; message: string };
      return { ok: false, error: { code: code ?? ErrorCode.Internal, message } };
    }
  };
  const make: Record<Kind, (n: number) => Omit<Op, 'id' | 'kind'>> = {
    'unlock-wrong': () => ({ run: () => call('session:unlock', { password: WRONG }) }),
    'unlock-right': () => ({ run: () => call('session:unlock', { password: STRONG_PASSWORD }) }),
    'apikey-wrong': () => {
      const wallet = pick(ids);
      const apiKey = randomBytes(16).toString('hex');
      return {
        wallet,
        run: () => call('wallet:setApiKey', { walletId: wallet, apiKey, password: WRONG }),
      };
    },
    'apikey-right': () => {
      const wallet = pick(ids);
      const apiKey = randomBytes(16).toString('hex');
      return {
        wallet,
        value: apiKey,
        run: () =>
          call('wallet:setApiKey', { walletId: wallet, apiKey, password: STRONG_PASSWORD }),
      };
    },
    'remove-wrong': (n) => {
      const wallet = ids[n % 4] ?? '';
      return {
        wallet,
        run: () =>
          call('wallet:remove', { walletId: wallet, confirmName: `W${n % 4}`, password: WRONG }),
      };
    },
    'remove-right': (n) => {
      const wallet = ids[2 + (n % 2)] ?? '';
      return {
        wallet,
        run: () =>
          call('wallet:remove', {
            walletId: wallet,
            confirmName: `W${2 + (n % 2)}`,
            password: STRONG_PASSWORD,
          }),
      };
    },
    'import-wrong': () => ({ wallet: ids[1], run: importKey(WRONG) }),
    'import-right': () => ({ wallet: ids[1], run: importKey(STRONG_PASSWORD) }),
    restore: (n) => ({
      value: `R${n}`,
      run: () =>
        call('wallet:restore', {
          name: `R${n}`,
          words: newRecoveryPhrase(),
          password: STRONG_PASSWORD,
        }),
    }),
    'restore-same': (n) => ({
      value: `Same${n}`,
      run: () =>
        call('wallet:restore', {
          name: `Same${n}`,
          words: duplicatePhrase,
          password: STRONG_PASSWORD,
        }),
    }),
    create: (n) => ({
      value: `C${n}`,
      run: async () => {
        const created = await call('wallet:create', { name: `C${n}`, password: STRONG_PASSWORD });
        if (!created.ok) return created;
        const phrase = created.value as {
          creationId: string;
          words: string[];
          confirmPositions: number[];
        };
        return call('wallet:confirmCreate', {
          creationId: phrase.creationId,
          words: phrase.confirmPositions.map((position) => ({
            position,
            word: phrase.words[position - 1] ?? '',
          })),
        });
      },
    }),
    rename: (n) => {
      const wallet = pick(ids);
      return {
        wallet,
        value: `Renamed ${n}`,
        run: () => call('wallet:rename', { walletId: wallet, name: `Renamed ${n}` }),
      };
    },
    select: () => {
      const wallet = pick(ids);
      return { wallet, run: () => call('wallet:select', { walletId: wallet }) };
    },
    autolock: () => {
      const value = pick([1, 5, 15, 60] as const);
      return { value, run: () => call('session:setAutoLock', { autoLock: value }) };
    },
    // Each changes one part of the settings file: a change that overwrote another part with
    // what it read before would show as a lost write.
    settings: (n) => {
      const change =
        n % 3 === 0
          ? { theme: n % 2 ? 'dark' : 'light' }
          : n % 3 === 1
            ? { limits: { maxOrderValue: null, maxOpenOrders: n + 1 } }
            : { notifyFills: false };
      return { value: JSON.stringify(change), run: () => call('settings:update', change) };
    },
    status: () => ({ run: () => call('session:status') }),
    list: () => ({ run: () => call('wallet:list') }),
    addresses: () => ({ run: () => call('wallet:addresses', { walletId: pick(ids) }) }),
    lock: () => ({ run: () => call('session:lock') }),
    touch: () => ({ run: () => call('session:touch') }),
  };
  const ops: Op[] = [];
  for (const kind of Object.keys(mix) as Kind[]) {
    for (let n = 0; n < mix[kind]; n++) ops.push({ id: `${kind}#${n}`, kind, ...make[kind](n) });
  }
  expect(ops).toHaveLength(100);
  for (let i = ops.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ops[i], ops[j]] = [ops[j] as Op, ops[i] as Op];
  }
  probe.checks.length = 0;
  const answers = new Map<string, Result<unknown>>();
  const started = Date.now();
  // Every one at once.
  await Promise.all(
    ops.map((op) =>
      context.run(op.id, async () => {
        answers.set(op.id, await op.run());
      }),
    ),
  );
  return {
    dataDir,
    store,
    services,
    ops,
    answers,
    checks: [...probe.checks],
    initial,
    logged,
    importedKeyHash: copy.operationKeyHash,
    ms: Date.now() - started,
    config,
  };
};

describe.each([
  ['an attack from every entry point', ATTACK, 13],
  ['a busy trader', BUSY, 29],
])('a storm of 100 concurrent operations: %s', (name, mix, seed) => {
  let storm: Storm;
  beforeAll(async () => {
    storm = await runStorm(mix, seed);
  }, 120_000);
  afterAll(async () => {
    await storm?.services.dispose();
    if (storm) await rm(storm.dataDir, { recursive: true, force: true });
  });

  const answerOf = (op: Op) => storm.answers.get(op.id);
  const ok = (op: Op) => answerOf(op)?.ok === true;
  const codeOf = (op: Op) => {
    const answer = answerOf(op);
    return answer && !answer.ok ? answer.error.code : 'OK';
  };
  const acknowledged = (kind: Kind) => storm.ops.filter((op) => op.kind === kind && ok(op));

  it('answers every one in words: no INTERNAL error, nothing logged as unexpected', () => {
    const internal = storm.ops.filter((op) => codeOf(op) === ErrorCode.Internal);
    const answers: Record<string, number> = {};
    for (const op of storm.ops) answers[codeOf(op)] = (answers[codeOf(op)] ?? 0) + 1;
    console.info(
      `storm ${name}: ${JSON.stringify({ operations: storm.ops.length, ms: storm.ms, internal: internal.length, answers })}`,
    );
    expect(internal.map((op) => `${op.id}: ${JSON.stringify(answerOf(op))}`)).toEqual([]);
    expect(storm.logged).toEqual([]);
  });

  it('checks no password beyond the schedule, replayed over the checks as they ran', () => {
    const byOp = new Map(storm.ops.map((op) => [op.id, op]));
    // One opening per attempt: the API key opened after an unlock's check is the same attempt.
    const attempts = storm.checks.filter((c) => !c.label.includes('/api-key/'));
    let failures = 0;
    let lastFailureAt = 0;
    let beyond = 0;
    let wrong = 0;
    for (const check of attempts) {
      const op = check.op === undefined ? undefined : byOp.get(check.op);
      expect(op, 'every check belongs to an operation of the storm').toBeDefined();
      // Lenient: the real throttle counts the wait from the end of a check, this from its start.
      if (failures >= FREE_ATTEMPTS && check.at < lastFailureAt + delayAfter(failures)) beyond++;
      if (op && codeOf(op) === ErrorCode.WrongPassword) {
        wrong++;
        failures++;
        lastFailureAt = check.at;
      } else {
        failures = 0;
      }
    }
    const refused = storm.ops.filter((op) => codeOf(op) === ErrorCode.TooManyAttempts).length;
    console.info(
      `storm ${name}: ${JSON.stringify({ passwordChecks: attempts.length, wrong, refused, beyondSchedule: beyond })}`,
    );
    expect(beyond).toBe(0);
    // Every operation that said WRONG_PASSWORD had its password checked exactly once.
    expect(wrong).toBe(storm.ops.filter((op) => codeOf(op) === ErrorCode.WrongPassword).length);
    // A trader's few typos never reach the throttle: nobody is refused without cause.
    if (mix === BUSY) expect(refused).toBe(0);
  });

  it('loses no acknowledged write, and a restart reads the same state', async () => {
    await storm.services.dispose();
    const restarted = await createAppServices(storm.config());
    const list = valueOf<WalletList>(await restarted.dispatch('wallet:list', undefined));
    const status = valueOf<{ autoLock: unknown; notices: string[] }>(
      await restarted.dispatch('session:status', undefined),
    );
    const settings = valueOf<Record<string, unknown>>(
      await restarted.dispatch('settings:get', undefined),
    );
    await restarted.dispose();
    const byId = new Map(list.wallets.map((w) => [w.id, w]));
    const names = new Set(list.wallets.map((w) => w.name));
    const lost: string[] = [];

    for (const kind of ['restore', 'create'] as const) {
      for (const op of acknowledged(kind)) {
        if (!names.has(String(op.value))) lost.push(`${kind} ${op.value}`);
      }
    }
    // The same wallet restored twice at once: exactly one landed, and it is listed.
    expect(acknowledged('restore-same')).toHaveLength(1);
    expect(['Same0', 'Same1'].filter((n) => names.has(n))).toHaveLength(1);

    const removed = new Set(acknowledged('remove-right').map((op) => op.wallet));
    for (const id of removed) if (id && byId.has(id)) lost.push(`removal of ${id}`);
    for (const wallet of storm.initial) {
      const now = byId.get(wallet.id);
      if (!now) {
        if (!removed.has(wallet.id)) lost.push(`${wallet.name} vanished`);
        continue;
      }
      const of = (kind: Kind) =>
        storm.ops.filter((op) => op.kind === kind && op.wallet === wallet.id && ok(op));
      const renames = of('rename').map((op) => op.value);
      if (!(renames.length ? renames : [wallet.name]).includes(now.name)) {
        lost.push(`rename of ${wallet.name}`);
      }
      const keys = of('apikey-right');
      if (keys.length && !keys.some((op) => maskApiKey(String(op.value)) === now.apiKey)) {
        lost.push(`API key of ${wallet.name}`);
      }
      if (keys.length && (await storm.store.read(`wallet/${wallet.id}/api-key/sandbox`)) === null) {
        lost.push(`sealed API key of ${wallet.name}`);
      }
      if (of('import-right').length && now.operationKeyHash !== storm.importedKeyHash) {
        lost.push(`imported operation key of ${wallet.name}`);
      }
    }
    const autoLocks = acknowledged('autolock').map((op) => op.value);
    if (autoLocks.length && !autoLocks.includes(status.autoLock as number)) lost.push('auto-lock');
    // Each part of the settings holds one of the values acknowledged for it.
    const changes = acknowledged('settings').map(
      (op) => JSON.parse(String(op.value)) as Record<string, unknown>,
    );
    for (const part of ['theme', 'limits', 'notifyFills']) {
      const values = changes.filter((c) => part in c).map((c) => JSON.stringify(c[part]));
      if (values.length && !values.includes(JSON.stringify(settings[part]))) {
        lost.push(`settings ${part}`);
      }
    }
    expect(changes.length).toBeGreaterThan(0);
    // Every keychain entry belongs to a listed wallet; every listed wallet has its keys.
    const orphans = [...storm.store.entries.keys()].filter(
      (entry) => !byId.has(entry.split('/')[1] ?? ''),
    );
    for (const w of list.wallets) {
      if ((await storm.store.read(`wallet/${w.id}/operation-key`)) === null) {
        lost.push(`keys of ${w.name}`);
      }
    }
    console.info(
      `storm ${name}: ${JSON.stringify({
        acknowledged: storm.ops.filter(ok).length,
        lostWrites: lost.length,
        orphanedKeychainEntries: orphans.length,
        wallets: list.wallets.length,
      })}`,
    );
    expect(lost).toEqual([]);
    expect(orphans).toEqual([]);
    expect(status.notices).toEqual([]);
    const leftovers = (await readdir(join(storm.dataDir, 'wallet'))).filter((n) =>
      n.endsWith('.tmp'),
    );
    expect(leftovers).toEqual([]);
  });
});
