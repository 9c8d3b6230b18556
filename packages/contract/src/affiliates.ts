import { z } from 'zod';
import { emailSchema, idSchema, isoDateTime, moneySchema, pageFields } from './common.ts';
import {
  AFFILIATE_COMMISSION_MAX_BPS,
  AFFILIATE_COOKIE_DAYS_MAX,
  affiliateMessages,
  commissionStates,
  payoutAccountStates,
  payoutStatuses,
} from './constants/affiliates.ts';
import { refIdSchema } from './orders.ts';
import { defineRoute } from './route.ts';

export * from './constants/affiliates.ts';

const commissionBps = z
  .number({ error: affiliateMessages.commissionRange })
  .int(affiliateMessages.commissionRange)
  .min(0, affiliateMessages.commissionRange)
  .max(AFFILIATE_COMMISSION_MAX_BPS, affiliateMessages.commissionRange);
const cookieDays = z
  .number({ error: affiliateMessages.cookieDaysRange })
  .int(affiliateMessages.cookieDaysRange)
  .min(1, affiliateMessages.cookieDaysRange)
  .max(AFFILIATE_COOKIE_DAYS_MAX, affiliateMessages.cookieDaysRange);

/**
 * A vendor in the affiliate's list: one whose programme is open or that the affiliate joined. `refId`
 * and `shareUrl` are null until the affiliate generates (or accepts) a referral for it. docs/product.md#affiliate-group:
 * generating a referral sets `refId` on the matching entry; accepting an invite appends one.
 */
export const affiliateVendorSchema = z
  .object({
    vendorId: z.string(),
    vendorUrl: z.string(),
    name: z.string(),
    refId: z.string().nullable(),
    shareUrl: z.string().nullable(),
    /** Commission on each payment a referred buyer makes, in basis points. */
    commissionBps: z.number().int(),
    /** How long a referral link's visit is remembered (the `referral_id` cookie). */
    cookieDays: z.number().int(),
    open: z.boolean(),
    joined: z.boolean(),
  })
  .meta({ id: 'AffiliateVendor' });
export type AffiliateVendor = z.infer<typeof affiliateVendorSchema>;

export const invitationSchema = z
  .object({
    id: z.string(),
    /** The referral id the affiliate gets on accepting. */
    refId: z.string(),
    vendorId: z.string(),
    vendorUrl: z.string(),
    vendorName: z.string(),
    email: z.string(),
    commissionBps: z.number().int(),
    cookieDays: z.number().int(),
    status: z.enum(['pending', 'accepted']),
    createdAt: isoDateTime,
    expiresAt: isoDateTime,
  })
  .meta({ id: 'AffiliateInvitation' });
export type Invitation = z.infer<typeof invitationSchema>;

/** One referred purchase and the commission it earned the affiliate. */
export const referralSaleSchema = z
  .object({
    /** The purchase. */
    id: z.string(),
    refId: z.string(),
    vendorId: z.string(),
    vendorName: z.string(),
    itemTitle: z.string(),
    /** What the buyer paid over the purchase's payments. */
    sale: moneySchema,
    /** Commission earned, before any clawback. */
    commission: moneySchema,
    /** Taken back by refunds or disputes. */
    clawedBack: moneySchema,
    state: z.enum(commissionStates),
    /** When the hold ends (for `pending`) or ended. */
    availableAt: isoDateTime,
    createdAt: isoDateTime,
  })
  .meta({ id: 'ReferralSale' });
export type ReferralSale = z.infer<typeof referralSaleSchema>;

export const payoutSchema = z
  .object({
    id: z.string(),
    amount: moneySchema,
    status: z.enum(payoutStatuses),
    /** Why the provider refused or reversed it. */
    failureReason: z.string().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'AffiliatePayout' });
export type Payout = z.infer<typeof payoutSchema>;

const balanceSchema = z.object({
  currency: z.string(),
  available: z.number().int(),
  pending: z.number().int(),
  withdrawn: z.number().int(),
});

