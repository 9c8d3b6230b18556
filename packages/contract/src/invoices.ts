import { z } from 'zod';
import { idSchema } from './common.ts';
import {
  ADDRESS_LINE_MAX,
  ADDRESS_LINES_MAX,
  BUSINESS_NAME_MAX,
  invoiceMessages as m,
  TAX_ID_MAX,
  TAX_NOTE_MAX,
  taxIdPattern,
} from './constants/invoices.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';

export * from './constants/invoices.ts';

const readable = (v: string) => !hasUnreadableCharacters(v.replace(/\n/g, ' '));
const name = z
  .string()
  .trim()
  .max(BUSINESS_NAME_MAX, m.nameLength)
  .refine(readable, { error: m.unreadable });
/** Lines kept as typed, trimmed; blank lines dropped. */
const address = z
  .string()
  .max(ADDRESS_LINES_MAX * (ADDRESS_LINE_MAX + 2), m.addressShape)
  .transform((v) =>
    v
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n'),
  )
  .refine(
    (v) => {
      const lines = v ? v.split('\n') : [];
      return lines.length <= ADDRESS_LINES_MAX && lines.every((l) => l.length <= ADDRESS_LINE_MAX);
    },
    { error: m.addressShape },
  )
  .refine(readable, { error: m.unreadable });

export const businessDetailsBody = z.object({
  /** The legal name printed as the seller; empty prints the storefront's name. */
  businessName: name,
  businessAddress: address,
  taxId: z
    .string()
    .trim()
    .max(TAX_ID_MAX, m.taxIdShape)
    .refine((v) => v === '' || taxIdPattern.test(v), { error: m.taxIdShape }),
  /** E.g. "VAT reverse charge" or "Not VAT registered". */
  taxNote: z
    .string()
    .trim()
    .max(TAX_NOTE_MAX, m.taxNoteLength)
    .refine(readable, { error: m.unreadable }),
});
export const businessDetailsSchema = z
  .object({
    businessName: z.string(),
    businessAddress: z.string(),
    taxId: z.string(),
    taxNote: z.string(),
  })
  .meta({ id: 'BusinessDetails' });
export type BusinessDetails = z.infer<typeof businessDetailsSchema>;

export const billingDetailsBody = z.object({ name, address });
export const billingDetailsSchema = z
  .object({ name: z.string(), address: z.string() })
  .meta({ id: 'BillingDetails' });
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

export const invoicesRoutes = {
  vendorBusinessDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/business-details',
    auth: 'bearer',
    summary: 'The seller details invoices print: legal name, address, tax number and tax note.',
    tags: ['vendor'],
    status: 200,
    response: z.object({ business: businessDetailsSchema }),
  }),
  saveVendorBusinessDetails: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/business-details',
    auth: 'bearer',
    summary:
      'Sets the seller details invoices print. Empty fields print nothing (an empty name prints the storefront’s).',
    tags: ['vendor'],
    status: 200,
    body: businessDetailsBody,
    response: z.object({ message: z.string(), business: businessDetailsSchema }),
  }),
  billingDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/account/billing',
    auth: 'bearer',
    summary: 'The buyer’s billing name and address, as receipts print them.',
    tags: ['account'],
    status: 200,
    response: z.object({ billing: billingDetailsSchema }),
  }),
  saveBillingDetails: defineRoute({
    method: 'PUT',
    path: '/api/v1/account/billing',
    auth: 'bearer',
    summary: 'Sets the billing name and address receipts print (past receipts too).',
    tags: ['account'],
    status: 200,
    body: billingDetailsBody,
    response: z.object({ message: z.string(), billing: billingDetailsSchema }),
  }),
  purchaseReceiptPdf: defineRoute({
    method: 'GET',
    path: '/api/v1/purchases/buyer/{id}/receipt.pdf',
    auth: 'bearer',
    summary:
      'The buyer’s receipt and invoice for one of their paid purchases, as PDF: seller and buyer details, line items, refunds. Another user’s id answers 404.',
    tags: ['orders'],
    status: 200,
    params: z.object({ id: idSchema }),
    produces: 'application/pdf',
    response: z.custom<Blob>(),
  }),
  vendorSaleInvoicePdf: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/purchases/{id}/invoice.pdf',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary: 'The same document for one of the vendor’s sales. Another vendor’s sale answers 404.',
    tags: ['vendor'],
    status: 200,
    params: z.object({ id: idSchema }),
    produces: 'application/pdf',
    response: z.custom<Blob>(),
  }),
} as const;
