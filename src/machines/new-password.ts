import { passwordProblem } from '../contract/accounts';

/** A password chosen twice (sign-up, change, reset), and what is wrong with it, as translation keys. */
export type NewPasswordProblems = { password?: string; confirm?: string };

/**
 * The contract's rule for a new password (the server applies the same), then the second typing:
 * a key such as `password.tooShort`, or `password.mismatch` when the two differ.
 */
export const newPasswordProblems = (password: string, confirm: string, username?: string): NewPasswordProblems => {
  const problem = passwordProblem(password, username);
  if (problem) return { password: problem };
  return confirm === password ? {} : { confirm: 'password.mismatch' };
};
