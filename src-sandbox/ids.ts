import { createHash } from 'node:crypto';

/**
 * Deterministic ids: each is a hash of the data folder's salt and a counter, so replaying the
 * journal hands out exactly the ids the sandbox handed out before.
 */
export class IdSequence {
  private readonly prefix: string;

  constructor(
    private readonly salt: string,
    public counter = 0,
  ) {
    const b = createHash('sha256').update(`uuid:${salt}`).digest();
    b[6] = ((b[6] as number) & 0x0f) | 0x40;
    b[8] = ((b[8] as number) & 0x3f) | 0x80;
    const h = b.toString('hex', 0, 10);
    this.prefix = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-`;
  }

  /** A UUID (version 4 layout): the data folder's prefix and a 48-bit counter. */
  uuid(): string {
    return this.prefix + (this.counter++).toString(16).padStart(12, '0');
  }

  /** An id as a snapshot stores it: this folder's UUIDs as their counter, anything else as is. */
  compact(id: string): number | string {
    if (id.length === 36 && id.startsWith(this.prefix)) {
      const n = Number.parseInt(id.slice(24), 16);
      if (Number.isSafeInteger(n) && n.toString(16).padStart(12, '0') === id.slice(24)) return n;
    }
    return id;
  }

  /** The id `compact` was given back. */
  expand(stored: number | string): string {
    return typeof stored === 'number'
      ? this.prefix + stored.toString(16).padStart(12, '0')
      : stored;
  }

  /** 32 bytes of hex, for synthetic transaction hashes. */
  hash(): string {
    return createHash('sha256').update(`${this.salt}:${this.counter++}`).digest('hex');
  }
}

/** mulberry32: a small seeded generator for the market maker's random walk. */
export function nextRandom(state: { seed: number }): number {
  state.seed = (state.seed + 0x6d2b79f5) | 0;
  let t = state.seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
