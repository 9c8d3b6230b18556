import { describe, expect, it } from 'vitest';
import { bundlePath, coursePath, formatMoney, productPath, storefrontPath } from './format.ts';

describe('the one money formatter', () => {
  it('writes minor units in each style', () => {
    expect(formatMoney(5000, 'usd')).toBe('$50.00');
    expect(formatMoney(1250, 'eur')).toBe('€12.50');
    expect(formatMoney(5000, 'usd', 'short')).toBe('$50');
    expect(formatMoney(1250, 'usd', 'short')).toBe('$12.50');
    expect(formatMoney(4900, 'usd', 'code')).toBe('49.00 USD');
    expect(formatMoney(-300, 'usd')).toBe('-$3.00');
  });
});

describe('public paths', () => {
  it('escape each part', () => {
    expect(productPath({ id: 'prd_1', slug: 'rsi pro' })).toBe('/p/prd_1/rsi%20pro');
    expect(bundlePath({ id: 'bnd_1', slug: 'kit' })).toBe('/b/bnd_1/kit');
    expect(storefrontPath('alpha/edge')).toBe('/v/alpha%2Fedge');
    expect(coursePath('prd_2')).toBe('/courses/prd_2');
  });
});
