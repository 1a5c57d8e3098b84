import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { delayAfter, UnlockAttempts } from '../../../../src-main/wallet';

describe('unlock attempts', () => {
  it('are free five times, then double from 1 s up to 30 s', () => {
    expect([0, 1, 4, 5, 6, 7, 9, 10, 50].map(delayAfter)).toEqual([
      0, 0, 0, 1000, 2000, 4000, 16000, 30000, 30000,
    ]);
  });

  it('treat a damaged counter file as the longest wait, not as a reset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'countersign-attempts-'));
    await mkdir(join(dir, 'wallet'));
    await writeFile(join(dir, 'wallet', 'unlock-attempts.json'), 'garbage');
    const now = 1_000_000;
    const attempts = new UnlockAttempts(dir, () => now);
    expect(await attempts.nextAttemptAt()).toBe(now + 30_000);
    await rm(dir, { recursive: true });
  });
});
