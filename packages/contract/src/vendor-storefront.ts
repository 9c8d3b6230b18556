import { z } from 'zod';
import { isoDateTime, moneySchema, responsiveImage } from './common.ts';
import {
  payoutAccountStatuses,
  normaliseVendorUrl,
  SOCIAL_LINKS_MAX,
  socialLinkKinds,
  STOREFRONT_BIO_MAX,
  STOREFRONT_NAME_MAX,
  storefrontImageKinds,
  storefrontMessages as m,
  validateSocialLink,
  vendorUrlShapeProblem,
  type SocialLinkKind,
} from './constants/vendor-storefront.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';

export * from './constants/vendor-storefront.ts';

/**
 * The storefront address: trimmed, lower-cased, then checked against ADR 041's rules of form. The
 * server refuses reserved words too, unless the storefront already has that address.
 */
export const storefrontUrlSchema = z
  .string()
  .transform(normaliseVendorUrl)
  .superRefine((value, ctx) => {
    const problem = vendorUrlShapeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const socialLinksSchema = z
  .partialRecord(z.enum(socialLinkKinds), z.string().trim().max(1000, m.linkInvalid))
  .default({})
  .superRefine((links, ctx) => {
    const given = Object.entries(links).filter(([, v]) => v);
    if (given.length > SOCIAL_LINKS_MAX) ctx.addIssue({ code: 'custom', message: m.tooManyLinks });
    for (const [kind, value] of given) {
      const problem = validateSocialLink(kind as SocialLinkKind, value!);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [kind] });
    }
  })
  // Empty fields mean "no link".
  .transform(
    (links) =>
      Object.fromEntries(Object.entries(links).filter(([, v]) => v)) as Partial<
        Record<SocialLinkKind, string>
      >,
  );

export const storefrontBody = z.object({
  vendorUrl: storefrontUrlSchema,
  displayName: z
    .string()
    .trim()
    .min(1, m.nameRequired)
    .max(STOREFRONT_NAME_MAX, m.nameLength)
    .refine((v) => !hasUnreadableCharacters(v), { error: m.unreadable }),
  bio: z
    .string()
    .trim()
    .max(STOREFRONT_BIO_MAX, m.bioLength)
    .refine((v) => !hasUnreadableCharacters(v, true), { error: m.unreadable })
    .default(''),
  socialLinks: socialLinksSchema,
});
export type StorefrontBody = z.input<typeof storefrontBody>;
/** The body as the server gets it: address normalised, empty links dropped. */
export type StorefrontInput = z.output<typeof storefrontBody>;

/** Each kind of link, when the vendor gave one (an object, so responses compile; ADR 017). */
const socialLinksOut = z.object({
  website: z.string().optional(),
  x: z.string().optional(),
  youtube: z.string().optional(),
  discord: z.string().optional(),
  tradingview: z.string().optional(),
  telegram: z.string().optional(),
  instagram: z.string().optional(),
} satisfies Record<SocialLinkKind, z.ZodOptional<z.ZodString>>);

export const storefrontSchema = z
  .object({
    id: z.string(),
    vendorUrl: z.string(),
    /** The public page: `/v/<vendorUrl>`. */
    path: z.string(),
    displayName: z.string(),
    bio: z.string(),
    socialLinks: socialLinksOut,
    /** The largest JPEG of `avatar`. */
    avatarUrl: z.string().nullable(),
    avatar: responsiveImage.nullable(),
    bannerUrl: z.string().nullable(),
    banner: responsiveImage.nullable(),
    /** Earlier addresses, newest first: each redirects to the current one (ADR 041). */
    previousUrls: z.array(z.string()),
    /** How many more times the address may change. */
    renamesLeft: z.number().int(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Storefront' });
export type Storefront = z.infer<typeof storefrontSchema>;

export const storefrontResponse = z.object({ storefront: storefrontSchema });
export const storefrontImageKind = z.enum(storefrontImageKinds);

export const vendorUrlAvailability = z.object({
  vendorUrl: z.string(),
  available: z.boolean(),
  message: z.string(),
});
export type VendorUrlAvailability = z.infer<typeof vendorUrlAvailability>;

const balanceSchema = z.object({
  currency: z.string(),
  /** Net share of sales past the pending window. */
  available: z.number().int(),
  /** Net share of sales from the last `VENDOR_PENDING_DAYS` days. */
  pending: z.number().int(),
  /** Refunds and disputes taken back from the share. */
  refunded: z.number().int(),
});

export const vendorPayoutsSchema = z
  .object({
    status: z.enum(payoutAccountStatuses),
    /** A sentence for the status. */
    message: z.string(),
    /** What the provider still needs, in words; empty when nothing. */
    requirements: z.array(z.string()),
    /** Why the provider disabled the account, in words, if it did. */
    disabledReason: z.string().nullable(),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    /**
     * Where checkout sends the vendor's sales now, in words: into the account when the provider says it
     * takes charges, else collected by the platform. It is what checkout does (issue 27).
     */
    salesNote: z.string(),
    /** The vendor's share of sales per currency, from the ledger. */
    balances: z.array(balanceSchema),
    /** The available balance in the main currency (the largest), for the headline. */
    available: moneySchema,
    pending: moneySchema,
    pendingDays: z.number().int(),
    /** Who sends the balance to the bank, in words. */
    payoutNote: z.string(),
  })
  .meta({ id: 'VendorPayouts' });
export type VendorPayouts = z.infer<typeof vendorPayoutsSchema>;

export const vendorStorefrontRoutes = {
  vendorStorefront: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/storefront',
    auth: 'bearer',
    summary:
      'The caller’s storefront, or `{ storefront: null }` when they have not saved one yet. Only vendors (403 otherwise).',
    tags: ['vendor'],
    status: 200,
    response: z.object({ storefront: storefrontSchema.nullable() }),
  }),
  saveVendorStorefront: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/storefront',
    auth: 'bearer',
    summary:
      'Creates or updates the caller’s storefront. The address is unique without regard to case (409 with a field message); a changed address keeps the old one as a redirect (ADR 041).',
    tags: ['vendor'],
    status: 200,
    body: storefrontBody,
    response: storefrontResponse,
  }),
  vendorUrlAvailability: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/storefront/url-availability',
    auth: 'bearer',
    summary: 'Whether the caller could take a storefront address, with a sentence saying why not.',
    tags: ['vendor'],
    status: 200,
    query: z.object({ vendorUrl: z.string().max(200) }),
    response: vendorUrlAvailability,
  }),
  uploadStorefrontImage: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/storefront/images/{kind}',
    auth: 'bearer',
    summary:
      'Sets the storefront’s avatar or banner (multipart field `file`; PNG, JPEG or WebP up to 2 MB). It is decoded, stripped of metadata, resized and stored as AVIF, WebP and JPEG variants.',
    tags: ['vendor'],
    status: 200,
    multipart: true,
    params: z.object({ kind: storefrontImageKind }),
    response: storefrontResponse,
  }),
  removeStorefrontImage: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/storefront/images/{kind}',
    auth: 'bearer',
    summary: 'Removes the storefront’s avatar or banner.',
    tags: ['vendor'],
    status: 200,
    params: z.object({ kind: storefrontImageKind }),
    response: storefrontResponse,
  }),
  vendorPayouts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/payouts',
    auth: 'bearer',
    summary:
      'The vendor’s payout account at the provider (status and what it still needs, in words) and their share of sales from the ledger.',
    tags: ['vendor'],
    status: 200,
    response: z.object({ payouts: vendorPayoutsSchema }),
  }),
} as const;
