import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../src-main/app';
import { startEmbeddedSandbox, type EmbeddedSandbox } from '../../../src-main/exchange';
import { silentLogger, type Logger } from '../../../src-main/log';
import { MemorySecretStore, newRecoveryPhrase } from '../../../src-main/wallet';
import { channels } from '../../../src-shared/contract';
import { sourceSandboxCommand } from '../../harness/sandbox-command';
import { STRONG_PASSWORD, TEST_VAULT_COST } from '../../fixtures/cardano/wallet-services';
import { fuzzChannel, sampleRequest, type Finding, type Tally } from '../../fixtures/fuzz';

/**
 * The prototype-name fuzz (test/fixtures/fuzz.ts) of the exchange-backed areas (settings,
 * market, trading, funds, orders, operations) with a real embedded sandbox behind twin apps,
 * each with its own wallet that has joined the exchange and an unlocked session, so requests
 * reach the services, the exchange client and the sandbox, not just the boundary.
 * Left out: `settings:setNetwork` (it locks the session, ending the run's depth) and
 * `settings:resetSandbox` (it wipes the shared sandbox); the fuzz without an exchange sends both.
 */
const AREAS = new Set(['settings', 'market', 'trading', 'funds', 'orders', 'operations']);
const LEFT_OUT = new Set(['settings:setNetwork', 'settings:resetSandbox']);

interface World {
  services: AppServices;
  dataDir: string;
  walletId: string;
  logged: string[];
}

let sandbox: EmbeddedSandbox;
let sandboxDir = '';
const worlds: World[] = [];

const newWorld = async (): Promise<World> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-fuzz-x-'));
  const logged: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (message) => logged.push(message),
  };
  const services = await createAppServices({
    name: 'Countersign',
    version: 'test',
    dataDir,
    runtime: 'harness',
    network: { name: 'sandbox' },
    logger,
    send: () => undefined,
    secretStore: new MemorySecretStore(),
    vaultCost: TEST_VAULT_COST,
    sandbox: {
      url: sandbox.url,
      ...(sandbox.adminToken ? { adminToken: sandbox.adminToken } : {}),
    },
  });
  const call = async (channel: string, payload: unknown): Promise<unknown> => {
    const answer = await services.dispatch(channel, payload);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
    return answer.value;
  };
  const restored = (await call('wallet:restore', {
    name: 'Main',
    words: newRecoveryPhrase().join(' '),
    password: STRONG_PASSWORD,
  })) as { id: string };
  await call('wallet:joinExchange', { walletId: restored.id, password: STRONG_PASSWORD });
  await call('session:unlock', { password: STRONG_PASSWORD });
  const world = { services, dataDir, walletId: restored.id, logged };
  worlds.push(world);
  return world;
};

/** Requests that reach past the first refusal of a made-up sample. */
const handMade: Record<string, unknown> = {
  'trading:preview': {
    symbol: 'ADAUSDM',
    side: 'buy',
    type: 'limit',
    quantity: '10',
    price: '0.5',
  },
  'trading:prepareOrder': {
    symbol: 'ADAUSDM',
    side: 'buy',
    type: 'limit',
    quantity: '10',
    price: '0.5',
  },
  'funds:prepareDeposit': { amounts: [{ unit: 'lovelace', amount: '5' }] },
  'funds:prepareWithdrawal': { amounts: [{ unit: 'lovelace', amount: '5' }] },
  'orders:list': { view: 'open' },
  'orders:all': { view: 'open' },
  'orders:rows': { view: 'history', offset: 0, limit: 50 },
  'market:candles': { symbol: 'ADAUSDM', interval: '1h' },
};

const baseOf = (channel: string, world: World): unknown =>
  Object.hasOwn(handMade, channel)
    ? structuredClone(handMade[channel])
    : sampleRequest(channel, world.walletId);

const findings: Finding[] = [];
const tally: Tally = { requests: 0, ok: 0, reached: [], internal: 0, wrongAnswers: 0, channels: 0 };
/** What each channel's unfuzzed request answered: how deep the fuzz reaches. */
const baseAnswers: Record<string, string> = {};
const fuzzed = channels.filter((c) => AREAS.has(c.area) && !LEFT_OUT.has(c.channel));

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'countersign-fuzz-sandbox-'));
  sandbox = await startEmbeddedSandbox({
    ...sourceSandboxCommand,
    args: [...sourceSandboxCommand.args, '--no-market-maker', '--no-takers', '--no-rate-limit'],
    dataDir: sandboxDir,
    logger: silentLogger,
  });
  const [proto, plain] = [await newWorld(), await newWorld()];
  for (const { channel } of fuzzed) {
    // Both twins get it, so they stay alike.
    await proto.services.dispatch(channel, baseOf(channel, proto));
    const base = await plain.services.dispatch(channel, baseOf(channel, plain));
    baseAnswers[channel] = base.ok ? 'OK' : `${base.error.code}: ${base.error.message}`;
    await fuzzChannel({
      channel,
      proto: { dispatch: proto.services.dispatch, base: () => baseOf(channel, proto) },
      plain: { dispatch: plain.services.dispatch, base: () => baseOf(channel, plain) },
      findings,
      tally,
    });
  }
}, 240_000);

afterAll(async () => {
  for (const world of worlds) {
    await world.services.dispose();
    await rm(world.dataDir, { recursive: true, force: true });
  }
  await sandbox?.stop();
  if (sandboxDir) await rm(sandboxDir, { recursive: true, force: true });
});

describe('prototype names sent to the exchange-backed channels, with an exchange', () => {
  it('never cause an INTERNAL error or an answer an ordinary word would not get', () => {
    console.info(`prototype-name fuzz with a sandbox ${JSON.stringify(tally)}`);
    expect(fuzzed.length).toBeGreaterThan(20);
    expect(tally.channels).toBe(fuzzed.length);
    // Deep enough: every unfuzzed request passes the boundary and reaches its service, which
    // mostly answers it (the rest are its own verdicts in words: no balance, nothing to export,
    // no such operation).
    const answered = Object.values(baseAnswers);
    expect(answered.filter((a) => a.startsWith('INTERNAL'))).toEqual([]);
    expect(
      Object.entries(baseAnswers).filter(([, a]) => a.includes('The request was not accepted')),
    ).toEqual([]);
    expect(answered.filter((a) => a === 'OK').length).toBeGreaterThanOrEqual(fuzzed.length / 2);
    expect(findings).toEqual([]);
    expect(tally.internal).toBe(0);
    expect(tally.wrongAnswers).toBe(0);
    expect(worlds.flatMap((w) => w.logged)).toEqual([]);
  });

  it('the twins were really unlocked and on the exchange throughout', async () => {
    for (const world of worlds) {
      const status = await world.services.dispatch('session:status', undefined);
      expect(status.ok && (status.value as { state: string }).state).toBe('unlocked');
      const overview = await world.services.dispatch('funds:overview', undefined);
      expect(overview.ok).toBe(true);
    }
  });
});
