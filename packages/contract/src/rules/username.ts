/** The username rule (docs/product.md#username), shared by the form and the server; reserved names too (ADR 052). */
import { isReservedName } from './reserved-names.ts';

export const USERNAME_MIN = 4;
export const USERNAME_MAX = 15;

export const usernameMessages = {
  length: 'Username must be between 4 and 15 characters long.',
  consecutiveUnderscores: 'Username cannot contain consecutive underscores.',
  invalid: 'Invalid username. Use letters, numbers, or underscores.',
  /** Not one of the original three cases: names that pass for the platform's staff (ADR 052). */
  reserved: 'That username is reserved: it could be mistaken for Tradeshelf staff. Choose another.',
} as const;

/** Returns the §5 message for a bad username, or null when it is valid. */
export function validateUsername(username: string): string | null {
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    return usernameMessages.length;
  }
  if (username.includes('__')) return usernameMessages.consecutiveUnderscores;
  if (!/^[A-Za-z0-9_]+$/.test(username)) return usernameMessages.invalid;
  if (isReservedName(username)) return usernameMessages.reserved;
  return null;
}
