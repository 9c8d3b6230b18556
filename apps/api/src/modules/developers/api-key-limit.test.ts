import { developersRoutes as r, ordersRoutes } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { signedInVendor } from '../../../test/factories/catalog.ts';
import { enrolTwoFactor } from '../../../test/factories/two-factor.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';

// ADR 057: each API key has its own per-minute budget (API_KEY_LIMIT_PER_MINUTE), counted per key,
// not per vendor or address; past it, 429 in the contract's shape with Retry-After.

const LIMIT = 3;
const t = useTestApp(() => startTestApp({ API_KEY_LIMIT_PER_MINUTE: String(LIMIT) }));

async function keysOf(n: number) {
  const v = await signedInVendor(t);
  const tf = await enrolTwoFactor(t, v.token);
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.call(r.createApiKey, {
      token: v.token,
      body: { name: `Key ${i}`, scopes: ['sales:read'], twoFactorCode: tf.nextCode() },
    });
    expect(res.statusCode, res.body).toBe(201);
    keys.push(res.json().secret as string);
  }
  return { vendor: v, keys };
}
const sales = (token: string, ip = '198.51.100.7') =>
  t.call(ordersRoutes.vendorSales, { token, ip });

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After past the key’s budget, and counts each key apart', async () => {
    const { vendor, keys } = await keysOf(2);
    const [first, second] = keys as [string, string];
    for (let i = 0; i < LIMIT; i++) expect((await sales(first)).statusCode).toBe(200);
    const over = await sales(first);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address changes nothing: the budget is the key's.
    expect((await sales(first, '203.0.113.9')).statusCode).toBe(429);

    // The vendor's other key, and the vendor's own session, have their own budgets.
    for (let i = 0; i < LIMIT; i++) expect((await sales(second)).statusCode).toBe(200);
    expect((await sales(vendor.token)).statusCode).toBe(200);
  });

  it('is not spent by wrong keys, which have a per-address limit of their own', async () => {
    const { keys } = await keysOf(1);
    const key = keys[0]!;
    const wrong = `${key.slice(0, -4)}zzzz`;
    for (let i = 0; i < LIMIT + 2; i++)
      expect((await sales(wrong, '192.0.2.44')).statusCode).toBe(401);
    for (let i = 0; i < LIMIT; i++) expect((await sales(key, '192.0.2.44')).statusCode).toBe(200);
    expect((await sales(key, '192.0.2.44')).statusCode).toBe(429);
  });
});
