import { z } from 'zod';

/**
 * The payments port: what the orders module needs from a payment provider. Stripe and the local
 * sandbox implement it; both turn their webhooks into the same `PaymentEvent`s.
 */

export type Interval = 'week' | 'month' | 'quarter' | 'year';

export interface CheckoutRequest {
  /** Our purchase id: travels in metadata on the session, payment and subscription. */
  purchaseId: string;
  mode: 'payment' | 'subscription';
  /** One line: the product or bundle at the price the buyer pays before any coupon. */
  item: { name: string; amount: number; currency: string; interval: Interval | null };
  /** Already-computed discount; `once` applies to the first payment only. */
  discount: { amountOff: number; duration: 'once' | 'forever'; couponId: string } | null;
  /**
   * The platform's member price (ADR 027): off every payment, on top of `item.amount`. Never combined
   * with `discount`; `label` names it on the hosted page.
   */
  memberDiscount?: { amountOff: number; label: string } | null;
  trialDays: number | null;
  buyer: { userId: string; email: string; customerId: string | null };
  /** The vendor's connected account (Stripe Connect), when onboarded. */
  connectedAccountId: string | null;
  /** Platform fee on the first payment, minor units (payment mode). */
  applicationFeeAmount: number;
  /** Platform fee as a percentage of each payment (subscription mode). */
  applicationFeePercent: number;
  successUrl: string;
  cancelUrl: string;
  /** The provider's own idempotency key for session creation. */
  idempotencyKey: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  expiresAt: Date;
}

export const paymentEventTypes = [
  /** Checkout paid (or a trial started): fulfil. */
  'checkout.completed',
  /** Checkout abandoned or expired: release what it reserved. */
  'checkout.expired',
  'payment.failed',
  'subscription.renewed',
  /** The buyer cancelled; access continues to `periodEnd` (`cancelAtPeriodEnd` false means resumed). */
  'subscription.updated',
  'subscription.ended',
  'refund',
  'dispute',
] as const;
export type PaymentEventType = (typeof paymentEventTypes)[number];

export interface PaymentEvent {
  /** The provider's event id: the deduplication key. */
  id: string;
  type: PaymentEventType;
  /**
   * Our purchase id from the provider's metadata. Refunds and disputes may lack it (Stripe does not
   * copy metadata onto every charge or dispute); the orders module then finds the purchase by
   * `paymentRef`.
   */
  purchaseId: string | null;
  occurredAt: Date;
  /** Provider payment reference (payment intent or invoice) for ledger idempotency. */
  paymentRef: string | null;
  /** Amount actually charged or refunded, minor units. */
  amount: number | null;
  currency: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean | null;
}

/** Where providers deliver webhooks; the orders module serves it. */
export const PAYMENTS_WEBHOOK_PATH = '/api/v1/payment/webhook';

// PostgreSQL text cannot hold NUL: refuse it here rather than fail in SQL.
const text = z
  .string()
  .min(1)
  .max(255)
  .refine((s) => !s.includes('\0'), 'Contains a NUL character.');
const ref = text.nullable();
const eventFields = {
  id: text,
  type: z.enum(paymentEventTypes),
  purchaseId: ref,
  paymentRef: ref,
  amount: z.number().int().min(0).max(100_000_000_00).nullable(),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/i)
    .nullable(),
  subscriptionId: ref,
  customerId: ref,
  cancelAtPeriodEnd: z.boolean().nullable(),
};

/** A mapped event, checked before the orders module acts on it: wrong shapes never reach SQL. */
export const paymentEventSchema = z.object({
  ...eventFields,
  occurredAt: z.date(),
  periodEnd: z.date().nullable(),
});

/**
 * Money sent to a connected account (an affiliate payout). `idempotencyKey` makes a retry after an
 * unknown outcome (a timeout, a crash) transfer once; `metadata` travels with it (`payout_id`).
 */
