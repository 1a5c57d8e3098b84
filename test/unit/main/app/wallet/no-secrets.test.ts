import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSandboxCommand } from '../../../../harness/sandbox-command';
import { createAppServices, type AppServices } from '../../../../../src-main/app';
import { redact, type Logger } from '../../../../../src-main/log';
import {
  MemorySecretStore,
  openSecret,
  recoveryPhraseEntropy,
  rootKeyFromEntropy,
  accountKeyOf,
  paymentSigningKeyOf,
  cryptoIsReady,
} from '../../../../../src-main/wallet';
import { transactionEnvelope } from '../../../../../src-main/signing';
import { deposit, makeParties } from '../../../../fixtures/cardano/exchange-transactions';
import { channels, type EventName } from '../../../../../src-shared/contract';
import {
  STRONG_PASSWORD,
  TEST_VAULT_COST,
  VECTOR_PHRASE,
} from '../../../../fixtures/cardano/wallet-services';

/**
 * Walks a full wallet session through the dispatcher, exactly as the renderer would drive it,
 * and searches every response, error and event for secrets: passwords, recovery phrases (except
 * the one `wallet:create` answer), entropy, root/account/payment/operation key bytes, vault blobs.
 */
const OTHER_PASSWORD = 'orange glacier whistle';
const API_KEY = 'fedcba9876543210fedcba9876543210';
const BLOCKFROST_ID = `preprod${'Kq4'.repeat(10)}wz`;

interface Crossing {
  channel: string;
  text: string;
}

let dataDir: string;
let services: AppServices;
const store = new MemorySecretStore();
const crossings: Crossing[] = [];
const called = new Set<string>();
let createdWords: string[] = [];
let sandboxApiKey = '';

const call = async (channel: string, payload?: unknown): Promise<unknown> => {
  called.add(channel);
  const result = await services.dispatch(channel, payload);
  crossings.push({ channel, text: JSON.stringify(result) });
  return result.ok ? result.value : result.error;
};

/** What the app would write to its log, as the console logger writes it (after redaction). */
const log = (level: string) => (message: string, detail?: unknown) =>
  crossings.push({
    channel: `log ${level}`,
    text: `${message} ${JSON.stringify(redact(detail)) ?? ''}`,
  });
const capturingLogger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-leak-'));
  services = await createAppServices({
    name: 'Countersign',
    version: 'test',
    dataDir,
    runtime: 'harness',
    logger: capturingLogger,
    send: (name: EventName, payload: unknown) =>
      crossings.push({ channel: `event ${name}`, text: JSON.stringify(payload) }),
    secretStore: store,
    vaultCost: TEST_VAULT_COST,
    // The real embedded sandbox: joining it hands the app an API key, a secret to hunt for.
    sandbox: sourceSandboxCommand,
  });

  await call('app:info');
  await call('session:status');
  await call('wallet:list');
  await call('wallet:create', { name: 'Weak', password: 'short' });
  const created = (await call('wallet:create', { name: 'New', password: STRONG_PASSWORD })) as {
    creationId: string;
    words: string[];
    confirmPositions: number[];
  };
  createdWords = created.words;
  await call('wallet:confirmCreate', {
    creationId: created.creationId,
    words: created.confirmPositions.map((position) => ({ position, word: 'zoo' })),
  });
  await call('wallet:confirmCreate', {
    creationId: created.creationId,
    words: created.confirmPositions.map((position) => ({
      position,
      word: created.words[position - 1],
    })),
  });
  await call('session:unlock', { password: 'not my password' });
  await call('session:unlock', { password: STRONG_PASSWORD });
  const { activeWalletId } = (await call('wallet:list')) as { activeWalletId: string };
  await call('wallet:joinExchange', { walletId: activeWalletId, password: 'not my password' });
  await call('wallet:joinExchange', { walletId: activeWalletId, password: STRONG_PASSWORD });
  sandboxApiKey = services.session.apiKey() ?? '';
  await call('wallet:balance', {});
  await call('session:touch');
  await call('wallet:addresses', {});
  const bad = VECTOR_PHRASE.split(' ');
  bad[5] = 'wearr';
  await call('wallet:restore', { name: 'Typo', words: bad.join(' '), password: OTHER_PASSWORD });
  const swapped = VECTOR_PHRASE.split(' ');
  [swapped[0], swapped[1]] = [swapped[1] ?? '', swapped[0] ?? ''];
  await call('wallet:restore', { name: 'Swap', words: swapped, password: OTHER_PASSWORD });
  const vector = (await call('wallet:restore', {
    name: 'Vector',
    words: VECTOR_PHRASE,
    password: OTHER_PASSWORD,
  })) as { id: string };
  await call('session:unlock', { password: OTHER_PASSWORD });
  const { accountPublicKey } = (await call('wallet:addresses', {})) as { accountPublicKey: string };
  // The offline computer's signing: the payment key is opened, only its signature leaves.
  await cryptoIsReady();
  const file = transactionEnvelope(deposit(makeParties()).txHex);
  await call('offline:readTransactionFile', { file });
  await call('offline:signTransactionFile', { file, password: 'not my password' });
  await call('offline:signTransactionFile', { file, password: OTHER_PASSWORD });
  await call('offline:signTransaction', { file, password: OTHER_PASSWORD, medium: 'qr' });
  await call('wallet:importWatchOnly', {
    name: 'Cold',
    accountPublicKey,
    password: OTHER_PASSWORD,
  });
  await call('wallet:importWatchOnly', {
    name: 'Bad',
    accountPublicKey: 'xprv1abc',
    password: OTHER_PASSWORD,
  });
  await call('wallet:setApiKey', { walletId: vector.id, apiKey: API_KEY, password: 'wrong!' });
  await call('wallet:setApiKey', {
    walletId: vector.id,
    apiKey: API_KEY,
    password: OTHER_PASSWORD,
  });
  // The practice exchange refuses a Blockfrost project id; it must not echo it either.
  await call('wallet:setBlockfrost', {
    walletId: vector.id,
    projectId: BLOCKFROST_ID,
    password: OTHER_PASSWORD,
  });
  await call('wallet:select', { walletId: vector.id });
  await call('wallet:rename', { walletId: vector.id, name: 'Savings' });
  await call('session:setAutoLock', { autoLock: 5 });
  await call('session:unlock', { password: OTHER_PASSWORD });
  await call('session:lock');
  await call('wallet:remove', { walletId: vector.id, confirmName: 'nope', password: 'x' });
  await call('wallet:remove', { walletId: vector.id, confirmName: 'Savings', password: 'wrong!' });
  await call('wallet:remove', {
    walletId: vector.id,
    confirmName: 'Savings',
    password: OTHER_PASSWORD,
  });
  await call('wallet:list');
  await call('session:status');
  // A request refused by its schema must not echo what was typed.
  await call('wallet:rename', { walletId: 'not-a-uuid', name: STRONG_PASSWORD });
});

