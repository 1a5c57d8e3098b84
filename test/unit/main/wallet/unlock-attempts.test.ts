import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../../src-shared/errors';
import { delayAfter, FREE_ATTEMPTS, UnlockAttempts } from '../../../../src-main/wallet';

const RIGHT = 'the right password';

/** A password check like the vault's: slow, and WRONG_PASSWORD unless it is the right one. */
const checker = () => {
  const checked: string[] = [];
  const check = (password: string) => async (): Promise<string> => {
    checked.push(password);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (password !== RIGHT) throw new AppError(ErrorCode.WrongPassword, 'Wrong password.');
    return 'opened';
  };
  return { checked, check };
};

const outcome = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : 'thrown';
  }
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-attempts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const counterFile = () => join(dir, 'wallet', 'unlock-attempts.json');

describe('unlock attempts', () => {
  it('are free five times, then double from 1 s up to 30 s', () => {
    expect([0, 1, 4, 5, 6, 7, 9, 10, 50].map(delayAfter)).toEqual([
      0, 0, 0, 1000, 2000, 4000, 16000, 30000, 30000,
    ]);
  });

  it('20 wrong passwords at once: exactly the five free ones are checked', async () => {
    const attempts = new UnlockAttempts(dir);
    const { checked, check } = checker();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => outcome(attempts.guard(check(`wrong ${i}`)))),
    );
    expect(checked).toHaveLength(FREE_ATTEMPTS);
    expect(results.filter((r) => r === ErrorCode.WrongPassword)).toHaveLength(FREE_ATTEMPTS);
    expect(results.filter((r) => r === ErrorCode.TooManyAttempts)).toHaveLength(15);
    expect(JSON.parse(await readFile(counterFile(), 'utf8'))).toMatchObject({ failures: 5 });
  });

  it('11 wrong and the right one at once do not open beyond the schedule', async () => {
    const attempts = new UnlockAttempts(dir);
    const { checked, check } = checker();
    const passwords = [...Array.from({ length: 11 }, (_, i) => `wrong ${i}`), RIGHT];
    const results = await Promise.all(passwords.map((p) => outcome(attempts.guard(check(p)))));
    expect(checked).toHaveLength(FREE_ATTEMPTS);
    expect(checked).not.toContain(RIGHT);
    expect(results.at(-1)).toBe(ErrorCode.TooManyAttempts);
  });

  it('one queue per counter file, whatever the number of instances', async () => {
    const a = new UnlockAttempts(dir);
    const b = new UnlockAttempts(dir);
    const { checked, check } = checker();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => outcome((i % 2 ? a : b).guard(check(`wrong ${i}`)))),
    );
    expect(checked).toHaveLength(FREE_ATTEMPTS);
  });

  it('count the attempt on disk before the check runs (a crash during it leaves it counted)', async () => {
    const attempts = new UnlockAttempts(dir);
    let duringCheck: unknown;
    await attempts.guard(async () => {
      // What the file says, as a fresh start would read it if the app were killed right now.
      duringCheck = JSON.parse(await readFile(counterFile(), 'utf8'));
      return RIGHT;
    });
    expect(duringCheck).toMatchObject({ failures: 1 });
    expect(JSON.parse(await readFile(counterFile(), 'utf8'))).toMatchObject({ failures: 0 });
  });

  it('a right password clears the count; a failure that is not about the password gives the attempt back', async () => {
    const attempts = new UnlockAttempts(dir);
    const { check } = checker();
    for (let i = 0; i < 3; i++) await outcome(attempts.guard(check('wrong')));
    const locked = await outcome(
      attempts.guard(async () => {
        throw new AppError(ErrorCode.KeychainUnavailable, 'The keychain is locked.');
      }),
    );
    expect(locked).toBe(ErrorCode.KeychainUnavailable);
    expect(JSON.parse(await readFile(counterFile(), 'utf8'))).toMatchObject({ failures: 3 });
    await expect(attempts.guard(check('wrong'))).rejects.toThrow('1 more try before a wait');
    expect(await attempts.guard(check(RIGHT))).toBe('opened');
    expect(JSON.parse(await readFile(counterFile(), 'utf8'))).toMatchObject({ failures: 0 });
  });

  it('at start-up, remove what a write killed half-way left, and keep a damaged counter at the longest wait', async () => {
    await mkdir(join(dir, 'wallet'));
    const leftover = `${counterFile()}.0123456789abcdef.tmp`;
    await writeFile(leftover, '{"failures":');
    await writeFile(counterFile(), JSON.stringify({ failures: 7, lastFailureAt: 1_000_000 }));
    await new UnlockAttempts(dir).load();
    expect(await readdir(join(dir, 'wallet'))).toEqual(['unlock-attempts.json']);
    expect(JSON.parse(await readFile(counterFile(), 'utf8'))).toMatchObject({ failures: 7 });

    await writeFile(counterFile(), 'garbage');
    const now = 2_000_000;
    const attempts = new UnlockAttempts(dir, () => now);
    await attempts.load();
    expect(attempts.notice()).toMatch(/moved aside as unlock-attempts\.json\.damaged-/);
    expect(await new UnlockAttempts(dir, () => now).nextAttemptAt()).toBe(now + 30_000);
  });

  it('treat a damaged counter as the longest wait, move it aside and say so', async () => {
    await mkdir(join(dir, 'wallet'));
    await writeFile(counterFile(), 'garbage');
    const now = 1_000_000;
    const attempts = new UnlockAttempts(dir, () => now);
    expect(await attempts.nextAttemptAt()).toBe(now + 30_000);
    expect(attempts.notice()).toMatch(
      /unlock-attempts\.json.*moved aside as unlock-attempts\.json\.damaged-.*30 s/,
    );
    expect(attempts.notice()).not.toContain(dir);
    const names = await readdir(join(dir, 'wallet'));
    expect(names.filter((n) => n.includes('damaged'))).toHaveLength(1);
    // The longest wait is on disk: a restart does not reset it.
    expect(await new UnlockAttempts(dir, () => now).nextAttemptAt()).toBe(now + 30_000);
  });
});
