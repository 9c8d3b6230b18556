import { z } from 'zod';
import { idSchema, isoDateTime, messageResponse, pageQuery } from './common.ts';
import { catalogCategory, productKind, tradingPlatform } from './catalog.ts';
import { SEARCH_Q_MAX } from './constants/catalog.ts';
import { membershipMessages as m, planIds, SAVED_SEARCH_NAME_MAX } from './constants/membership.ts';
import { subscriptionStatuses } from './constants/orders.ts';
import { defineRoute } from './route.ts';

export * from './constants/membership.ts';

export const planGrantsSchema = z
  .object({
    memberDiscountPercent: z.number().int(),
    savedSearches: z.number().int(),
    alertMailsPerDay: z.number().int(),
    supportReplyHours: z.number().int(),
  })
  .meta({ id: 'PlanGrants' });

export const membershipSchema = z
  .object({
    plan: z.enum(planIds),
    name: z.string(),
    /** The subscription's state; null for a plan bought outright. */
    status: z.enum(subscriptionStatuses).nullable(),
    /** Next renewal, while the subscription renews. */
    renewsAt: isoDateTime.nullable(),
    /** When access ends (cancelled at period end). */
    endsAt: isoDateTime.nullable(),
    /** The order that grants it (`/orders/{id}`). */
    purchaseId: z.string(),
    /** The vendor whose customer portal manages billing (`customer-portal?vendorUrl=`). */
    vendorUrl: z.string(),
    grants: planGrantsSchema,
    /** The fee that pays for the member price, so clients show the price checkout will charge. */
    platformFee: z.object({ bps: z.number().int(), fixed: z.number().int() }),
    savedSearchCount: z.number().int(),
  })
  .meta({ id: 'Membership' });
export type Membership = z.infer<typeof membershipSchema>;

const name = z
  .string({ error: m.nameRequired })
  .trim()
  .min(1, m.nameRequired)
  .max(SAVED_SEARCH_NAME_MAX, m.nameTooLong);
const price = z.number().int().min(0).max(100_000_000);

/** What a saved search runs: the query and filters of `/search`. */
export const savedSearchFilters = z.object({
  q: z.string().trim().max(SEARCH_Q_MAX, `Search for at most ${SEARCH_Q_MAX} characters.`),
  category: catalogCategory.nullish(),
  kind: productKind.nullish(),
  platform: tradingPlatform.nullish(),
  minPrice: price.nullish(),
  maxPrice: price.nullish(),
});

export const createSavedSearchRequest = savedSearchFilters
  .extend({ name: name.optional() })
  .refine((s) => s.q !== '' || s.category || s.kind || s.platform, {
    error: m.emptySearch,
    path: ['q'],
  });
export type CreateSavedSearchRequest = z.input<typeof createSavedSearchRequest>;

export const updateSavedSearchRequest = z
  .object({ name: name.optional(), alerts: z.boolean().optional() })
  .refine((u) => u.name !== undefined || u.alerts !== undefined, { error: m.nothingToChange });
export type UpdateSavedSearchRequest = z.input<typeof updateSavedSearchRequest>;

export const savedSearchSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    q: z.string(),
    category: catalogCategory.nullable(),
    kind: productKind.nullable(),
    platform: tradingPlatform.nullable(),
    minPrice: z.number().int().nullable(),
    maxPrice: z.number().int().nullable(),
    /** New-listing e-mails for this search. */
    alerts: z.boolean(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'SavedSearch' });
export type SavedSearch = z.infer<typeof savedSearchSchema>;

const idParams = z.object({ id: idSchema });

export const membershipRoutes = {
  membership: defineRoute({
    method: 'GET',
    path: '/api/v1/membership',
    auth: 'bearer',
    summary: "The caller's Tradeshelf plan and what it grants; null when they have none.",
    tags: ['membership'],
    status: 200,
    response: z.object({ membership: membershipSchema.nullable() }),
  }),
  listSavedSearches: defineRoute({
    method: 'GET',
    path: '/api/v1/saved-searches',
    auth: 'bearer',
    summary: "The caller's saved searches, newest first, with the plan's limit.",
    tags: ['membership'],
    status: 200,
    query: pageQuery,
    response: z.object({
      savedSearches: z.array(savedSearchSchema),
      nextCursor: z.string().nullable(),
      /** How many the caller has, and may have (0 without a plan). */
      count: z.number().int(),
      limit: z.number().int(),
    }),
  }),
  createSavedSearch: defineRoute({
    method: 'POST',
    path: '/api/v1/saved-searches',
    auth: 'bearer',
    summary:
      'Saves a search (members only, up to the plan limit); new matching products are e-mailed.',
    tags: ['membership'],
    status: 201,
    body: createSavedSearchRequest,
    response: z.object({ savedSearch: savedSearchSchema }),
  }),
  updateSavedSearch: defineRoute({
    method: 'PATCH',
    path: '/api/v1/saved-searches/{id}',
    auth: 'bearer',
    summary: 'Renames a saved search or turns its alerts on or off.',
    tags: ['membership'],
    status: 200,
    params: idParams,
    body: updateSavedSearchRequest,
    response: z.object({ savedSearch: savedSearchSchema }),
  }),
  deleteSavedSearch: defineRoute({
    method: 'DELETE',
    path: '/api/v1/saved-searches/{id}',
    auth: 'bearer',
    summary: 'Deletes a saved search.',
    tags: ['membership'],
    status: 200,
    params: idParams,
    response: messageResponse,
  }),
  unsubscribeSavedSearch: defineRoute({
    method: 'POST',
    path: '/api/v1/saved-searches/unsubscribe',
    auth: 'none',
    summary: "Turns off one saved search's alerts from the signed link in its e-mail (no sign-in).",
    tags: ['membership'],
    status: 200,
    body: z.object({
      token: z.string().regex(/^[\w-]{1,64}\.[0-9a-f]{32}$/, m.badUnsubscribeLink),
    }),
    response: z.object({ message: z.string(), name: z.string() }),
  }),
} as const;