afterAll(async () => {
  await services.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

const secretsToLookFor = async (): Promise<Array<[string, string]>> => {
  const found: Array<[string, string]> = [
    ['spending password', STRONG_PASSWORD],
    ['second spending password', OTHER_PASSWORD],
    ['wrong password typed', 'not my password'],
    ['created phrase', createdWords.join(' ')],
    ['vector phrase', VECTOR_PHRASE],
    ['mistyped phrase word', 'wearr'],
    ['vault blob', 'countersign-vault'],
    ['API key', API_KEY],
    ['API key (first half)', API_KEY.slice(0, 16)],
    ['Blockfrost project id', BLOCKFROST_ID.slice(7, 27)],
    ['sandbox API key', sandboxApiKey],
    ['sandbox API key (first half)', sandboxApiKey.slice(0, 16)],
  ];
  for (const [name, words] of [
    ['vector', VECTOR_PHRASE.split(' ')],
    ['created', createdWords],
  ] as const) {
    for (let i = 0; i + 3 <= words.length; i++) {
      found.push([`3 words of the ${name} phrase`, words.slice(i, i + 3).join(' ')]);
      found.push([
        `3 words of the ${name} phrase (JSON)`,
        JSON.stringify(words.slice(i, i + 3)).slice(1, -1),
      ]);
    }
    const entropy = recoveryPhraseEntropy([...words]);
    const account = accountKeyOf(rootKeyFromEntropy(entropy));
    for (const [what, bytes] of [
      ['entropy', entropy],
      ['root key', rootKeyFromEntropy(entropy).bytes()],
      ['account private key', account.bytes()],
      ['payment signing key', paymentSigningKeyOf(account)],
    ] as const) {
      found.push([`${name} ${what} (hex)`, Buffer.from(bytes).toString('hex').slice(0, 32)]);
      found.push([`${name} ${what} (base64)`, Buffer.from(bytes).toString('base64').slice(0, 24)]);
    }
  }
  for (const [entry, blob] of store.entries) {
    if (!entry.endsWith('operation-key')) continue;
    for (const password of [STRONG_PASSWORD, OTHER_PASSWORD]) {
      const key = await openSecret(blob, password, entry).catch(() => null);
      if (key) {
        found.push([`operation key ${entry} (hex)`, key.toString('hex').slice(0, 32)]);
        found.push([`operation key ${entry} (base64)`, key.toString('base64').slice(0, 24)]);
      }
    }
  }
  return found;
};

describe('no secret crosses to the renderer or the log', () => {
  it('exercised every wallet, session and offline-signing operation of the contract', () => {
    const ours = channels.map((c) => c.channel).filter((c) => /^(wallet|session|offline):/.test(c));
    expect(ours.filter((c) => !called.has(c))).toEqual([]);
    expect(crossings.filter((c) => c.channel.startsWith('event ')).length).toBeGreaterThan(5);
  });

  it('finds no secret in any response, error or event (the 24 words only in the create answer)', async () => {
    const secrets = await secretsToLookFor();
    expect(secrets.length).toBeGreaterThan(100);
    const leaks: string[] = [];
    for (const crossing of crossings) {
      const isCreateAnswer =
        crossing.channel === 'wallet:create' && crossing.text.includes('"words"');
      for (const [what, secret] of secrets) {
        if (isCreateAnswer && what.includes('created phrase')) continue;
        if (isCreateAnswer && what.startsWith('3 words of the created')) continue;
        if (crossing.text.includes(secret)) leaks.push(`${what} in ${crossing.channel}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('did show the created phrase once, so the search above can find one', () => {
    const answers = crossings.filter((c) => c.text.includes(createdWords.slice(0, 3).join('","')));
    expect(answers.map((c) => c.channel)).toEqual(['wallet:create']);
    // The sandbox opened an account and its key reached the session, masked in every answer.
    expect(sandboxApiKey).toMatch(/^[0-9a-f]{32}$/);
    expect(
      crossings.some(
        (c) => c.channel === 'wallet:joinExchange' && c.text.includes(sandboxApiKey.slice(-4)),
      ),
    ).toBe(true);
    // And the API key was saved: its masked form crossed.
    expect(
      crossings.some((c) => c.channel === 'wallet:setApiKey' && c.text.includes('••••3210')),
    ).toBe(true);
  });
});
