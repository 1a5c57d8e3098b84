import { AppError, ErrorCode } from '../../src-shared/errors';
import { passwordWeakness } from '../../src-shared/password';

/**
 * The spending password's rules are one piece of code: the onboarding form shows them as the
 * trader types, and main refuses a password that breaks them (`src-shared/password.ts`).
 */
export { MIN_PASSWORD_LENGTH, passwordWeakness } from '../../src-shared/password';

export const requireStrongPassword = (password: string): void => {
  const weakness = passwordWeakness(password);
  if (weakness)
    throw new AppError(ErrorCode.WeakPassword, `This spending password is too weak. ${weakness}`);
};
