import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  checkRecoveryPhrase,
  entropyToWords,
  newRecoveryPhrase,
  pickWordsToConfirm,
  recoveryPhraseEntropy,
} from '../../../../src-main/wallet/mnemonic';

const VECTOR =
  'excess behave track soul table wear ocean cash stay nature item turtle palm soccer lunch horror start stumble month panic right must lock dress';

const errorOf = (fn: () => unknown): { code: string; message: string } => {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a failure');
};

describe('recovery phrase', () => {
  it('creates 24 valid words that round-trip through their entropy', () => {
    const words = newRecoveryPhrase();
    expect(words).toHaveLength(24);
    expect(checkRecoveryPhrase(words)).toEqual(words);
    expect(entropyToWords(recoveryPhraseEntropy(words))).toEqual(words);
    expect(newRecoveryPhrase()).not.toEqual(words);
  });

  it('accepts 12, 15 and 24 words, whatever the spacing and case', () => {
    for (const bytes of [16, 20, 32]) {
      const words = entropyToWords(Buffer.alloc(bytes, 7));
      expect(checkRecoveryPhrase(`  ${words.join('   ').toUpperCase()}\n`)).toEqual(words);
    }
    expect(recoveryPhraseEntropy(VECTOR.split(' ')).length).toBe(32);
  });

  it('names a wrong word count', () => {
    const error = errorOf(() => checkRecoveryPhrase(VECTOR.split(' ').slice(0, 23)));
    expect(error.code).toBe(ErrorCode.InvalidMnemonic);
    expect(error.message).toContain('this one has 23');
  });

  it('names the position and spelling of a word not in the list', () => {
    const words = VECTOR.split(' ');
    words[6] = 'oceen';
    const error = errorOf(() => checkRecoveryPhrase(words));
    expect(error.code).toBe(ErrorCode.InvalidMnemonic);
    expect(error.message).toContain('Word 7 is not');
    expect(error.message).not.toContain('oceen');
  });

  it('names a checksum failure when every word is valid', () => {
    const words = VECTOR.split(' ');
    [words[0], words[1]] = [words[1] ?? '', words[0] ?? ''];
    const error = errorOf(() => checkRecoveryPhrase(words));
    expect(error.code).toBe(ErrorCode.InvalidMnemonic);
    expect(error.message).toContain('checksum');
  });

  it('picks distinct ascending positions to confirm', () => {
    for (let i = 0; i < 50; i++) {
      const picked = pickWordsToConfirm(24, 3);
      expect(picked).toHaveLength(3);
      expect(new Set(picked).size).toBe(3);
      expect([...picked].sort((a, b) => a - b)).toEqual(picked);
      expect(Math.min(...picked)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...picked)).toBeLessThanOrEqual(24);
    }
  });
});
