import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../../src-shared/errors';
import type { MemorySecretStore } from '../../../../../src-main/wallet';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';

const TESTNET_VECTOR =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';
const MAINNET_VECTOR =
  'addr1qyy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sdn8p3d';

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a failure');
};

const entriesOf = (w: WalletWorld): string[] =>
  [...(w.store as MemorySecretStore).entries.keys()].sort();

let world: WalletWorld;
beforeEach(async () => {
  world = await walletWorld();
});
afterEach(async () => {
  vi.useRealTimers();
  await world.cleanup();
});

describe('creating a wallet', () => {
  it('shows 24 words once and stores nothing until the chosen words are re-typed', async () => {
    const created = await world.wallet.create({ name: 'Main', password: STRONG_PASSWORD });
    expect(created.words).toHaveLength(24);
    expect(created.confirmPositions).toHaveLength(3);
    expect((await world.wallet.list()).wallets).toEqual([]);
    expect(entriesOf(world)).toEqual([]);

    const wrong = created.confirmPositions.map((position) => ({
      position,
      word: created.words[position - 1] ?? '',
    }));
    wrong[1] = { position: created.confirmPositions[1] ?? 1, word: 'zzz' };
    await expect(
      world.wallet.confirmCreate({ creationId: created.creationId, words: wrong }),
    ).rejects.toThrow(`Word ${created.confirmPositions[1]} does not match`);

    const right = created.confirmPositions.map((position) => ({
      position,
      word: ` ${(created.words[position - 1] ?? '').toUpperCase()} `,
    }));
    const summary = await world.wallet.confirmCreate({
      creationId: created.creationId,
      words: right,
    });
    expect(summary).toMatchObject({ name: 'Main', kind: 'full', active: true });
    expect(summary.operationKeyHash).toMatch(/^[0-9a-f]{56}$/);
    expect(entriesOf(world)).toEqual([
      `wallet/${summary.id}/operation-key`,
      `wallet/${summary.id}/root`,
    ]);
    expect(
      await codeOf(world.wallet.confirmCreate({ creationId: created.creationId, words: right })),
    ).toBe(ErrorCode.NotFound);
    expect((await world.session.status()).state).toBe('locked');
  });

  it('refuses a weak password or a taken name before showing any words', async () => {
    expect(await codeOf(world.wallet.create({ name: 'Main', password: 'short' }))).toBe(
      ErrorCode.WeakPassword,
    );
    await world.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    expect(await codeOf(world.wallet.create({ name: ' main ', password: STRONG_PASSWORD }))).toBe(
      ErrorCode.InvalidInput,
    );
  });
});