export const affiliateStatsSchema = z
  .object({
    /** Payable now, in the payout currency (the largest available balance). */
    availableBalance: moneySchema,
    /** Commission still in its hold period. */
    pendingBalance: moneySchema,
    /** Paid out, and on its way, net of returned payouts. */
    totalWithdrawn: moneySchema,
    totalEarned: moneySchema,
    clicks: z.number().int(),
    sales: z.number().int(),
    holdDays: z.number().int(),
    minimumPayout: moneySchema,
    payoutAccount: z.enum(payoutAccountStates),
    /** The account payouts go to, in words ("Stripe account ••••Xy12"); null without one. */
    payoutAccountName: z.string().nullable(),
    canRequestPayout: z.boolean(),
    /** Why "Request payout" is disabled (no account, below the minimum), else null. */
    payoutBlockedReason: z.string().nullable(),
    /** Every currency the affiliate has earned in. */
    balances: z.array(balanceSchema),
    /** Commission earned per month (net of clawbacks), oldest first, in the payout currency. */
    earnings: z.array(z.object({ month: z.string(), amount: z.number().int() })),
    /** Visits and sales per referral link. */
    links: z.array(
      z.object({
        refId: z.string(),
        vendorId: z.string(),
        clicks: z.number().int(),
        sales: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'AffiliateStats' });
export type AffiliateStats = z.infer<typeof affiliateStatsSchema>;

export const programmeSchema = z
  .object({
    vendorId: z.string(),
    open: z.boolean(),
    commissionBps: z.number().int(),
    cookieDays: z.number().int(),
  })
  .meta({ id: 'AffiliateProgramme' });
export type Programme = z.infer<typeof programmeSchema>;

export const programmeBody = z.object({
  open: z.boolean(),
  commissionBps,
  cookieDays,
});

export const inviteBody = z.object({
  email: emailSchema,
  commissionBps: commissionBps.optional(),
  cookieDays: cookieDays.optional(),
});

const pageQuery = z.object({
  ...pageFields(100, 50),
});

/** One affiliate promoting the vendor: their link's terms and what it brought. */
export const vendorAffiliateSchema = z
  .object({
    refId: z.string(),
    /** The affiliate's username (null until they choose one); never an e-mail. */
    username: z.string().nullable(),
    commissionBps: z.number().int(),
    cookieDays: z.number().int(),
    joinedAt: isoDateTime,
    clicks: z.number().int(),
    /** Paid referred purchases. */
    sales: z.number().int(),
    /** Commission earned net of clawbacks, per currency. */
    commission: z.array(moneySchema),
  })
  .meta({ id: 'VendorAffiliate' });
export type VendorAffiliate = z.infer<typeof vendorAffiliateSchema>;

export const affiliatesRoutes = {
  affiliateVendors: defineRoute({
    method: 'GET',
    path: '/api/v1/user/affiliate/vendors',
    auth: 'bearer',
    summary:
      'Vendors whose affiliate programme is open or that the caller joined, with the referral id (null until generated), commission and cookie window.',
    tags: ['affiliates'],
    status: 200,
    query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) }),
    response: z.object({ vendors: z.array(affiliateVendorSchema) }),
  }),
  generateRef: defineRoute({
    method: 'POST',
    path: '/api/v1/user/affiliate/generate-ref',
    auth: 'bearer',
    summary:
      'Joins an open programme and returns the referral (its id and share link) as `data`, the name the web client reads; `referral` carries the same for older clients. Repeating it returns the same referral.',
    tags: ['affiliates'],
    status: 200,
    body: z.object({ vendorId: idSchema }),
    response: z.object({ data: affiliateVendorSchema, referral: affiliateVendorSchema }),
  }),
  affiliateReferrals: defineRoute({
    method: 'GET',
    path: '/api/v1/user/affiliate/referrals',
    auth: 'bearer',
    summary:
      'Referred sales with their commission state, balances from the ledger (available after the hold period), and payouts.',
    tags: ['affiliates'],
    status: 200,
    query: pageQuery,
    response: z.object({
      referrals: z.array(referralSaleSchema),
      stats: affiliateStatsSchema,
      withdrawals: z.array(payoutSchema),
      nextCursor: z.string().nullable(),
    }),
  }),
  requestPayout: defineRoute({
    method: 'POST',
    path: '/api/v1/user/affiliate/request-payout',
    auth: 'bearer',
    summary:
      'Pays out the whole available balance to the connected payout account, exactly once however often it is called at the same time.',
    tags: ['affiliates'],
    status: 200,
    response: z.object({ payout: payoutSchema }),
  }),
  affiliatePayout: defineRoute({
    method: 'GET',
    path: '/api/v1/user/affiliate/payouts/{id}',
    auth: 'bearer',
    summary: 'One of the caller’s payouts, with its state at the provider.',
    tags: ['affiliates'],
    status: 200,
    params: z.object({ id: idSchema }),
    response: z.object({ payout: payoutSchema }),
  }),
  pendingInvites: defineRoute({
    method: 'GET',
    path: '/api/v1/user/affiliate/pending-invites',
    auth: 'bearer',
    summary: 'Invitations sent to the caller’s e-mail address that wait for an answer.',
    tags: ['affiliates'],
    status: 200,
    response: z.object({ invitations: z.array(invitationSchema) }),
  }),
  acceptInvite: defineRoute({
    method: 'GET',
    path: '/api/v1/user/affiliate/accept/{id}',
    auth: 'bearer',
    summary:
      'Accepts an invitation sent to the caller’s e-mail address and returns the referral with its terms.',
    tags: ['affiliates'],
    status: 200,
    params: z.object({ id: idSchema }),
    query: z.object({ vendorId: idSchema }),
    response: z.object({ referral: affiliateVendorSchema }),
  }),
  affiliateClick: defineRoute({
    method: 'POST',
    path: '/api/v1/affiliate/clicks',
    auth: 'optional',
    summary:
      'Counts a visit through a referral link (once per visitor and link a day) and says how long to remember it.',
    tags: ['affiliates'],
    status: 200,
    body: z.object({ refId: refIdSchema }),
    response: z.object({ counted: z.boolean(), cookieDays: z.number().int().nullable() }),
  }),
  vendorProgramme: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/affiliate/programme',
    auth: 'bearer',
    summary: 'The vendor’s affiliate programme terms (null before it was set up).',
    tags: ['vendor'],
    status: 200,
    response: z.object({ programme: programmeSchema.nullable() }),
  }),
  updateVendorProgramme: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/affiliate/programme',
    auth: 'bearer',
    summary:
      'Sets the programme terms: open to anyone or by invitation, commission and cookie window. Referrals already made keep their terms.',
    tags: ['vendor'],
    status: 200,
    body: programmeBody,
    response: z.object({ programme: programmeSchema }),
  }),
  vendorInvite: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/affiliate/invites',
    auth: 'bearer',
    summary:
      'Invites an affiliate by e-mail with commission terms (the programme’s unless given); the invitation is e-mailed. Inviting a pending address again renews its terms; it is e-mailed again only after 10 minutes (`emailed` says whether this answer sent one).',
    tags: ['vendor'],
    status: 201,
    body: inviteBody,
    response: z.object({ invitation: invitationSchema, emailed: z.boolean() }),
  }),
  vendorInvites: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/affiliate/invites',
    auth: 'bearer',
    summary: 'The vendor’s invitations, newest first.',
    tags: ['vendor'],
    status: 200,
    response: z.object({ invitations: z.array(invitationSchema) }),
  }),
  vendorRevokeInvite: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/affiliate/invites/{id}',
    auth: 'bearer',
    summary:
      'Withdraws a pending invitation: its link stops working. An accepted one answers 409 (the affiliate already has a link).',
    tags: ['vendor'],
    status: 200,
    params: z.object({ id: idSchema }),
    response: z.object({ id: z.string() }),
  }),
  vendorAffiliates: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/affiliate/affiliates',
    auth: 'bearer',
    summary:
      'The affiliates promoting the vendor, newest first, each with visits, paid sales and commission (net of clawbacks) through their link.',
    tags: ['vendor'],
    status: 200,
    query: pageQuery,
    response: z.object({
      affiliates: z.array(vendorAffiliateSchema),
      nextCursor: z.string().nullable(),
    }),
  }),
} as const;
