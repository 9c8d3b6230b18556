import { commonPasswords } from './common-passwords.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const passwordMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters long.`,
  tooLong: `Password must be at most ${PASSWORD_MAX} characters long.`,
  common: 'This password is too common. Choose one that is harder to guess.',
} as const;

const common = new Set(commonPasswords);

/** Returns a message for a password that may not be used, or null when it is acceptable. */
export function validateNewPassword(password: string): string | null {
  if (password.length < PASSWORD_MIN) return passwordMessages.tooShort;
  if (password.length > PASSWORD_MAX) return passwordMessages.tooLong;
  if (common.has(password.toLowerCase())) return passwordMessages.common;
  return null;
}
