import { describe, expect, it } from 'vitest';
import {
  passwordWeakness,
  requireStrongPassword,
} from '../../../../src-main/wallet/password-rules';

describe('spending password rules', () => {
  it.each([
    ['short', 'at least 12 characters (this one has 5)'],
    ['aaaaaaaaaaaaaaaa', 'more different characters'],
    ['Password123!', 'attackers try first'],
    ['1234567890abc', 'sequence'],
  ])('refuses %s with a useful message', (password, message) => {
    expect(passwordWeakness(password)).toContain(message);
    expect(() => requireStrongPassword(password)).toThrow(/too weak/);
  });

  it('accepts a passphrase of unrelated words', () => {
    expect(passwordWeakness('violet tractor sunrise')).toBeNull();
    expect(() => requireStrongPassword('violet tractor sunrise')).not.toThrow();
  });
});
