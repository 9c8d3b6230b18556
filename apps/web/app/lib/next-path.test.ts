import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNext } from './next-path.ts';

describe('safeNext (where a login goes next)', () => {
  it('keeps paths of this site, with their query and fragment', () => {
    for (const path of [
      '/',
      '/orders',
      '/p/prd_1/macd?checkout=cancelled&ref=x',
      '/library#courses',
      '/search?q=a%2Fb',
      '/discord-auth-callback?code=1&state=2',
    ])
      expect(safeNext(path)).toBe(path);
  });

  it('sends anything else to the default page', () => {
    for (const next of [
      null,
      undefined,
      '',
      'orders',
      'https://evil.example/x',
      'javascript:alert(1)',
      '//evil.example/x',
      // Issue 26: `/\host` is `//host` to a browser; the login page hung on its navigation error.
      '/\\evil.example/x',
      '\\/evil.example/x',
      '/x\\y',
      '/\t/evil.example/x',
      '/\n/evil.example',
      '/\u0000x',
      '/x\u007f',
      `/${'a'.repeat(2048)}`,
      // The outside probe: these resolve on-site to `//host/x`, which a prefetch link fetched.
      '/..//127.0.0.2:3319/x',
      '/..//evil.example',
      '/./..//evil.example/x?y=1',
    ])
      expect(safeNext(next), JSON.stringify(next)).toBe(DEFAULT_NEXT);
  });

  it('answers the resolved path, so dot segments cannot come back as a host', () => {
    expect(safeNext('/a/../orders')).toBe('/orders');
    expect(safeNext('/search?q=rsi discord')).toBe('/search?q=rsi%20discord');
  });
});
