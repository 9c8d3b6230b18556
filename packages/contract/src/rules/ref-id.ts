/** Referral ids as the `referral_id` cookie and the checkout body carry them. */
export const REF_ID_MAX = 64;
export const refIdPattern = /^[A-Za-z0-9_-]*$/;

export const refIdMessages = {
  tooLong: `Referral ids are at most ${REF_ID_MAX} characters.`,
  characters: 'Referral ids use only letters, digits, dashes and underscores.',
} as const;

/** Returns a message for a malformed referral id (give it trimmed), or null when it is well formed. */
export function validateRefId(refId: string): string | null {
  if (refId.length > REF_ID_MAX) return refIdMessages.tooLong;
  if (!refIdPattern.test(refId)) return refIdMessages.characters;
  return null;
}
