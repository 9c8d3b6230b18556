import { describe, expect, it } from 'vitest';
import { vendorCookieStrings } from './cookies.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const res = {
  token: 'vendor.jwt.token',
  accessTokenValidity: 900,
  user: {
    email: 'v@example.com',
    token: 'vendor.jwt.token',
    roles: ['buyer' as const, 'vendor' as const],
  },
};

const parse = (c: string) => {
  const [pair, ...attrs] = c.split('; ');
  const [name, value] = pair!.split('=');
  return { name, value: decodeURIComponent(value!), attrs };
};

describe('vendor cookies (SPEC §6, §9)', () => {
  it('writes the token, its expiry in ms and the user details', () => {
    const [token, expiry, details] = vendorCookieStrings(res, T0, false).map(parse);
    expect(token).toMatchObject({ name: 'auth_token_vendor', value: 'vendor.jwt.token' });
    expect(expiry).toMatchObject({ name: 'access_token_expiry', value: String(T0 + 900_000) });
    expect(details!.name).toBe('user_details');
    expect(JSON.parse(details!.value)).toEqual({
      email: 'v@example.com',
      token: 'vendor.jwt.token',
    });
  });

  it('is site-wide, SameSite=Lax, expires with the token, Secure only over https', () => {
    const plain = vendorCookieStrings(res, T0, false).map(parse);
    for (const c of plain) {
      expect(c.attrs).toContain('Path=/');
      expect(c.attrs).toContain('SameSite=Lax');
      expect(c.attrs).toContain(`Expires=${new Date(T0 + 900_000).toUTCString()}`);
      expect(c.attrs).not.toContain('Secure');
    }
    for (const c of vendorCookieStrings(res, T0, true).map(parse))
      expect(c.attrs).toContain('Secure');
  });

  it('encodes values so JSON cannot break the cookie', () => {
    const raw = vendorCookieStrings(res, T0, false)[2]!;
    expect(raw.split('; ')[0]).not.toMatch(/[{}";,\s]/);
  });
});
