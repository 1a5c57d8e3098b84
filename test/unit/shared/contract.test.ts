import { describe, expect, it } from 'vitest';
import { channels, contract, eventNames, findOperation } from '../../../src-shared/contract';

describe('the IPC contract', () => {
  it('names every channel area:method, once', () => {
    const names = channels.map((c) => c.channel);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+:[a-z][a-zA-Z]*$/);
  });

  it('gives every operation a request schema that rejects unknown shapes', () => {
    for (const { area, method } of channels) {
      const op = findOperation(`${area}:${method}`);
      expect(op, `${area}:${method}`).toBeDefined();
      expect(op?.request.safeParse(Symbol('x')).success).toBe(false);
    }
  });

  it('does not resolve inherited properties as operations', () => {
    expect(findOperation('app:toString')).toBeUndefined();
    expect(findOperation('toString:app')).toBeUndefined();
    expect(findOperation('__proto__:info')).toBeUndefined();
  });

  it('names every event area:event', () => {
    for (const name of eventNames) expect(name).toMatch(/^[a-z]+:[a-z][a-zA-Z]*$/);
    expect(Object.keys(contract)).toContain('app');
  });
});
