import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * The minimum strength of a spending password. The password protects the keys if the keychain is
 * copied off the machine, so it must resist guessing even through scrypt: long, and not one of the
 * first things an attacker tries.
 */
export const MIN_PASSWORD_LENGTH = 12;

const COMMON = new Set([
  'password',
  'passw0rd',
  'qwerty',
  'letmein',
  'welcome',
  'cardano',
  'countersign',
  'iloveyou',
  'admin',
  'monkey',
  'dragon',
]);

/** Returns what is wrong with a new password, or null when it is strong enough. */
export const passwordWeakness = (password: string): string | null => {
  const chars = [...password];
  if (chars.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${chars.length}); a few unrelated words make a strong, memorable password.`;
  }
  if (new Set(chars).size < 5) {
    return 'Use more different characters: this password repeats the same few over and over.';
  }
  const lower = password.toLowerCase();
  const stripped = lower.replace(/[^a-z]/g, '');
  if (
    COMMON.has(stripped) ||
    [...COMMON].some((w) => lower.startsWith(w) && lower.length - w.length < 6)
  ) {
    return 'This password is built on a word attackers try first; choose something less common.';
  }
  if (/^(0123456789|1234567890|abcdefghij|qwertyuiop)/.test(lower)) {
    return 'This password is a keyboard or alphabet sequence; choose something less predictable.';
  }
  return null;
};

export const requireStrongPassword = (password: string): void => {
  const weakness = passwordWeakness(password);
  if (weakness)
    throw new AppError(ErrorCode.WeakPassword, `This spending password is too weak. ${weakness}`);
};
