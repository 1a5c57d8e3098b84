import { describe, expect, it } from 'vitest';
import { OperationsService, type Built } from '../../../../../src-main/app/operations/service';
import { silentLogger } from '../../../../../src-main/log';
import type { OperationProgress } from '../../../../../src-shared/contract';

/**
 * Prepared operations wait for the trader's answer in main. One prepared a moment ago must still
 * be there when its confirmation arrives, however many others were prepared meanwhile (a burst
 * of orders, a script); what is dropped is what can no longer be confirmed (expired), or past a
 * generous limit the oldest.
 */
const MINUTE = 60_000;

const world = () => {
  let clock = Date.parse('2026-11-28T00:00:00Z');
  const events: OperationProgress[] = [];
  const operations = new OperationsService({
    network: {} as never,
    signer: {} as never,
    journal: {} as never,
    emit: (name, payload) => {
      if (name === 'operations:progress') events.push(payload as OperationProgress);
    },
    logger: silentLogger,
    apiKey: () => 'key',
    saveFile: async () => null,
    now: () => clock,
  });
  let n = 0;
  const prepare = (ttlMs = 10 * MINUTE): string => {
    const id = crypto.randomUUID();
    n += 1;
    operations.register({ id }, {
      kind: 'place-order',
      title: `Order ${n}`,
      txHex: '84a400',
      summary: {},
      report: { differences: [], warnings: [] },
      offline: false,
      orderId: null,
      cancelsOrderId: null,
      expiresAt: clock + ttlMs,
    } as unknown as Built);
    return id;
  };
  /** Whether the operation still waits: discarding a waiting one reports it discarded. */
  const waiting = (id: string): boolean => {
    operations.discard(id);
    return events.some((e) => e.operationId === id && e.step === 'discarded');
  };
  return { prepare, waiting, advance: (ms: number) => (clock += ms) };
};

describe('operations waiting for the trader', () => {
  it('keeps one just prepared while a burst of 60 others is prepared', () => {
    const w = world();
    const first = w.prepare();
    const burst = Array.from({ length: 60 }, () => w.prepare());
    expect(w.waiting(first)).toBe(true);
    expect(burst.every((id) => w.waiting(id))).toBe(true);
  });

  it('drops what has expired once another is prepared', () => {
    const w = world();
    const short = w.prepare(MINUTE);
    const long = w.prepare(3 * 60 * MINUTE);
    w.advance(2 * MINUTE);
    w.prepare();
    expect(w.waiting(short)).toBe(false);
    expect(w.waiting(long)).toBe(true);
  });

  it('past 100 waiting, drops the oldest', () => {
    const w = world();
    const ids = Array.from({ length: 101 }, () => w.prepare());
    expect(w.waiting(ids[0] ?? '')).toBe(false);
    expect(w.waiting(ids[1] ?? '')).toBe(true);
    expect(w.waiting(ids[100] ?? '')).toBe(true);
  });
});
