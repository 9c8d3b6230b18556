import { z } from 'zod';
import { idSchema, isoDateTime, moneySchema, pageFields, textField } from './common.ts';
import { saleMoneySchema, vendorSaleSchema } from './orders.ts';
import {
  CUSTOMER_SEARCH_MAX,
  REFUND_REASON_MAX,
  vendorRefundStatuses,
  vendorSalesMessages,
} from './constants/vendor-sales.ts';
import { defineRoute } from './route.ts';

export * from './constants/vendor-sales.ts';

/**
 * A vendor's refund of one sale: `amount` in minor units (absent: all that is left of the payment),
 * and the reason the buyer is sent.
 */
export const vendorRefundBody = z.object({
  amount: z
    .number({ error: vendorSalesMessages.refundAmountWhole })
    .int(vendorSalesMessages.refundAmountWhole)
    .min(1, vendorSalesMessages.refundAmountWhole)
    .max(100_000_000_00, vendorSalesMessages.refundAmountWhole)
    .nullish(),
  reason: textField({
    required: vendorSalesMessages.refundReasonRequired,
    max: REFUND_REASON_MAX,
    tooLong: vendorSalesMessages.refundReasonTooLong,
    multiline: true,
  }),
});
export type VendorRefundBody = z.input<typeof vendorRefundBody>;

export const vendorRefundSchema = z
  .object({
    id: z.string(),
    amount: moneySchema,
    reason: z.string(),
    /** `pending` until the provider's refund event is applied; `failed` when it refused. */
    status: z.enum(vendorRefundStatuses),
    failure: z.string().nullable(),
    requestedAt: isoDateTime,
    completedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'VendorRefund' });
export type VendorRefund = z.infer<typeof vendorRefundSchema>;

/** One payment of a sale (the first, or a subscription's renewal) and how much of it came back. */
export const salePaymentSchema = z.object({
  ref: z.string(),
  amount: moneySchema,
  refunded: moneySchema,
  at: isoDateTime,
});

/** The vendor's view of a sale's ledger: what was charged and where it went (the sale's money). */
export const saleLedgerSchema = saleMoneySchema.extend({
  lines: z.array(
    z.object({
      paymentRef: z.string(),
      entryType: z.string(),
      account: z.enum(['clearing', 'platform', 'vendor', 'affiliate']),
      amount: moneySchema,
      at: isoDateTime,
    }),
  ),
});

export const vendorSaleDetailSchema = vendorSaleSchema
  .extend({
    payments: z.array(salePaymentSchema),
    refunds: z.array(vendorRefundSchema),
    ledger: saleLedgerSchema,
  })
  .meta({ id: 'VendorSaleDetail' });
export type VendorSaleDetail = z.infer<typeof vendorSaleDetailSchema>;

export const vendorCustomerSchema = z
  .object({
    buyer: z.object({ email: z.string(), username: z.string().nullable() }),
    purchases: z.number().int(),
    /** Paid less refunded, per currency. */
    spent: z.array(moneySchema),
    firstPurchaseAt: isoDateTime,
    lastPurchaseAt: isoDateTime,
  })
  .meta({ id: 'VendorCustomer' });
export type VendorCustomer = z.infer<typeof vendorCustomerSchema>;

export const vendorSalesRoutes = {
  vendorSale: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/purchases/{id}',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary:
      'One of the vendor’s sales with its payments, refunds and ledger lines (gross, fees, affiliate share, net).',
    tags: ['vendor'],
    status: 200,
    params: z.object({ id: idSchema }),
    response: z.object({ sale: vendorSaleDetailSchema }),
  }),
  vendorRefund: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/purchases/{id}/refund',
    auth: 'bearer',
    summary:
      'Refunds a sale in whole or in part through the payment provider. `amount` in minor units; absent, all that is left of the latest payment. Send an `Idempotency-Key` header to make retries refund once; a whole refund ends the buyer’s access.',
    tags: ['vendor'],
    status: 200,
    params: z.object({ id: idSchema }),
    body: vendorRefundBody,
    response: z.object({ sale: vendorSaleDetailSchema, refund: vendorRefundSchema }),
  }),
  vendorCustomers: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/customers',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary:
      'The vendor’s buyers with how many purchases they made, what they spent and when, most recent first. `q` searches by e-mail or username.',
    tags: ['vendor'],
    status: 200,
    query: z.object({
      ...pageFields(50),
      q: z.string().trim().max(CUSTOMER_SEARCH_MAX).optional(),
    }),
    response: z.object({
      customers: z.array(vendorCustomerSchema),
      nextCursor: z.string().nullable(),
    }),
  }),
} as const;
