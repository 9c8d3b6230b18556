import {
  storefrontMessages as m,
  usersMessages,
  vendorUrlMessages,
} from '@tradeshelf/contract/client';
import { storefrontBody } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { onboardingSteps, type Overview } from '../overview.ts';
import { imageFileProblem } from '../../../components/upload-control.tsx';
import { initialValues, toBody, validateStorefront } from './form.ts';

const valid = () => ({
  ...initialValues(null),
  vendorUrl: 'my-shop',
  displayName: 'My Shop',
});

/** What the server's schema says about the same values: field → first message. */
function serverSays(values: ReturnType<typeof valid>): Record<string, string> {
  const parsed = storefrontBody.safeParse({
    vendorUrl: values.vendorUrl,
    displayName: values.displayName,
    bio: values.bio,
    socialLinks: values.socialLinks,
  });
  const out: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('storefront form validation', () => {
  it('accepts a complete form and sends it normalised, empty links left out', () => {
    const values = {
      ...valid(),
      vendorUrl: '  My-Shop ',
      bio: ' Tools for traders. ',
      socialLinks: { ...valid().socialLinks, x: ' https://x.com/myshop ' },
    };
    expect(validateStorefront(values)).toEqual({});
    expect(toBody(values)).toEqual({
      vendorUrl: 'my-shop',
      displayName: 'My Shop',
      bio: 'Tools for traders.',
      socialLinks: { x: 'https://x.com/myshop' },
    });
  });

  const cases: Array<[string, Partial<ReturnType<typeof valid>>, string, string]> = [
    ['an empty address', { vendorUrl: '' }, 'vendorUrl', vendorUrlMessages.required],
    ['a short address', { vendorUrl: 'ab' }, 'vendorUrl', vendorUrlMessages.length],
    ['a reserved address', { vendorUrl: 'Support' }, 'vendorUrl', vendorUrlMessages.reserved],
    ['underscores', { vendorUrl: 'my_shop' }, 'vendorUrl', vendorUrlMessages.invalid],
    ['double hyphens', { vendorUrl: 'my--shop' }, 'vendorUrl', vendorUrlMessages.invalid],
    ['a trailing hyphen', { vendorUrl: 'my-shop-' }, 'vendorUrl', vendorUrlMessages.invalid],
    ['no name', { displayName: '  ' }, 'displayName', m.nameRequired],
    ['a long name', { displayName: 'n'.repeat(61) }, 'displayName', m.nameLength],
    ['control characters', { displayName: 'Shop\u0007' }, 'displayName', m.unreadable],
    ['a long bio', { bio: 'b'.repeat(601) }, 'bio', m.bioLength],
  ];
  for (const [what, change, field, message] of cases) {
    it(`says what is wrong with ${what}, as the server would`, () => {
      const values = { ...valid(), ...change };
      expect(validateStorefront(values)[field]).toBe(message);
      // Reserved words are the service's check (a storefront may keep the one it has).
      if (message !== vendorUrlMessages.reserved) expect(serverSays(values)[field]).toBe(message);
    });
  }

  it('lets a storefront keep a reserved address it already has', () => {
    const values = { ...valid(), vendorUrl: 'tradeshelf' };
    expect(validateStorefront(values, 'tradeshelf')).toEqual({});
    expect(validateStorefront(values, 'elsewhere').vendorUrl).toBe(vendorUrlMessages.reserved);
  });

  it('refuses a name that passes for the platform, unless the storefront already has it', () => {
    const values = { ...valid(), displayName: 'Tradeshelf Support' };
    expect(validateStorefront(values).displayName).toBe(m.nameReserved);
    expect(validateStorefront({ ...valid(), displayName: 'Supp0rt' }).displayName).toBe(
      m.nameReserved,
    );
    expect(validateStorefront(values, null, 'Tradeshelf Support')).toEqual({});
    expect(validateStorefront({ ...valid(), displayName: 'Security Scanner Pro' })).toEqual({});
  });

  it('checks each link: https, the right site, no credentials, and how many', () => {
    const links = (l: Partial<ReturnType<typeof valid>['socialLinks']>) => ({
      ...valid(),
      socialLinks: { ...valid().socialLinks, ...l },
    });
    const bad = links({
      website: 'http://shop.example',
      x: 'https://facebook.com/me',
      youtube: 'youtube',
      discord: 'https://me:pw@discord.gg/abc',
    });
    const errors = validateStorefront(bad);
    expect(errors).toEqual({
      'socialLinks.website': m.linkHttps,
      'socialLinks.x': 'Link to x.com or twitter.com.',
      'socialLinks.youtube': m.linkInvalid,
      'socialLinks.discord': m.linkCredentials,
    });
    expect(serverSays(bad)).toEqual(errors);
    const six = links({
      website: 'https://a.example',
      x: 'https://x.com/a',
      youtube: 'https://youtu.be/a',
      discord: 'https://discord.gg/a',
      tradingview: 'https://www.tradingview.com/u/a/',
      telegram: 'https://t.me/a',
    });
    expect(validateStorefront(six)).toEqual({ socialLinks: m.tooManyLinks });
    expect(serverSays(six)).toEqual({ socialLinks: m.tooManyLinks });
  });

  it('checks a picture’s type and size before sending it', () => {
    const file = (type: string, size: number) => new File([new Uint8Array(size)], 'pic', { type });
    expect(imageFileProblem(file('image/png', 1000))).toBeNull();
    expect(imageFileProblem(file('image/svg+xml', 1000))).toBe(usersMessages.imageType);
    expect(imageFileProblem(file('image/jpeg', 3 * 1024 * 1024))).toBe(usersMessages.imageTooLarge);
  });
});

describe('onboarding checklist', () => {
  const storefront = { vendorUrl: 'my-shop' } as Overview['storefront'];
  const payouts = (status: string) => ({ status }) as unknown as Overview['payouts'];
  const states = (o: Overview) => onboardingSteps(o).map((s) => s.state);

  it('starts at the storefront, everything else waiting on it', () => {
    expect(
      states({
        storefront: null,
        payouts: null,
        payoutsError: null,
        drafts: null,
        published: null,
      }),
    ).toEqual(['todo', 'blocked', 'blocked', 'blocked']);
  });

  it('keeps the checklist readable when the payment provider does not answer', () => {
    const steps = onboardingSteps({
      storefront,
      payouts: null,
      payoutsError: 'The payment provider did not answer. Try again in a minute.',
      drafts: 0,
      published: 0,
    });
    expect(steps[1]).toMatchObject({
      state: 'todo',
      detail: 'The payment provider did not answer. Try again in a minute.',
    });
  });

  // Issue 27: "10 listings, 9 published" left the reader to guess; the lines say what is what.
  it('says what is published (products and bundles) and what only the vendor sees', () => {
    const steps = onboardingSteps({
      storefront,
      payouts: payouts('active'),
      payoutsError: null,
      drafts: 1,
      published: 9,
      publishedBundles: 1,
    });
    expect(steps[2]!.detail).toBe('10 listings: 9 published, 1 not published.');
    expect(steps[3]!.detail).toBe(
      '9 listings published (8 products and 1 bundle): on your storefront and in search. 1 listing not published (drafts and unpublished): only you see it.',
    );
    expect(
      onboardingSteps({
        storefront,
        payouts: payouts('active'),
        payoutsError: null,
        drafts: 0,
        published: 1,
        publishedBundles: 0,
      })[3]!.detail,
    ).toBe('1 listing published (1 product): on your storefront and in search.');
  });

  it('follows payouts, the first draft and publishing', () => {
    expect(
      states({
        storefront,
        payouts: payouts('not_started'),
        payoutsError: null,
        drafts: 0,
        published: 0,
      }),
    ).toEqual(['done', 'todo', 'todo', 'blocked']);
    expect(
      states({
        storefront,
        payouts: payouts('pending_verification'),
        payoutsError: null,
        drafts: 1,
        published: 0,
      }),
    ).toEqual(['done', 'in_progress', 'done', 'todo']);
    expect(
      states({
        storefront,
        payouts: payouts('active'),
        payoutsError: null,
        drafts: 0,
        published: 2,
      }),
    ).toEqual(['done', 'done', 'done', 'done']);
  });
});
