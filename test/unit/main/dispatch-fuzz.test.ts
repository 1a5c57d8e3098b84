import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppServices, type AppServices } from '../../../src-main/app';
import type { Logger } from '../../../src-main/log';
import { MemorySecretStore, newRecoveryPhrase } from '../../../src-main/wallet';
import { channels } from '../../../src-shared/contract';
import {
  STRONG_PASSWORD,
  TEST_VAULT_COST,
  VECTOR_PHRASE,
} from '../../fixtures/cardano/wallet-services';
import { fuzzChannel, sampleRequest, type Finding, type Tally } from '../../fixtures/fuzz';

/**
 * A prototype-name fuzz of every IPC channel through the real composition and dispatcher (see
 * test/fixtures/fuzz.ts), with fresh twin apps per channel and no exchange: every channel's
 * boundary and the wallet and session areas in depth. `dispatch-fuzz.sandbox.test.ts` sends the
 * same to the exchange-backed areas with a real sandbox behind them.
 */

interface World {
  services: AppServices;
  dataDir: string;
  walletId: string;
  logged: string[];
}

const OTHER_PHRASE = newRecoveryPhrase().slice(0, 24);
let otherAccountKey = '';

const newWorld = async (): Promise<World> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-fuzz-'));
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
  });
  const restored = await services.dispatch('wallet:restore', {
    name: 'Main',
    words: VECTOR_PHRASE,
    password: STRONG_PASSWORD,
  });
  if (!restored.ok) throw new Error(restored.error.message);
  return { services, dataDir, walletId: (restored.value as { id: string }).id, logged };
};

/** Requests of the wallet and session areas that reach deep into the services. */
const handMade = (world: World): Record<string, unknown> => {
  const walletId = world.walletId;
  return {
    'session:unlock': { password: STRONG_PASSWORD },
    'wallet:create': { name: 'New', password: STRONG_PASSWORD },
    'wallet:confirmCreate': {
      creationId: '3f1c2a4e-8b7d-4c6e-9a1f-2b3c4d5e6f70',
      words: [{ position: 1, word: 'abandon' }],
    },
    'wallet:restore': { name: 'Other', words: OTHER_PHRASE.join(' '), password: STRONG_PASSWORD },
    'wallet:importWatchOnly': {
      name: 'Cold',
      accountPublicKey: otherAccountKey,
      password: STRONG_PASSWORD,
    },
    'wallet:select': { walletId },
    'wallet:rename': { walletId, name: 'Savings' },
    'wallet:remove': { walletId, confirmName: 'Main', password: STRONG_PASSWORD },
    'wallet:setApiKey': {
      walletId,
      apiKey: '0123456789abcdef0123456789abcdef',
      password: STRONG_PASSWORD,
    },
    'wallet:addresses': { walletId },
    'wallet:balance': { walletId },
    'wallet:joinExchange': { walletId, password: STRONG_PASSWORD },
    'settings:importOperationKey': {
      walletId,
      tradingPassword: 'trading password',
      password: STRONG_PASSWORD,
    },
  };
};

const baseOf = (channel: string, world: World): unknown => {
  const made = handMade(world);
  return Object.hasOwn(made, channel) ? made[channel] : sampleRequest(channel, world.walletId);
};

const findings: Finding[] = [];
const tally: Tally = { requests: 0, ok: 0, reached: [], internal: 0, wrongAnswers: 0, channels: 0 };
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  // The watch-only import needs an account key no fuzzed world already holds.
  const scratch = await newWorld();
  await scratch.services.dispatch('wallet:remove', {
    walletId: scratch.walletId,
    confirmName: 'Main',
    password: STRONG_PASSWORD,
  });
  const other = await scratch.services.dispatch('wallet:restore', {
    name: 'Other',
    words: OTHER_PHRASE,
    password: STRONG_PASSWORD,
  });
  if (!other.ok) throw new Error(other.error.message);
  const addresses = await scratch.services.dispatch('wallet:addresses', {
    walletId: (other.value as { id: string }).id,
  });
  if (!addresses.ok) throw new Error(addresses.error.message);
  otherAccountKey = (addresses.value as { accountPublicKey: string }).accountPublicKey;
  await scratch.services.dispose();
  await rm(scratch.dataDir, { recursive: true, force: true });

  // A fixed clock, moved on between requests: no wait of the throttle ends between the twins.
  vi.useFakeTimers({ toFake: ['Date'] });
  for (const { channel } of channels) {
    const [proto, plain] = [await newWorld(), await newWorld()];
    try {
      await fuzzChannel({
        channel,
        proto: { dispatch: proto.services.dispatch, base: () => baseOf(channel, proto) },
        plain: { dispatch: plain.services.dispatch, base: () => baseOf(channel, plain) },
        beforeEach: () => vi.setSystemTime(Date.now() + 60_000),
        findings,
        tally,
      });
      expect([...proto.logged, ...plain.logged], channel).toEqual([]);
    } finally {
      for (const world of [proto, plain]) {
        await world.services.dispose();
        await rm(world.dataDir, { recursive: true, force: true });
      }
    }
  }
  vi.useRealTimers();
}, 300_000);

afterAll(() => vi.useRealTimers());

describe('prototype names sent to every IPC channel', () => {
  it('never cause an INTERNAL error or an answer an ordinary word would not get', () => {
    console.info(`prototype-name fuzz ${JSON.stringify(tally)}`);
    expect(tally.channels).toBe(channels.length);
    expect(findings).toEqual([]);
    expect(tally.internal).toBe(0);
    expect(tally.wrongAnswers).toBe(0);
  });

  it('pollute no prototype', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
