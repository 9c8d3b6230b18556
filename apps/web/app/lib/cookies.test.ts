import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  captureReferral,
  readCookie,
  readReferralId,
  referralCookieString,
  validRefId,
  vendorCookieStrings,
} from './cookies.ts';

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

describe('vendor cookies (docs/product.md#vendor-cookies)', () => {
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

describe('referral cookie (docs/product.md#referral-cookie: referral_id)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lasts 30 days, site-wide, SameSite=Lax, Secure only over https', () => {
    const c = parse(referralCookieString('demo-affiliate', T0, false));
    expect(c).toMatchObject({ name: 'referral_id', value: 'demo-affiliate' });
    expect(c.attrs).toEqual(
      expect.arrayContaining([
        'Path=/',
        'SameSite=Lax',
        `Expires=${new Date(T0 + 30 * 86_400_000).toUTCString()}`,
        `Max-Age=${30 * 86_400}`,
      ]),
    );
    expect(c.attrs).not.toContain('Secure');
    expect(parse(referralCookieString('x', T0, true)).attrs).toContain('Secure');
  });

  it('reads one cookie out of a cookie string', () => {
    const jar = 'a=1; referral_id=demo-affiliate; referral_id_old=zzz; b=%7B%7D';
    expect(readCookie(jar, 'referral_id')).toBe('demo-affiliate');
    expect(readCookie(jar, 'b')).toBe('{}');
    expect(readCookie(jar, 'missing')).toBeNull();
    expect(readCookie('', 'a')).toBeNull();
    expect(readCookie('bad=%E0%A4%A', 'bad')).toBeNull();
  });

  it('accepts only referral ids the contract allows', () => {
    expect(validRefId('demo-affiliate')).toBe('demo-affiliate');
    expect(validRefId(' ref_1 ')).toBe('ref_1');
    for (const bad of ['', null, undefined, 'has space', 'a;b', 'x'.repeat(65), '<script>'])
      expect(validRefId(bad)).toBeNull();
  });

  it('?ref= stores the cookie (last click wins); a bad or missing ref leaves it alone', () => {
    const jar = { cookie: '' };
    vi.stubGlobal('document', jar);
    expect(captureReferral('?q=rsi', T0)).toBeNull();
    expect(jar.cookie).toBe('');
    expect(captureReferral('?ref=first', T0)).toBe('first');
    expect(captureReferral('?ref=demo-affiliate', T0)).toBe('demo-affiliate');
    expect(parse(jar.cookie)).toMatchObject({ name: 'referral_id', value: 'demo-affiliate' });
    expect(captureReferral('?ref=not%20valid', T0)).toBeNull();
    expect(parse(jar.cookie).value).toBe('demo-affiliate');
    jar.cookie = 'referral_id=demo-affiliate';
    expect(readReferralId()).toBe('demo-affiliate');
    jar.cookie = 'referral_id=bad%20id';
    expect(readReferralId()).toBeNull();
  });
});
