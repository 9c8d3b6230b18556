/** Coupon codes: letters, digits, dashes and underscores; matched case-insensitively. */
export const COUPON_CODE_MAX = 32;
export const couponCodePattern = /^[A-Za-z0-9_-]+$/;

export const couponMessages = {
  empty: 'Enter a coupon code.',
  tooLong: `Coupon codes are at most ${COUPON_CODE_MAX} characters.`,
  characters: 'Coupon codes use only letters, digits, dashes and underscores.',
} as const;

/** Returns a message for a malformed coupon code (give it trimmed), or null when it is well formed. */
export function validateCouponCode(code: string): string | null {
  if (code.length < 1) return couponMessages.empty;
  if (code.length > COUPON_CODE_MAX) return couponMessages.tooLong;
  if (!couponCodePattern.test(code)) return couponMessages.characters;
  return null;
}
