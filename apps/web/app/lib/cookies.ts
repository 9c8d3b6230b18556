import { REFERRAL_COOKIE, REFERRAL_WINDOW_DAYS, validateRefId } from '@tradeshelf/contract/client';
import type { VendorRoleResponse } from '@tradeshelf/contract';

/** docs/product.md#vendor-cookies: the vendor area's cookies. */
export const VENDOR_COOKIES = ['auth_token_vendor', 'access_token_expiry', 'user_details'] as const;

function cookie(name: string, value: string, expires: Date, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Expires=${expires.toUTCString()}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * docs/product.md#vendor-cookies: after becoming a vendor, the vendor token (`auth_token_vendor`), its expiry in ms since
 * the epoch (`access_token_expiry` = now + validity seconds × 1000) and the user details
 * (`user_details`, JSON of { email, token }) are written as cookies for the vendor area. Values are
 * URI-encoded; the cookies expire with the token.
 */
export function vendorCookieStrings(
  res: VendorRoleResponse,
  now: number,
  secure: boolean,
): string[] {
  const expiry = now + res.accessTokenValidity * 1000;
  const expires = new Date(expiry);
  return [
    cookie('auth_token_vendor', res.token, expires, secure),
    cookie('access_token_expiry', String(expiry), expires, secure),
    cookie(
      'user_details',
      JSON.stringify({ email: res.user.email, token: res.user.token }),
      expires,
      secure,
    ),
  ];
}

export function writeVendorCookies(res: VendorRoleResponse, now: number): void {
  if (typeof document === 'undefined') return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  for (const c of vendorCookieStrings(res, now, secure)) document.cookie = c;
}

export function clearVendorCookies(): void {
  if (typeof document === 'undefined') return;
  for (const name of VENDOR_COOKIES)
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}

/** The value of one cookie in a `document.cookie`-style string, or null. */
export function readCookie(cookieString: string, name: string): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/** A usable referral id (contract rule, non-empty), else null. */
export function validRefId(value: string | null | undefined): string | null {
  const refId = value?.trim();
  return refId && !validateRefId(refId) ? refId : null;
}

/**
 * docs/product.md#referral-cookie: the `referral_id` cookie, site-wide for REFERRAL_WINDOW_DAYS, SameSite=Lax. The page
 * script writes it and reads it back for the checkout body; the HTTP client never sends cookies.
 */
export function referralCookieString(
  refId: string,
  now: number,
  secure: boolean,
  days: number = REFERRAL_WINDOW_DAYS,
): string {
  const maxAge = days * 24 * 60 * 60;
  return `${cookie(REFERRAL_COOKIE, refId, new Date(now + maxAge * 1000), secure)}; Max-Age=${maxAge}`;
}

/**
 * `?ref=<refId>` on any page: remember the referral (the last click wins) for `days` (the link's
 * cookie window once the server said it). Returns what was stored.
 */
export function captureReferral(search: string, now: number, days?: number): string | null {
  if (typeof document === 'undefined') return null;
  const refId = validRefId(new URLSearchParams(search).get('ref'));
  if (!refId) return null;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  document.cookie = referralCookieString(refId, now, secure, days);
  return refId;
}

/** The remembered referral id, if any and still valid. */
export function readReferralId(): string | null {
  if (typeof document === 'undefined') return null;
  return validRefId(readCookie(document.cookie, REFERRAL_COOKIE));
}
