/**
 * Small pieces every part of a snapshot uses: exact integers in JSON and amounts by unit. A
 * snapshot is the sandbox's own file, checked by its hash before it is read; these checks catch
 * what a hash cannot (a snapshot written by a different layout).
 */

/** An exact integer in JSON: a number while it is safe, else its decimal string. */
export type Big = number | string;

export class SnapshotError extends Error {
  constructor(what: string) {
    super(`snapshot: ${what}`);
    this.name = 'SnapshotError';
  }
}

export function big(value: bigint): Big {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

export function unbig(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) return BigInt(value);
  throw new SnapshotError(`expected an integer, found ${typeof value}`);
}

export function int(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new SnapshotError(`expected a number, found ${typeof value}`);
}

export function str(value: unknown): string {
  if (typeof value === 'string') return value;
  throw new SnapshotError(`expected a string, found ${typeof value}`);
}

export function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw new SnapshotError(`expected a list, found ${typeof value}`);
}

/** Amounts by unit as `[[unit, quantity]…]`. */
export type AmountRows = [string, Big][];

export function amountRows(amounts: ReadonlyMap<string, bigint>): AmountRows {
  return [...amounts].map(([unit, q]) => [unit, big(q)]);
}

export function amountMap(rows: unknown): Map<string, bigint> {
  return new Map(
    list(rows).map((row) => {
      const [unit, q] = list(row);
      return [str(unit), unbig(q)];
    }),
  );
}
