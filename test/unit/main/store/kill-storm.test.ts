import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../../src-main/app';
import { silentLogger } from '../../../../src-main/log';
import { KeychainSecretStore, maskApiKey } from '../../../../src-main/wallet';
import type { SessionStatus, Settings, WalletList } from '../../../../src-shared/contract';
import { TEST_VAULT_COST } from '../../../fixtures/cardano/wallet-services';

/**
 * kill -9 during a storm of wallet, session and settings writes (a child process running the real
 * composition against the real keychain), then a restart, compared with what was acknowledged:
 * every acknowledged write is there, and anything else is either the state before or a write
 * that was in flight. Three rounds on the same data. Run inside `test/with-keychain.sh`.
 */
const FIXTURE = resolve(import.meta.dirname, 'write-storm.fixture.ts');
const service = `Countersign-kill-${randomUUID()}`;
const ROUNDS = 3;

interface Event {
  /** Order of asking, in the child. */
  seq: number;
  op: 'restore' | 'rename' | 'apikey' | 'autolock' | 'limits';
  name?: string;
  id?: string;
  apiKey?: string;
  autoLock?: number | 'never';
  maxOpenOrders?: number;
}

interface Round {
  sent: Event[];
  acked: Event[];
  answered: Event[];
  internal: string[];
}

const key = (e: Event): number => e.seq;

/** Runs the child until it has acknowledged enough writes (or a time is up), then kill -9. */
const stormAndKill = (dataDir: string, round: number): Promise<Round> =>
  new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', FIXTURE, dataDir, service, `${round}`],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const result: Round = { sent: [], acked: [], answered: [], internal: [] };
    let killer: ReturnType<typeof setTimeout> | undefined;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as {
        ready?: boolean;
        sent?: Event;
        ack?: Event;
        nack?: Event;
        internal?: string;
      };
      if (event.ready) killer = setTimeout(kill, 1500 + 700 * round);
      if (event.sent) result.sent.push(event.sent);
      if (event.ack) result.acked.push(event.ack);
      if (event.ack ?? event.nack) result.answered.push((event.ack ?? event.nack) as Event);
      if (event.internal) result.internal.push(event.internal);
    });
    child.once('exit', (_code, signal) => {
      clearTimeout(killer);
      if (signal === 'SIGKILL') done(result);
      else fail(new Error(`the storm child ended by itself (${signal ?? _code})`));
    });
  });

const keychainEntries = async (): Promise<string[]> => {
  const keytar = (await import('keytar')).default;
  return (await keytar.findCredentials(service)).map((c) => c.account);
};

