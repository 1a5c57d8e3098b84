import { describe, expect, it } from 'vitest';
import { ErrorCode, SandboxError } from '../../../src-sandbox/errors.js';
import { PendingBuilds, type PendingSnapshot } from '../../../src-sandbox/pending-builds.js';

/**
 * What a snapshot keeps of submitted and conflicted transactions: refused again after a restart,
 * whichever form the snapshot has them in (the compact one written now, or the list of pairs
 * earlier versions wrote).
 */

const hash = (n: number) => n.toString(16).padStart(64, '0');
const LATER = 4_000_000_000_000;

const refusal = (pending: PendingBuilds, txId: string): number | undefined => {
  try {
    pending.find('order', 'account', txId, 0);
  } catch (error) {
    if (error instanceof SandboxError) return error.code;
    throw error;
  }
  return undefined;
};

const restored = (snapshot: unknown): PendingBuilds => {
  const pending = new PendingBuilds();
  pending.restore(JSON.parse(JSON.stringify(snapshot)) as PendingSnapshot);
  return pending;
};

describe('submitted transactions in a snapshot', () => {
  it('are refused again after a restart, in the compact form and in the older one', () => {
    const older = {
      builds: [],
      submitted: Array.from({ length: 50 }, (_, i) => [hash(i), LATER + i]),
      conflicted: [[hash(1000), LATER]],
      lastPrune: 5,
    };
    const first = restored(older);
    const again = restored(first.snapshot());
    for (const pending of [first, again]) {
      expect(refusal(pending, hash(0))).toBe(ErrorCode.alreadySubmitted);
      expect(refusal(pending, hash(49))).toBe(ErrorCode.alreadySubmitted);
      expect(refusal(pending, hash(1000))).toBe(ErrorCode.utxoSpent);
      expect(refusal(pending, hash(50))).toBe(ErrorCode.transactionNotFound);
    }
    const written = first.snapshot();
    expect(written.submitted).toEqual({
      ids: Array.from({ length: 50 }, (_, i) => hash(i)).join(''),
      expiresAt: Array.from({ length: 50 }, (_, i) => LATER + i),
    });
    // They are still forgotten an hour past their expiry.
    again.prune(LATER + 49 + 60 * 60_000 + 1);
    expect(refusal(again, hash(0))).toBe(ErrorCode.transactionNotFound);
  });

  it('keeps ids that are not transaction hashes as pairs, and refuses a compact form that does not add up', () => {
    const odd = restored({ builds: [], submitted: [['abc', LATER]], conflicted: [], lastPrune: 0 });
    expect(odd.snapshot().submitted).toEqual([['abc', LATER]]);
    expect(refusal(odd, 'abc')).toBe(ErrorCode.alreadySubmitted);
    expect(() =>
      restored({
        builds: [],
        submitted: { ids: hash(1).slice(1), expiresAt: [LATER] },
        conflicted: [],
        lastPrune: 0,
      }),
    ).toThrow(/not hashes/);
  });
});