describe('restoring and watching', () => {
  it('restores the test vector wallet with its published address on each network', async () => {
    const summary = await world.wallet.restore({
      name: 'Vector',
      words: VECTOR_PHRASE.split(' '),
      password: STRONG_PASSWORD,
    });
    expect(summary.kind).toBe('full');
    expect((await world.wallet.addresses({})).baseAddress).toBe(TESTNET_VECTOR);
    const production = await walletWorld('production');
    await production.wallet.restore({ name: 'V', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    expect((await production.wallet.addresses({})).baseAddress).toBe(MAINNET_VECTOR);
    await production.cleanup();
  });

  it('names a bad phrase and refuses the same wallet twice', async () => {
    const words = VECTOR_PHRASE.split(' ');
    words[3] = 'soull';
    await expect(
      world.wallet.restore({ name: 'X', words, password: STRONG_PASSWORD }),
    ).rejects.toThrow('Word 4 is not');
    await world.wallet.restore({ name: 'A', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    await expect(
      world.wallet.restore({ name: 'B', words: VECTOR_PHRASE, password: STRONG_PASSWORD }),
    ).rejects.toThrow('already here, as "A"');
    expect((await world.wallet.list()).wallets).toHaveLength(1);
  });

  it('imports a watch-only wallet from its account key: same addresses, no root key stored', async () => {
    await world.wallet.restore({ name: 'Full', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    const full = await world.wallet.addresses({});
    const other = await walletWorld();
    const watch = await other.wallet.importWatchOnly({
      name: 'Cold',
      accountPublicKey: full.accountPublicKey,
      password: STRONG_PASSWORD,
    });
    expect(watch.kind).toBe('watch-only');
    expect((await other.wallet.addresses({})).baseAddress).toBe(TESTNET_VECTOR);
    expect(entriesOf(other)).toEqual([`wallet/${watch.id}/operation-key`]);
    expect(
      await codeOf(
        other.wallet.importWatchOnly({
          name: 'Bad',
          accountPublicKey: TESTNET_VECTOR,
          password: STRONG_PASSWORD,
        }),
      ),
    ).toBe(ErrorCode.InvalidInput);
    await other.cleanup();
  });

  it('restoring the phrase of a watch-only wallet here says to remove that copy first, which then works', async () => {
    const source = await walletWorld();
    await source.wallet.restore({ name: 'Full', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    const { accountPublicKey } = await source.wallet.addresses({});
    await source.cleanup();
    const cold = await world.wallet.importWatchOnly({
      name: 'Cold',
      accountPublicKey,
      password: STRONG_PASSWORD,
    });
    await expect(
      world.wallet.restore({ name: 'Hot', words: VECTOR_PHRASE, password: STRONG_PASSWORD }),
    ).rejects.toThrow(
      'here already as the watch-only wallet “Cold”. To restore it with its key, first remove “Cold” in Settings › Wallets',
    );
    await world.wallet.remove({
      walletId: cold.id,
      confirmName: 'Cold',
      password: STRONG_PASSWORD,
    });
    const hot = await world.wallet.restore({
      name: 'Hot',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    expect(hot.kind).toBe('full');
    expect((await world.wallet.addresses({})).baseAddress).toBe(TESTNET_VECTOR);
  });
});

describe('several wallets', () => {
  it('selects, renames and removes, keeping one active, and survives a restart', async () => {
    const a = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const created = await world.wallet.create({ name: 'B', password: STRONG_PASSWORD });
    const b = await world.wallet.confirmCreate({
      creationId: created.creationId,
      words: created.confirmPositions.map((position) => ({
        position,
        word: created.words[position - 1] ?? '',
      })),
    });
    expect((await world.wallet.list()).activeWalletId).toBe(b.id);
    expect((await world.wallet.select({ walletId: a.id })).active).toBe(true);
    expect((await world.wallet.rename({ walletId: a.id, name: 'Savings' })).name).toBe('Savings');
    expect((await world.session.status()).walletName).toBe('Savings');

    const restarted = world.restart();
    expect((await restarted.wallet.list()).wallets.map((w) => [w.name, w.active])).toEqual([
      ['Savings', true],
      ['B', false],
    ]);

    await expect(
      restarted.wallet.remove({ walletId: a.id, confirmName: 'A', password: STRONG_PASSWORD }),
    ).rejects.toThrow('Type the wallet\'s name, "Savings"');
    const after = await restarted.wallet.remove({
      walletId: a.id,
      confirmName: 'savings',
      password: STRONG_PASSWORD,
    });
    expect(after.wallets.map((w) => w.name)).toEqual(['B']);
    expect(after.activeWalletId).toBe(b.id);
    expect(await world.store.read(`wallet/${a.id}/root`)).toBeNull();
    expect(await codeOf(restarted.wallet.select({ walletId: a.id }))).toBe(
      ErrorCode.WalletNotFound,
    );
  });

  it('moves a damaged wallet list aside, keeps what still reads, says so by file name only, and carries on', async () => {
    const { writeFile, readFile, readdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const a = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const folder = join(world.dataDir, 'wallet');
    const path = join(folder, 'wallets.json');
    const file = JSON.parse(await readFile(path, 'utf8')) as { wallets: unknown[] };
    // A second record, damaged: the list no longer reads as a whole.
    const damaged = JSON.stringify({ ...file, wallets: [...file.wallets, { id: 'broken' }] });
    await writeFile(path, damaged);

    const restarted = world.restart();
    const list = await restarted.wallet.list();
    expect(list.wallets.map((w) => w.id)).toEqual([a.id]);
    const status = await restarted.session.status();
    expect(status.state).toBe('locked');
    const [notice] = status.notices ?? [];
    expect(notice).toMatch(
      /wallets\.json.*damaged.*moved aside as wallets\.json\.damaged-.*1 wallet was recovered/,
    );
    expect(list.notices).toEqual([notice]);
    expect(notice).not.toContain(world.dataDir);
    expect(notice).not.toContain('/');
    // The damaged file is kept next to it, as it was.
    const aside = (await readdir(folder)).filter((n) => n.startsWith('wallets.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(folder, aside[0] ?? ''), 'utf8')).toBe(damaged);
    // The app keeps running: the recovered wallet unlocks, and the repair is on disk.
    expect((await restarted.session.unlock(STRONG_PASSWORD)).state).toBe('unlocked');
    expect((await world.restart().wallet.list()).wallets.map((w) => w.id)).toEqual([a.id]);
  });

  it('moves an unreadable wallet list aside and starts an empty one, never silently', async () => {
    const { writeFile, mkdir, readdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const folder = join(world.dataDir, 'wallet');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'wallets.json'), '{"version":1,"wallets":[{"id":');
    expect((await world.wallet.list()).wallets).toEqual([]);
    expect((await world.session.status()).notices).toEqual([
      expect.stringMatching(/wallets\.json.*not valid JSON.*no wallet could be recovered/),
    ]);
    expect((await readdir(folder)).filter((n) => n.includes('damaged'))).toHaveLength(1);
    const restored = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    expect((await world.restart().wallet.list()).wallets.map((w) => w.id)).toEqual([restored.id]);
    expect(entriesOf(world)).toHaveLength(2);
  });

  it('cleans up, keys first, a wallet a stopped run left half-added, and shows it nowhere', async () => {
    const { readFile, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const a = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    // What a kill between "keys written" and "line committed" leaves: a pending line, and keys.
    const path = join(world.dataDir, 'wallet', 'wallets.json');
    const file = JSON.parse(await readFile(path, 'utf8')) as { wallets: Array<{ id: string }> };
    const halfId = '0b6a1c52-3d4e-4f60-8a7b-9c0d1e2f3a4b';
    const half = { ...file.wallets[0], id: halfId, name: 'Half', pending: true };
    await writeFile(path, JSON.stringify({ ...file, wallets: [...file.wallets, half] }));
    await world.store.write(`wallet/${halfId}/operation-key`, 'sealed');
    await world.store.write(`wallet/${halfId}/root`, 'sealed');

    const restarted = world.restart();
    expect((await restarted.session.status()).walletName).toBe('A');
    expect(await codeOf(restarted.wallet.select({ walletId: halfId }))).toBe(
      ErrorCode.WalletNotFound,
    );
    expect((await restarted.wallet.list()).wallets.map((w) => w.id)).toEqual([a.id]);
    expect(entriesOf(world).filter((e) => e.includes(halfId))).toEqual([]);
    expect(await readFile(path, 'utf8')).not.toContain(halfId);
  });

  it('asks for the spending password to remove a wallet with keys, and counts a wrong one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const a = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const attempt = (password: string) =>
      world.wallet.remove({ walletId: a.id, confirmName: 'A', password });
    expect(await codeOf(attempt('not the password'))).toBe(ErrorCode.WrongPassword);
    expect(entriesOf(world)).toHaveLength(2);
    expect((await world.wallet.list()).wallets).toHaveLength(1);
    for (let i = 0; i < 4; i++) await codeOf(attempt('not the password'));
    // The sixth guess waits, whatever the entry point: even the right password.
    expect(await codeOf(attempt(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
    expect(entriesOf(world)).toHaveLength(2);
  });

  it('removes a wallet whose keys are already gone on its name alone', async () => {
    const a = await world.wallet.restore({
      name: 'A',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    for (const entry of entriesOf(world)) await world.store.remove(entry);
    const after = await world.wallet.remove({ walletId: a.id, confirmName: 'A', password: 'x' });
    expect(after.wallets).toEqual([]);
  });
});

describe('the exchange API key', () => {
  const API_KEY = '0123456789abcdef0123456789abcdef';

  it('is sealed with the spending password, answered masked, and opened with the session', async () => {
    const wallet = await world.wallet.restore({
      name: 'Main',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    expect(wallet.apiKey).toBeNull();
    expect(
      await codeOf(
        world.wallet.setApiKey({ walletId: wallet.id, apiKey: API_KEY, password: 'wrong one!' }),
      ),
    ).toBe(ErrorCode.WrongPassword);
    expect(await world.store.read(`wallet/${wallet.id}/api-key/sandbox`)).toBeNull();

    const summary = await world.wallet.setApiKey({
      walletId: wallet.id,
      apiKey: API_KEY,
      password: STRONG_PASSWORD,
    });
    expect(summary.apiKey).toBe('••••cdef');
    expect(await world.store.read(`wallet/${wallet.id}/api-key/sandbox`)).not.toContain(API_KEY);
    expect(() => world.session.apiKey()).toThrow(/locked/);

    const restarted = world.restart();
    await restarted.session.unlock(STRONG_PASSWORD);
    expect(restarted.session.apiKey()).toBe(API_KEY);
    await restarted.session.lock('user');
    expect(() => restarted.session.apiKey()).toThrow(/locked/);

    await restarted.wallet.remove({
      walletId: wallet.id,
      confirmName: 'Main',
      password: STRONG_PASSWORD,
    });
    expect(entriesOf(restarted)).toEqual([]);
  });

  it('says when none was saved', async () => {
    await world.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
    await world.session.unlock(STRONG_PASSWORD);
    expect(() => world.session.apiKey()).toThrow(/No API key is saved/);
  });
});
