import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../../src-shared/errors';
import type { SigningKey } from '../../../../../src-main/wallet';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a failure');
};

let world: WalletWorld;
beforeEach(async () => {
  world = await walletWorld();
});
afterEach(async () => {
  vi.useRealTimers();
  await world.cleanup();
});

const restoreVector = () =>
  world.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD });

describe('the trading session', () => {
  it('has nothing to unlock before a wallet exists', async () => {
    expect(await world.session.status()).toMatchObject({
      state: 'no-wallet',
      walletName: null,
      autoLock: 15,
    });
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.WalletNotFound);
  });

  it('unlocks with the spending password, signs, and wipes the key on lock', async () => {
    const wallet = await restoreVector();
    expect(() => world.session.withOperationKey(() => 1)).toThrow(/locked/);
    const status = await world.session.unlock(STRONG_PASSWORD);
    expect(status).toMatchObject({ state: 'unlocked', walletName: 'Main', lockReason: null });
    let held: SigningKey | undefined;
    const hash = world.session.withOperationKey((key) => {
      held = key;
      return key.keyHash;
    });
    expect(hash).toBe(wallet.operationKeyHash);
    expect(held?.sign(new Uint8Array(32))).toHaveLength(64);

    const locked = await world.session.lock('user');
    expect(locked).toMatchObject({ state: 'locked', lockReason: 'user' });
    expect(held?.wiped).toBe(true);
    expect(() => held?.sign(new Uint8Array(32))).toThrow(/wiped/);
    expect(world.events.at(-1)).toEqual({ name: 'session:changed', payload: locked });
  });

  it('announces a new API key saved while unlocked, also one that replaces another, so the account feed restarts with it', async () => {
    const wallet = await restoreVector();
    await world.session.unlock(STRONG_PASSWORD);
    const announced = () => world.events.filter((e) => e.name === 'session:changed').length;
    const save = (apiKey: string) =>
      world.wallet.setApiKey({ walletId: wallet.id, apiKey, password: STRONG_PASSWORD });
    const before = announced();
    await save('first-key-0123456789abcdef');
    await vi.waitFor(() => expect(announced()).toBe(before + 1));
    // The practice exchange was reset (or the key was renewed): the old key is refused now.
    await save('second-key-0123456789abcdef');
    await vi.waitFor(() => expect(announced()).toBe(before + 2));
    expect(world.session.apiKey()).toBe('second-key-0123456789abcdef');
    // The same key again changes nothing and restarts nothing.
    await save('second-key-0123456789abcdef');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(announced()).toBe(before + 2);
  });

  it('locks at once on suspend or screen lock, and tells the renderer', async () => {
    await restoreVector();
    await world.session.unlock(STRONG_PASSWORD);
    world.session.lockNow('suspend');
    expect(world.session.isUnlocked).toBe(false);
    await vi.waitFor(() =>
      expect(world.events.at(-1)?.payload).toMatchObject({
        state: 'locked',
        lockReason: 'suspend',
      }),
    );
  });

  it('locks after the idle timeout, restarted by activity, and never when set so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await restoreVector();
    await world.session.setAutoLock(1);
    await world.session.unlock(STRONG_PASSWORD);
    await vi.advanceTimersByTimeAsync(50_000);
    world.session.withOperationKey(() => undefined); // activity
    await vi.advanceTimersByTimeAsync(50_000);
    expect(world.session.isUnlocked).toBe(true);
    await vi.advanceTimersByTimeAsync(11_000);
    expect(world.session.isUnlocked).toBe(false);
    expect(await world.session.status()).toMatchObject({ lockReason: 'idle' });

    await world.session.setAutoLock('never');
    await world.session.unlock(STRONG_PASSWORD);
    await vi.advanceTimersByTimeAsync(3 * 3600_000);
    expect(world.session.isUnlocked).toBe(true);
    expect((await world.restart().session.status()).autoLock).toBe('never');
  });

  it('gives 5 free wrong passwords, then waits that grow to 30 s, remembered across restarts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await restoreVector();
    for (let i = 1; i <= 4; i++) {
      await expect(world.session.unlock('wrong password!')).rejects.toThrow(
        `${5 - i} more ${5 - i === 1 ? 'try' : 'tries'}`,
      );
    }
    await expect(world.session.unlock('wrong password!')).rejects.toThrow('Wait 1 s');
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);

    const restarted = world.restart();
    expect(await codeOf(restarted.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
    expect((await restarted.session.status()).nextUnlockAttemptAt).toBeGreaterThan(Date.now());
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      vi.setSystemTime(Date.now() + 30_000);
      await expect(restarted.session.unlock('wrong password!')).rejects.toThrow(/Wait/);
      waits.push(((await restarted.session.status()).nextUnlockAttemptAt ?? 0) - Date.now());
    }
    expect(waits).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    vi.setSystemTime(Date.now() + 30_000);
    expect((await restarted.session.unlock(STRONG_PASSWORD)).state).toBe('unlocked');
    expect((await restarted.session.status()).nextUnlockAttemptAt).toBeNull();
  });

  it('locks when another wallet is selected', async () => {
    const a = await restoreVector();
    const created = await world.wallet.create({ name: 'B', password: STRONG_PASSWORD });
    await world.wallet.confirmCreate({
      creationId: created.creationId,
      words: created.confirmPositions.map((position) => ({
        position,
        word: created.words[position - 1] ?? '',
      })),
    });
    await world.session.unlock(STRONG_PASSWORD);
    await world.wallet.select({ walletId: a.id });
    expect(await world.session.status()).toMatchObject({
      state: 'locked',
      walletName: 'Main',
      lockReason: 'wallet-changed',
    });
  });

  it('refuses a keychain entry that is missing or not this wallet’s', async () => {
    const wallet = await restoreVector();
    const entry = `wallet/${wallet.id}/operation-key`;
    const blob = (await world.store.read(entry)) ?? '';
    await world.store.write(entry, blob.replace('"data":"', '"data":"AAAA'));
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.WrongPassword);
    await world.store.remove(entry);
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.VaultCorrupted);
  });

  it('checks the password even while unlocked: a wrong one fails and counts, a right one keeps it open', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await restoreVector();
    await world.session.unlock(STRONG_PASSWORD);
    await expect(world.session.unlock('wrong password!')).rejects.toThrow('4 more tries');
    expect(world.session.isUnlocked).toBe(true);
    expect((await world.session.unlock(STRONG_PASSWORD)).state).toBe('unlocked');
    for (let i = 0; i < 5; i++) await codeOf(world.session.unlock('wrong password!'));
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
  });

  it('checks exactly the schedule’s count of 20 wrong passwords sent at once', async () => {
    await restoreVector();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => codeOf(world.session.unlock(`wrong password ${i}`))),
    );
    expect(results.filter((c) => c === ErrorCode.WrongPassword)).toHaveLength(5);
    expect(results.filter((c) => c === ErrorCode.TooManyAttempts)).toHaveLength(15);
  });

  it('does not unlock with the right password sent with 11 wrong ones, beyond the schedule', async () => {
    await restoreVector();
    const wrong = Array.from({ length: 11 }, (_, i) =>
      codeOf(world.session.unlock(`wrong password ${i}`)),
    );
    const right = world.session.unlock(STRONG_PASSWORD).then(
      () => 'unlocked',
      (error: { code: string }) => error.code,
    );
    const results = await Promise.all([...wrong, right]);
    expect(results.filter((c) => c === ErrorCode.WrongPassword)).toHaveLength(5);
    expect(results.at(-1)).toBe(ErrorCode.TooManyAttempts);
    expect(world.session.isUnlocked).toBe(false);
  });

  it('lets a lock that comes while the password is checked win: the key is wiped, not kept', async () => {
    await restoreVector();
    const unlocking = world.session.unlock(STRONG_PASSWORD);
    world.session.lockNow('suspend');
    expect(await codeOf(unlocking)).toBe(ErrorCode.Locked);
    expect(world.session.isUnlocked).toBe(false);
    expect(await world.session.status()).toMatchObject({ state: 'locked', lockReason: 'suspend' });
  });

  it('keeps the last of 30 concurrent auto-lock changes, on disk and in memory alike', async () => {
    await restoreVector();
    const choices = [1, 5, 15, 60, 'never'] as const;
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => world.session.setAutoLock(choices[i % 5] ?? 15)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const inMemory = (await world.session.status()).autoLock;
    expect((await world.restart().session.status()).autoLock).toBe(inMemory);
  });

  it('moves a damaged auto-lock setting aside, uses the default, and says so', async () => {
    const { mkdir, writeFile, readdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await mkdir(join(world.dataDir, 'wallet'), { recursive: true });
    await writeFile(join(world.dataDir, 'wallet', 'session.json'), '{"autoLock": 7}');
    const status = await world.session.status();
    expect(status.autoLock).toBe(15);
    expect(status.notices).toEqual([
      expect.stringMatching(/session\.json.*moved aside as session\.json\.damaged-.*15 minutes/),
    ]);
    expect(status.notices?.[0]).not.toContain(world.dataDir);
    const names = await readdir(join(world.dataDir, 'wallet'));
    expect(names.filter((n) => n.includes('damaged'))).toHaveLength(1);
    await world.session.setAutoLock(5);
    expect((await world.restart().session.status()).autoLock).toBe(5);
  });
});
