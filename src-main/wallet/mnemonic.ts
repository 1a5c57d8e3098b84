import { entropyToMnemonic, generateMnemonic, mnemonicToEntropy, wordlists } from 'bip39';
import { randomInt } from 'node:crypto';
import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * The recovery phrase: BIP-39 English words. A new wallet gets 24 words; a restored one may have
 * 12, 15 or 24. Every problem with a typed phrase is named precisely, so the trader knows which
 * word to look at.
 */
export const RESTORABLE_WORD_COUNTS = [12, 15, 24] as const;
export const NEW_WALLET_WORD_COUNT = 24;

const ENGLISH = wordlists['english'] ?? [];
const ENGLISH_SET = new Set(ENGLISH);

/** Splits what the trader typed into lower-case words, whatever the spacing. */
export const splitWords = (phrase: string | readonly string[]): string[] =>
  (typeof phrase === 'string' ? phrase.split(/\s+/) : phrase.flatMap((w) => w.split(/\s+/)))
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w.length > 0);

const invalid = (message: string): AppError => new AppError(ErrorCode.InvalidMnemonic, message);

/**
 * Checks a recovery phrase and returns its words. Throws `INVALID_MNEMONIC` naming the problem:
 * the word count, the first word not in the list (with its position), or the checksum.
 */
export const checkRecoveryPhrase = (phrase: string | readonly string[]): string[] => {
  const words = splitWords(phrase);
  if (!(RESTORABLE_WORD_COUNTS as readonly number[]).includes(words.length)) {
    throw invalid(
      `A recovery phrase has 12, 15 or 24 words; this one has ${words.length}. ` +
        'Check that no word is missing or doubled.',
    );
  }
  const unknown = words.findIndex((w) => !ENGLISH_SET.has(w));
  if (unknown >= 0) {
    throw invalid(
      `Word ${unknown + 1} is not a recovery-phrase word. ` +
        'Check its spelling against your written copy.',
    );
  }
  try {
    mnemonicToEntropy(words.join(' '), ENGLISH);
  } catch {
    throw invalid(
      'Every word is valid, but the phrase does not add up (its checksum is wrong): ' +
        'two words are probably swapped or one was copied wrongly. Compare it with your written copy.',
    );
  }
  return words;
};

/** Entropy of a checked phrase: the secret the wallet's keys are derived from. */
export const recoveryPhraseEntropy = (words: readonly string[]): Buffer =>
  Buffer.from(mnemonicToEntropy(checkRecoveryPhrase(words).join(' '), ENGLISH), 'hex');

export const entropyToWords = (entropy: Uint8Array): string[] =>
  entropyToMnemonic(Buffer.from(entropy), ENGLISH).split(' ');

/** A fresh 24-word phrase from the OS's random source. */
export const newRecoveryPhrase = (): string[] =>
  generateMnemonic(256, undefined, ENGLISH).split(' ');

/** Which positions (1-based, ascending) the trader must re-type to prove they wrote it down. */
export const pickWordsToConfirm = (wordCount: number, howMany = 3): number[] => {
  const picked = new Set<number>();
  while (picked.size < Math.min(howMany, wordCount)) picked.add(randomInt(1, wordCount + 1));
  return [...picked].sort((a, b) => a - b);
};
