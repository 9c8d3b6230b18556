import { describe, expect, it } from 'vitest';
import { assetClasses, productKinds, tradingPlatforms } from './constants/catalog.ts';
import {
  vendorProductInput,
  vendorProductMessages as m,
  vendorProductProblems,
  type VendorProductDraft,
} from './vendor-products.ts';

const known = { kinds: productKinds, platforms: tradingPlatforms, assetClasses };

const valid: VendorProductDraft = {
  kind: 'indicator',
  title: 'Trend ribbon',
  summary: 'Trend at a glance.',
  description: '## Hello\n\nWorld',
  tags: ['trend', 'moving average'],
  platforms: ['tradingview'],
  assetClasses: ['crypto'],
  prerequisiteIds: [],
  plans: [
    { billing: 'one_time', amount: 4900, currency: 'usd', trialDays: 0 },
    { billing: 'month', amount: 900, currency: 'usd', trialDays: 7 },
  ],
};

/** The server's field messages for a draft (zod), keyed as the API answers them. */
function serverProblems(draft: unknown): Record<string, string> {
  const parsed = vendorProductInput.safeParse(draft);
  if (parsed.success) return {};
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

const cases: Array<[string, Partial<VendorProductDraft>]> = [
  ['valid', {}],
  ['unknown kind', { kind: 'spaceship' }],
  ['long title', { title: 'x'.repeat(121) }],
  ['control character', { title: 'a\u0007b' }],
  ['long summary', { summary: 's'.repeat(301) }],
  ['long description', { description: 'd'.repeat(20_001) }],
  ['bad tag', { tags: ['ok', '<b>'] }],
  ['repeated tag', { tags: ['a', 'a'] }],
  ['too many tags', { tags: Array.from({ length: 13 }, (_, i) => `t${i}`) }],
  ['unknown platform', { platforms: ['amiga'] }],
  ['repeated market', { assetClasses: ['crypto', 'crypto'] }],
  [
    'negative price',
    { plans: [{ billing: 'one_time', amount: -5, currency: 'usd', trialDays: 0 }] },
  ],
  [
    'fractional price',
    { plans: [{ billing: 'month', amount: 9.5, currency: 'usd', trialDays: 0 }] },
  ],
  ['too dear', { plans: [{ billing: 'year', amount: 10_000_001, currency: 'usd', trialDays: 0 }] }],
  [
    'trial on one-time',
    { plans: [{ billing: 'one_time', amount: 900, currency: 'usd', trialDays: 3 }] },
  ],
  ['long trial', { plans: [{ billing: 'month', amount: 900, currency: 'usd', trialDays: 91 }] }],
  [
    'unknown billing',
    { plans: [{ billing: 'daily', amount: 900, currency: 'usd', trialDays: 0 }] },
  ],
  [
    'two currencies',
    {
      plans: [
        { billing: 'one_time', amount: 900, currency: 'usd', trialDays: 0 },
        { billing: 'month', amount: 900, currency: 'eur', trialDays: 0 },
      ],
    },
  ],
  [
    'same plan twice',
    {
      plans: [
        { billing: 'month', amount: 900, currency: 'usd', trialDays: 0 },
        { billing: 'month', amount: 1900, currency: 'usd', trialDays: 0 },
      ],
    },
  ],
];

describe('vendor product checks: the browser and the server agree', () => {
  it.each(cases)('%s', (_name, change) => {
    const draft = { ...valid, ...change };
    const browser = vendorProductProblems(draft, known);
    expect(browser).toEqual(serverProblems(draft));
    if (_name !== 'valid') expect(Object.keys(browser).length).toBeGreaterThan(0);
  });

  it('uses the messages the editor shows', () => {
    expect(vendorProductProblems({ ...valid, kind: 'x' }, known)).toEqual({ kind: m.kind });
  });
});