let dataDir = '';
afterAll(async () => {
  const store = new KeychainSecretStore(service);
  for (const entry of await keychainEntries()) await store.remove(entry);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('kill -9 during a storm of wallet and settings writes', () => {
  it('loses nothing acknowledged, round after round', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-kill-'));
    /** What the data must say, per wallet, from the rounds before. */
    const names = new Map<string, string>();
    const masked = new Map<string, string | null>();
    let autoLock: unknown = 15;
    let maxOpenOrders: number | null = null;
    const figures = {
      rounds: ROUNDS,
      acknowledged: 0,
      inFlightAtKill: 0,
      restoresInFlightAtKill: 0,
      lost: 0,
      internal: 0,
      orphanedKeychainEntries: 0,
    };

    for (let round = 1; round <= ROUNDS; round++) {
      const { sent, acked, answered, internal } = await stormAndKill(dataDir, round);
      figures.acknowledged += acked.length;
      figures.internal += internal.length;
      const done = new Set(answered.map(key));
      const inFlight = sent.filter((e) => !done.has(key(e)));
      figures.inFlightAtKill += inFlight.length;
      figures.restoresInFlightAtKill += inFlight.filter((e) => e.op === 'restore').length;

      const restarted = await createAppServices({
        name: 'Countersign',
        version: 'test',
        dataDir,
        runtime: 'harness',
        network: { name: 'sandbox' },
        logger: silentLogger,
        send: () => undefined,
        secretStore: new KeychainSecretStore(service),
        vaultCost: TEST_VAULT_COST,
      });
      const listAnswer = await restarted.dispatch('wallet:list', undefined);
      const statusAnswer = await restarted.dispatch('session:status', undefined);
      const settingsAnswer = await restarted.dispatch('settings:get', undefined);
      await restarted.dispose();
      if (!listAnswer.ok || !statusAnswer.ok || !settingsAnswer.ok)
        throw new Error('the restarted app cannot read its data');
      const list = listAnswer.value as WalletList;
      const status = statusAnswer.value as SessionStatus;
      const byId = new Map(list.wallets.map((w) => [w.id, w]));
      const lost: string[] = [];

      // No file was torn: nothing had to be moved aside.
      expect(status.notices ?? []).toEqual([]);

      for (const a of acked.filter((e) => e.op === 'restore')) {
        if (!a.id || !byId.has(a.id)) lost.push(`restore ${a.name}`);
        else names.set(a.id, a.name ?? '');
      }
      // Per wallet: the last acknowledged value, or the one write still in flight.
      const lastOf = (op: Event['op'], id: string | undefined, list: Event[]) =>
        list.filter((e) => e.op === op && e.id === id).at(-1);
      for (const [id, wallet] of byId) {
        const lastRename = lastOf('rename', id, acked);
        const expectedName = lastRename?.name ?? names.get(id);
        const flyingName = inFlight.find((e) => e.op === 'rename' && e.id === id)?.name;
        if (
          expectedName !== undefined &&
          wallet.name !== expectedName &&
          wallet.name !== flyingName
        ) {
          lost.push(`rename of ${id}: ${wallet.name}, expected ${expectedName}`);
        }
        names.set(id, wallet.name);
        const lastKey = lastOf('apikey', id, acked);
        const expectedKey = lastKey?.apiKey ? maskApiKey(lastKey.apiKey) : (masked.get(id) ?? null);
        const flying = inFlight.find((e) => e.op === 'apikey' && e.id === id)?.apiKey;
        if (
          wallet.apiKey !== expectedKey &&
          wallet.apiKey !== (flying ? maskApiKey(flying) : undefined)
        ) {
          lost.push(`API key of ${id}`);
        }
        masked.set(id, wallet.apiKey);
      }
      const lastAutoLock = acked.filter((e) => e.op === 'autolock').at(-1)?.autoLock ?? autoLock;
      const flyingAutoLock = inFlight.find((e) => e.op === 'autolock')?.autoLock;
      if (status.autoLock !== lastAutoLock && status.autoLock !== flyingAutoLock)
        lost.push('auto-lock');
      autoLock = status.autoLock;
      const limit = (settingsAnswer.value as Settings).limits.maxOpenOrders;
      const lastLimit: number | null | undefined =
        acked.filter((e) => e.op === 'limits').at(-1)?.maxOpenOrders ?? maxOpenOrders;
      const flyingLimit = inFlight.find((e) => e.op === 'limits')?.maxOpenOrders;
      if (limit !== lastLimit && limit !== flyingLimit) lost.push(`settings: ${limit}`);
      maxOpenOrders = limit;

      // Keys: every listed wallet has its trading key, and no entry outlives its wallet: what a
      // restore in flight at the kill had written was cleaned up at the restart.
      const entries = await keychainEntries();
      for (const w of list.wallets) {
        if (!entries.includes(`wallet/${w.id}/operation-key`)) lost.push(`keys of ${w.name}`);
      }
      const orphanIds = new Set(
        entries.map((e) => e.split('/')[1] ?? '').filter((id) => !byId.has(id)),
      );
      figures.orphanedKeychainEntries += orphanIds.size;
      expect([...orphanIds]).toEqual([]);
      expect(internal).toEqual([]);
      expect(lost).toEqual([]);
      figures.lost += lost.length;
      // The restart cleared what a killed write leaves behind.
      for (const folder of [dataDir, join(dataDir, 'wallet')]) {
        expect((await readdir(folder)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      }
    }
    console.info(`kill -9 storm ${JSON.stringify(figures)}`);
    expect(figures.acknowledged).toBeGreaterThan(30);
  }, 120_000);
});
