import { describe, expect, it } from 'vitest';
import {
  bundleMissingToPublish,
  bundlePublishBlockedMessage,
  bundleSaving,
  vendorBundleInput,
  vendorBundleMessages as m,
  vendorBundleProblems,
  type VendorBundleDraft,
} from './vendor-bundles.ts';

const valid: VendorBundleDraft = {
  title: 'Momentum kit',
  summary: 'Three tools, one price.',
  description: '## Inside\n\n- Ribbon\n- Alerts',
  productIds: ['prd_a', 'prd_b'],
  price: { amount: 9900, currency: 'usd' },
};

/** The server's field messages for a draft (zod), keyed as the API answers them. */
function serverProblems(draft: unknown): Record<string, string> {
  const parsed = vendorBundleInput.safeParse(draft);
  if (parsed.success) return {};
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

const cases: Array<[string, Partial<VendorBundleDraft>]> = [
  ['valid', {}],
  ['valid without a price (a draft)', { price: null }],
  ['long title', { title: 'x'.repeat(121) }],
  ['control character', { title: 'a\u0007b' }],
  ['long summary', { summary: 's'.repeat(301) }],
  ['line break in the summary', { summary: 'one\ntwo' }],
  ['long description', { description: 'd'.repeat(20_001) }],
  ['one product', { productIds: ['prd_a'] }],
  ['no product', { productIds: [] }],
  ['a product twice', { productIds: ['prd_a', 'prd_a'] }],
  ['too many products', { productIds: Array.from({ length: 21 }, (_, i) => `prd_${i}`) }],
  ['negative price', { price: { amount: -5, currency: 'usd' } }],
  ['fractional price', { price: { amount: 99.5, currency: 'usd' } }],
  ['too dear', { price: { amount: 10_000_001, currency: 'usd' } }],
  ['unknown currency', { price: { amount: 900, currency: 'jpy' } }],
];

describe('vendor bundle checks: the browser and the server agree', () => {
  it.each(cases)('%s', (name, change) => {
    const draft = { ...valid, ...change };
    const browser = vendorBundleProblems(draft);
    expect(browser).toEqual(serverProblems(draft));
    if (!name.startsWith('valid')) expect(Object.keys(browser).length).toBeGreaterThan(0);
  });

  it('names the product rules in the editor’s words', () => {
    expect(vendorBundleProblems({ ...valid, productIds: ['prd_a'] })).toEqual({
      productIds: m.productsMin,
    });
    expect(vendorBundleProblems({ ...valid, productIds: ['prd_a', 'prd_a'] })).toEqual({
      productIds: m.productsUnique,
    });
  });
});

describe('publishing a bundle', () => {
  it('needs a title, a summary, a price and two published products, said in words', () => {
    const missing = bundleMissingToPublish({
      title: ' ',
      summary: 'ok',
      price: null,
      publishedProducts: 1,
    });
    expect(missing).toEqual({
      title: m.titleRequired,
      price: m.priceRequired,
      productIds: m.publishedProducts,
    });
    expect(bundlePublishBlockedMessage(Object.keys(missing) as Array<keyof typeof missing>)).toBe(
      `Add a title and a price before publishing. ${m.publishedProducts}`,
    );
    expect(bundlePublishBlockedMessage(['productIds'])).toBe(m.publishedProducts);
    expect(
      bundleMissingToPublish({ title: 'T', summary: 'S', price: {}, publishedProducts: 2 }),
    ).toEqual({});
  });
});

describe('the saving', () => {
  const item = (amount: number, status: 'published' | 'draft' = 'published', currency = 'usd') => ({
    status,
    price: { amount, currency },
  });

  it('counts the published products against the price', () => {
    expect(bundleSaving({ amount: 6000, currency: 'usd' }, [item(4900), item(2900)])).toEqual({
      value: 7800,
      amount: 1800,
      percent: 23,
    });
    // A draft is not in what buyers get, so not in the value either.
    expect(
      bundleSaving({ amount: 6000, currency: 'usd' }, [item(4900), item(2900), item(9900, 'draft')])
        ?.value,
    ).toBe(7800);
    // Dearer than its products: a negative saving the editor warns about.
    expect(bundleSaving({ amount: 9000, currency: 'usd' }, [item(4900), item(2900)])?.amount).toBe(
      -1200,
    );
  });

  it('says nothing when it cannot be told', () => {
    expect(bundleSaving(null, [item(4900), item(2900)])).toBeNull();
    expect(bundleSaving({ amount: 6000, currency: 'usd' }, [item(4900, 'draft')])).toBeNull();
    expect(
      bundleSaving({ amount: 6000, currency: 'usd' }, [item(4900), item(2900, 'published', 'eur')]),
    ).toBeNull();
    expect(
      bundleSaving({ amount: 6000, currency: 'usd' }, [{ status: 'published', price: null }]),
    ).toBeNull();
  });
});