export interface TransferRequest {
  accountId: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** The provider refused the refund for good: repeating it with the same key fails the same way. */
export class RefundRefusedError extends Error {}

/** The provider refused the transfer for good: repeating it with the same key fails the same way. */
export class TransferRefusedError extends Error {}

export const transferEventTypes = [
  /** The transfer reached the connected account. */
  'transfer.paid',
  /** The provider could not complete it; the money never left. */
  'transfer.failed',
  /** The provider took a paid transfer back (Stripe's `transfer.reversed`). */
  'transfer.reversed',
] as const;
export type TransferEventType = (typeof transferEventTypes)[number];

/** What the provider says about a transfer; Stripe and the sandbox map theirs to this. */
export interface TransferEvent {
  id: string;
  type: TransferEventType;
  transferId: string | null;
  /** Ours, from the transfer's metadata. */
  payoutId: string | null;
  amount: number | null;
  currency: string | null;
  /** The provider's words on a failure or reversal. */
  reason: string | null;
  occurredAt: Date;
}

const transferFields = {
  id: text,
  type: z.enum(transferEventTypes),
  transferId: ref,
  payoutId: ref,
  amount: z.number().int().min(0).max(100_000_000_00).nullable(),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/i)
    .nullable(),
  reason: z
    .string()
    .max(500)
    .refine((s) => !s.includes('\0'), 'Contains a NUL character.')
    .nullable(),
};

/** A mapped transfer event, checked before anything acts on it. */
export const transferEventSchema = z.object({ ...transferFields, occurredAt: z.date() });

export class WebhookSignatureError extends Error {}
/** A correctly signed webhook whose body is not an event we can read. */
export class WebhookPayloadError extends Error {}

/** A connected account as the provider sees it (Stripe's Account object, the parts we use). */
export interface ConnectAccountStatus {
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  /** The onboarding form was submitted (Stripe's `details_submitted`). */
  detailsSubmitted: boolean;
  /** What is still due, in words (Stripe's `requirements.currently_due` and `past_due`). */
  requirements: string[];
  /** Stripe's `requirements.disabled_reason` code, or null. */
  disabledCode: string | null;
  /** The same, in words. */
  disabledReason: string | null;
}

/** A refund of a payment (all of what is left of it, or `amount`). */
export interface RefundRequest {
  paymentRef: string;
  purchaseId: string;
  amount?: number | undefined;
  reason: 'duplicate' | 'vendor';
  note?: string | undefined;
  idempotencyKey: string;
}

export interface PaymentsProvider {
  readonly name: 'stripe';
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** A page where the buyer manages subscriptions and payment methods. */
  createPortal(req: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Onboarding link for a vendor's connected account; creates the account when `accountId` is null. */
  createConnectOnboarding(req: {
    accountId: string | null;
    email: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ accountId: string; url: string }>;
  /** Whether a connected account can take charges and receive payouts yet, and what it still needs. */
  connectAccountStatus(accountId: string): Promise<ConnectAccountStatus>;
  /** A provider customer for a buyer with one vendor, created on their first checkout there. */
  ensureCustomer(req: {
    userId: string;
    vendorId: string;
    email: string;
    customerId: string | null;
  }): Promise<string>;
  /**
   * Other references the provider knows one payment by. Stripe refunds and disputes name a payment
   * intent, while subscription payments are recorded by invoice: this returns the invoice(s) a payment
   * intent paid, so such a refund finds its sale. Empty when there are none.
   */
  paymentAliases(paymentRef: string): Promise<string[]>;
  /**
   * Refunds one payment, in full or (with `amount`, minor units) in part: `duplicate` for a payment
   * for something already owned, `vendor` when the vendor refunds their sale (`note`: their reason).
   * The provider confirms it with a `refund` event later. Repeating it with the same idempotency key
   * refunds once. Throws `RefundRefusedError` when the provider refuses it for good (more than is
   * left, already refunded); any other error leaves the outcome unknown, and a retry with the same
   * key refunds at most once.
   */
  refund(req: RefundRequest): Promise<void>;
  /** Ends a subscription now (no proration, no further renewals). A second call changes nothing. */
  cancelSubscription(req: { subscriptionId: string; idempotencyKey: string }): Promise<void>;
  /**
   * Sends money to a connected account (an affiliate payout); answers the provider's transfer id.
   * Throws `TransferRefusedError` when the provider refuses it for good; any other error leaves the
   * outcome unknown, and a retry with the same idempotency key transfers at most once.
   */
  transfer(req: TransferRequest): Promise<{ transferId: string }>;
  /**
   * Verifies a webhook like `parseWebhook` and maps a transfer event to a `TransferEvent`; null for
   * every other event (which `parseWebhook` then reads).
   */
  parseTransferWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): TransferEvent | null;
  /**
   * Verifies a webhook on its raw body and maps it to a `PaymentEvent`; null for event types we ignore.
   * Throws `WebhookSignatureError` for a bad signature, a wrong secret or a stale timestamp, and
   * `WebhookPayloadError` for a signed body that is not an event. It may ask the provider for what the
   * event leaves out (a new subscription's period); failing that, it throws and the delivery is retried.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentEvent | null>;
}
