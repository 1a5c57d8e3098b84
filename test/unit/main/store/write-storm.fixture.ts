/**
 * A child process for the kill -9 test: the app (real composition, real keychain) under a storm
 * of wallet and settings writes until it is killed. One JSON line per event on stdout:
 * `sent` before a write is asked, `ack` once it answered OK, `nack` for a refusal (with its code).
 * Usage: node --import tsx write-storm.fixture.ts <dataDir> <keychain service> <round>
 */
import { randomBytes } from 'node:crypto';
import { say } from '../../../fixtures/crash/say';
import { createAppServices } from '../../../../src-main/app';
import { KeychainSecretStore, newRecoveryPhrase } from '../../../../src-main/wallet';
import type { WalletList, WalletSummary } from '../../../../src-shared/contract';
import { STRONG_PASSWORD, TEST_VAULT_COST } from '../../../fixtures/cardano/wallet-services';

const [dataDir = '', service = '', round = '0'] = process.argv.slice(2);

const services = await createAppServices({
  name: 'Countersign',
  version: 'test',
  dataDir,
  runtime: 'harness',
  network: { name: 'sandbox' },
  logger: {
    info: () => undefined,
    warn: () => undefined,
    error: (message) => say({ internal: message }),
  },
  send: () => undefined,
  secretStore: new KeychainSecretStore(service),
  vaultCost: TEST_VAULT_COST,
});

let seq = 0;

const call = async (
  what: Record<string, unknown>,
  channel: string,
  payload: unknown,
): Promise<unknown> => {
  const event = { seq: seq++, ...what };
  say({ sent: event });
  const answer = await services.dispatch(channel, payload);
  if (answer.ok) say({ ack: event });
  else say({ nack: event, code: answer.error.code, message: answer.error.message });
  return answer.ok ? answer.value : undefined;
};

const listed = await services.dispatch('wallet:list', undefined);
const known: string[] = listed.ok ? (listed.value as WalletList).wallets.map((w) => w.id) : [];
let n = 0;

/** Restores, several at once: each a new wallet with its keys in the keychain. */
const restores = async (worker: number): Promise<never> => {
  for (;;) {
    const name = `K${round}-${worker}-${n++}`;
    const event = { seq: seq++, op: 'restore', name };
    say({ sent: event });
    const answer = await services.dispatch('wallet:restore', {
      name,
      words: newRecoveryPhrase(),
      password: STRONG_PASSWORD,
    });
    if (answer.ok) {
      const id = (answer.value as WalletSummary).id;
      known.push(id);
      say({ ack: { ...event, id } });
    } else say({ nack: event, code: answer.error.code });
  }
};

/** One rename at a time per wallet, so at most one is in flight when the kill comes. */
const renames = async (): Promise<never> => {
  for (;;) {
    const id = known[n % Math.max(1, known.length)];
    if (!id) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    const name = `N${round}-${n++}`;
    await call({ op: 'rename', id, name }, 'wallet:rename', { walletId: id, name });
  }
};

const apiKeys = async (): Promise<never> => {
  for (;;) {
    const id = known[(n * 7) % Math.max(1, known.length)];
    if (!id) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    const apiKey = randomBytes(16).toString('hex');
    n++;
    await call({ op: 'apikey', id, apiKey }, 'wallet:setApiKey', {
      walletId: id,
      apiKey,
      password: STRONG_PASSWORD,
    });
  }
};

const autoLocks = async (): Promise<never> => {
  const values = [1, 5, 15, 60, 'never'] as const;
  for (let i = 0; ; i++) {
    const autoLock = values[i % values.length];
    await call({ op: 'autolock', autoLock }, 'session:setAutoLock', { autoLock });
  }
};

/** The settings file: each change sets the open-order limit to a new number. */
const limits = async (): Promise<never> => {
  for (let i = 1; ; i++) {
    const maxOpenOrders = round === '0' ? i : Number(round) * 100_000 + i;
    await call({ op: 'limits', maxOpenOrders }, 'settings:update', {
      limits: { maxOrderValue: null, maxOpenOrders },
    });
    // At a trader's pace next to the others: the storm is about all of them at once.
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
};

say({ ready: true, wallets: known.length });
await Promise.all([
  restores(0),
  restores(1),
  restores(2),
  renames(),
  apiKeys(),
  autoLocks(),
  limits(),
]);
