import { describe, expect, it } from 'vitest';
import { passwordWeakness, ratePassword } from '../../../src-shared/password';

describe('the spending password rule', () => {
  it('refuses short, repetitive, common and sequential passwords, saying why', () => {
    expect(passwordWeakness('abc')).toContain('at least 12 characters (this one has 3)');
    expect(passwordWeakness('aaaabbbbaaaabbbb')).toContain('more different characters');
    expect(passwordWeakness('Password12345')).toContain('attackers try first');
    expect(passwordWeakness('1234567890abc')).toContain('sequence');
    expect(passwordWeakness('correct horse battery')).toBeNull();
  });

  it('rates what it accepts, from fair to strong, and never rates a refused one above "too weak"', () => {
    expect(ratePassword('')).toMatchObject({ score: 0 });
    expect(ratePassword('Password12345')).toMatchObject({ score: 1, label: 'Too weak' });
    expect(ratePassword('tangerinebox')).toMatchObject({ score: 2, label: 'Fair' });
    expect(ratePassword('tangerine boxes')).toMatchObject({ score: 3, label: 'Good' });
    expect(ratePassword('correct horse battery staple')).toMatchObject({
      score: 4,
      label: 'Strong',
    });
  });
});
