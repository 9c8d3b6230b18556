import { z } from 'zod';
import { isoDateTime, messageResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { PASSWORD_MAX } from './rules/password.ts';
import { totpCodeSchema } from './auth.ts';

export * from './constants/account-data.ts';

/** What proves the person at the keyboard owns the account (ADR 060): as an e-mail change asks. */
export const accountConfirmSchema = z.object({
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX, 'Password is too long.'),
  /** Required when two-factor authentication is on. */
  twoFactorCode: totpCodeSchema.optional(),
});
export type AccountConfirm = z.infer<typeof accountConfirmSchema>;

const money = z.object({ amount: z.number().int(), currency: z.string() });
const at = isoDateTime.nullable();

/**
 * Everything that is the account's, one part per module (ADR 060). Secrets are never in it: no
 * password hash, two-factor secret, API key secret or webhook signing secret.
 */
export const accountExport = z
  .object({
    exportedAt: isoDateTime,
    profile: z.object({
      id: z.string(),
      email: z.string(),
      username: z.string().nullable(),
      roles: z.array(z.string()),
      emailVerifiedAt: at,
      createdAt: isoDateTime,
    }),
    security: z.object({
      twoFactorEnabled: z.boolean(),
      /** Names and dates only: a passkey's public key is of no use to anyone but this site. */
      passkeys: z.array(
        z.object({ name: z.string(), createdAt: isoDateTime, lastUsedAt: at, synced: z.boolean() }),
      ),
      signIns: z.array(
        z.object({
          device: z.string(),
          address: z.string(),
          place: z.string().nullable(),
          createdAt: isoDateTime,
          lastSeenAt: isoDateTime,
        }),
      ),
    }),
    orders: z.array(
      z.object({
        id: z.string(),
        receiptNumber: z.string().nullable(),
        status: z.string(),
        vendorId: z.string(),
        itemType: z.string(),
        productId: z.string().nullable(),
        bundleId: z.string().nullable(),
        scheme: z.string(),
        subtotal: money,
        discount: money,
        total: money,
        couponCode: z.string().nullable(),
        subscriptionStatus: z.string().nullable(),
        createdAt: isoDateTime,
        paidAt: at,
        refundedAt: at,
        revokedAt: at,
        revokedReason: z.string().nullable(),
      }),
    ),
    /** Ledger lines of the account's own balances (as an affiliate, and as a vendor). */
    ledger: z.array(
      z.object({
        purchaseId: z.string().nullable(),
        entryType: z.string(),
        accountType: z.string(),
        amount: money,
        createdAt: isoDateTime,
      }),
    ),
    library: z.array(
      z.object({
        purchaseId: z.string(),
        productId: z.string(),
        kind: z.string(),
        status: z.string(),
        endsAt: at,
        endedReason: z.string().nullable(),
        createdAt: isoDateTime,
      }),
    ),
    licences: z.array(
      z.object({
        id: z.string(),
        productId: z.string(),
        purchaseId: z.string().nullable(),
        status: z.string(),
        expiresAt: at,
        endedReason: z.string().nullable(),
        activations: z.number().int(),
        issuedAt: isoDateTime,
      }),
    ),
    reviews: z.array(
      z.object({
        id: z.string(),
        productId: z.string(),
        rating: z.number().int(),
        text: z.string(),
        createdAt: isoDateTime,
        editedAt: at,
      }),
    ),
    affiliate: z.object({
      links: z.array(
        z.object({
          refId: z.string(),
          vendorId: z.string(),
          commissionBps: z.number().int(),
          createdAt: isoDateTime,
        }),
      ),
      payouts: z.array(
        z.object({ id: z.string(), amount: money, status: z.string(), createdAt: isoDateTime }),
      ),
    }),
    /** Null unless the account sells. */
    vendor: z
      .object({
        id: z.string(),
        vendorUrl: z.string(),
        displayName: z.string(),
        bio: z.string(),
        createdAt: isoDateTime,
        products: z.array(
          z.object({
            id: z.string(),
            kind: z.string(),
            slug: z.string(),
            title: z.string(),
            isActive: z.boolean(),
            createdAt: isoDateTime,
          }),
        ),
        sales: z.array(z.object({ currency: z.string(), count: z.number().int(), gross: money })),
        apiKeys: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            environment: z.string(),
            scopes: z.array(z.string()),
            createdAt: isoDateTime,
            lastUsedAt: at,
            revokedAt: at,
          }),
        ),
        webhookEndpoints: z.array(
          z.object({
            id: z.string(),
            url: z.string(),
            eventTypes: z.array(z.string()),
            enabled: z.boolean(),
            createdAt: isoDateTime,
          }),
        ),
      })
      .nullable(),
  })
  .meta({ id: 'AccountExport' });
export type AccountExport = z.infer<typeof accountExport>;

export const accountDataRoutes = {
  accountExport: defineRoute({
    method: 'POST',
    path: '/api/v1/account/export',
    auth: 'bearer',
    summary:
      'Everything that is the account’s, as JSON: profile, orders, ledger lines, library, licences, reviews, affiliate links and payouts, and the storefront with its products, sales, API keys and webhook endpoints (no secrets). Asks for the password (and a two-factor code when on); 5 an hour.',
    tags: ['account'],
    status: 200,
    body: accountConfirmSchema,
    response: accountExport,
  }),
  accountDelete: defineRoute({
    method: 'POST',
    path: '/api/v1/account/delete',
    auth: 'bearer',
    summary:
      'Delete the account, with the password (and a two-factor code when on). Orders and ledger lines the law requires are kept without the name or e-mail; every sign-in ends; access and licences end with the reason “account deleted”. A vendor with open obligations, or an affiliate with a balance, is answered 409 with what must happen first, and nothing changes.',
    tags: ['account'],
    status: 200,
    body: accountConfirmSchema,
    response: messageResponse,
  }),
} as const;
