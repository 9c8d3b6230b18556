import type { VendorRoleResponse } from '@tradeshelf/contract';

/** SPEC §9: the vendor area's cookies. */
export const VENDOR_COOKIES = ['auth_token_vendor', 'access_token_expiry', 'user_details'] as const;

function cookie(name: string, value: string, expires: Date, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Expires=${expires.toUTCString()}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * SPEC §6: after becoming a vendor, the vendor token (`auth_token_vendor`), its expiry in ms since
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
