/**
 * How strong a new spending password is. The renderer shows it as the trader types; main refuses
 * a password this finds too weak (`passwordWeakness` is the same rule main applies). The password
 * protects the keys if the keychain is copied off the machine, so it must resist guessing even
 * through scrypt: long, and not one of the first things an attacker tries.
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

export type PasswordStrength = 0 | 1 | 2 | 3 | 4;

export interface PasswordRating {
  /** 0: empty, 1: refused (too weak), 2: fair, 3: good, 4: strong. */
  score: PasswordStrength;
  label: string;
  /** Why it is refused, or how to make it stronger; null when nothing to add. */
  advice: string | null;
}

/** A rough guess at the bits an attacker must guess: length times the alphabet it draws from. */
const estimatedBits = (password: string): number => {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/\s/.test(password)) pool += 1;
  if (/[^a-zA-Z\d\s]/.test(password)) pool += 33;
  const distinct = new Set(password).size;
  // Repeats add little: count at most twice the distinct characters.
  const length = Math.min([...password].length, distinct * 2);
  return length * Math.log2(Math.max(pool, 2));
};

export const ratePassword = (password: string): PasswordRating => {
  if (password.length === 0) return { score: 0, label: 'Empty', advice: null };
  const weakness = passwordWeakness(password);
  if (weakness) return { score: 1, label: 'Too weak', advice: weakness };
  const bits = estimatedBits(password);
  if (bits < 60) {
    return {
      score: 2,
      label: 'Fair',
      advice: 'Accepted. A few more characters or another word would make it much stronger.',
    };
  }
  if (bits < 80) return { score: 3, label: 'Good', advice: null };
  return { score: 4, label: 'Strong', advice: null };
};
