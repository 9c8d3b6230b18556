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

export type PaymentEventType =
  /** Checkout paid (or a trial started): fulfil. */
  | 'checkout.completed'
  /** Checkout abandoned or expired: release what it reserved. */
  | 'checkout.expired'
  | 'payment.failed'
  | 'subscription.renewed'
  /** The buyer cancelled; access continues to `periodEnd` (`cancelAtPeriodEnd` false means resumed). */
  | 'subscription.updated'
  | 'subscription.ended'
  | 'refund'
  | 'dispute';

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

export class WebhookSignatureError extends Error {}

export interface PaymentsProvider {
  readonly name: 'stripe' | 'sandbox';
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
  /** Whether a connected account can take charges and receive payouts yet. */
  connectAccountStatus(
    accountId: string,
  ): Promise<{ chargesEnabled: boolean; payoutsEnabled: boolean }>;
  /** A provider customer for a buyer, created on first checkout. */
  ensureCustomer(req: {
    userId: string;
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
   * Verifies a webhook on its raw body and maps it to a `PaymentEvent`; null for event types we ignore.
   * Throws `WebhookSignatureError` for a bad signature, a wrong secret or a stale timestamp.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): PaymentEvent | null;
}
