import Stripe from 'stripe';
import {
  paymentEventSchema,
  RefundRefusedError,
  transferEventSchema,
  TransferRefusedError,
  WebhookPayloadError,
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type Interval,
  type PaymentEvent,
  type PaymentEventType,
  type ConnectAccountStatus,
  type PaymentsProvider,
  type RefundRequest,
  type TransferEvent,
  type TransferRequest,
} from './port.ts';
import { disabledReasonSentence, requirementSentences } from './requirements.ts';

/** Stripe rejects webhook deliveries older than this (seconds); replays of captured payloads fail. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const recurringFor: Record<
  Interval,
  { interval: 'week' | 'month' | 'year'; interval_count: number }
> = {
  week: { interval: 'week', interval_count: 1 },
  month: { interval: 'month', interval_count: 1 },
  quarter: { interval: 'month', interval_count: 3 },
  year: { interval: 'year', interval_count: 1 },
};

/** Real adapter: Stripe Checkout, Billing portal and Connect (Express accounts, destination charges). */
export class StripePayments implements PaymentsProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(opts: { secretKey: string; webhookSecret: string; apiUrl?: string }) {
    this.webhookSecret = opts.webhookSecret;
    this.stripe = new Stripe(opts.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(opts.apiUrl ? hostOptions(opts.apiUrl) : {}),
    });
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
    const { item, discount } = req;
    // The member price is the price of every payment: charged directly, no Stripe coupon (a session
    // takes one discount, and a vendor coupon never combines with it).
    const memberOff = req.memberDiscount?.amountOff ?? 0;
    const purchase = { purchase_id: req.purchaseId };
    // The buyer sees why the price is lower: the line says it is the member price.
    const name = req.memberDiscount ? `${item.name} (${req.memberDiscount.label})` : item.name;
    const connected = req.connectedAccountId;
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: req.mode,
      client_reference_id: req.purchaseId,
      metadata: purchase,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      ...(req.buyer.customerId
        ? { customer: req.buyer.customerId }
        : { customer_email: req.buyer.email }),
    };

    if (req.mode === 'payment') {
      // A one-off payment needs no Stripe coupon: charge the discounted price directly.
      const unitAmount = Math.max(0, item.amount - (discount?.amountOff ?? 0) - memberOff);
      params.line_items = [lineItem(name, item.currency, unitAmount)];
      params.payment_intent_data = {
        metadata: purchase,
        ...(connected
          ? {
              application_fee_amount: req.applicationFeeAmount,
              transfer_data: { destination: connected },
            }
          : {}),
      };
    } else {
      if (!item.interval) throw new Error('A subscription checkout needs an interval');
      params.line_items = [
        lineItem(name, item.currency, item.amount - memberOff, recurringFor[item.interval]),
      ];
      params.subscription_data = {
        metadata: purchase,
        ...(req.trialDays ? { trial_period_days: req.trialDays } : {}),
        ...(connected
          ? {
              application_fee_percent: req.applicationFeePercent,
              transfer_data: { destination: connected },
            }
          : {}),
      };
      if (discount) {
        const coupon = await this.ensureCoupon(discount, item.currency);
        params.discounts = [{ coupon }];
      }
    }

    const session = await this.stripe.checkout.sessions.create(params, {
      idempotencyKey: req.idempotencyKey,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return {
      sessionId: session.id,
      url: session.url,
      expiresAt: new Date(session.expires_at * 1000),
    };
  }

  async createPortal(req: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: req.customerId,
      return_url: req.returnUrl,
    });
    return { url: session.url };
  }

  async createConnectOnboarding(req: {
    accountId: string | null;
    email: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ accountId: string; url: string }> {
    let accountId = req.accountId;
    if (!accountId) {
      const account = await this.stripe.accounts.create({
        type: 'express',
        email: req.email,
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      });
      accountId = account.id;
    }
    const link = await this.stripe.accountLinks.create({
      account: accountId,
      refresh_url: req.refreshUrl,
      return_url: req.returnUrl,
      type: 'account_onboarding',
    });
    return { accountId, url: link.url };
  }

  async connectAccountStatus(accountId: string): Promise<ConnectAccountStatus> {
    const account = await this.stripe.accounts.retrieve(accountId);
    const due = [
      ...(account.requirements?.past_due ?? []),
      ...(account.requirements?.currently_due ?? []),
    ];
    const disabledCode = account.requirements?.disabled_reason ?? null;
    return {
      chargesEnabled: account.charges_enabled === true,
      payoutsEnabled: account.payouts_enabled === true,
      detailsSubmitted: account.details_submitted === true,
      requirements: requirementSentences(due),
      disabledCode,
      disabledReason: disabledReasonSentence(disabledCode),
    };
  }

  async ensureCustomer(req: {
    userId: string;
    vendorId: string;
    email: string;
    customerId: string | null;
  }): Promise<string> {
    if (req.customerId) return req.customerId;
    // One customer per buyer and vendor: the billing portal then lists that vendor's subscriptions.
    const customer = await this.stripe.customers.create(
      { email: req.email, metadata: { user_id: req.userId, vendor_id: req.vendorId } },
      { idempotencyKey: `customer:${req.userId}:${req.vendorId}` },
    );
    return customer.id;
  }

  async paymentAliases(paymentRef: string): Promise<string[]> {
    if (!paymentRef.startsWith('pi_')) return [];
    const found = await this.stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentRef },
      limit: 3,
    });
    return found.data.map((p) => (typeof p.invoice === 'string' ? p.invoice : p.invoice.id));
  }

  /** A transfer to a connected account (Connect): the affiliate's payout. */
  async transfer(req: TransferRequest): Promise<{ transferId: string }> {
    try {
      const transfer = await this.stripe.transfers.create(
        {
          amount: req.amount,
          currency: req.currency,
          destination: req.accountId,
          metadata: req.metadata,
        },
        { idempotencyKey: req.idempotencyKey },
      );
      return { transferId: transfer.id };
    } catch (err) {
      // A 4xx is Stripe's answer (no balance, account not enabled …); a retry gets the same.
      // Rate limits, idempotency conflicts, 5xx and network failures leave the outcome unknown.
      if (
        err instanceof Stripe.errors.StripeError &&
        typeof err.statusCode === 'number' &&
        err.statusCode >= 400 &&
        err.statusCode < 500 &&
        err.statusCode !== 409 &&
        err.statusCode !== 429 &&
        !(err instanceof Stripe.errors.StripeIdempotencyError)
      ) {
        throw new TransferRefusedError(err.message);
      }
      throw err;
    }
  }

  parseTransferWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): TransferEvent | null {
    const event = this.verified(rawBody, headers);
    let mapped: TransferEvent | null;
    try {
      mapped = mapTransferEvent(event);
    } catch {
      throw new WebhookPayloadError('Unreadable Stripe event');
    }
    if (!mapped) return null;
    const checked = transferEventSchema.safeParse(mapped);
    if (!checked.success) throw new WebhookPayloadError('Unexpected Stripe event fields');
    return checked.data;
  }

  /** The event in a webhook with a valid signature. */
  private verified(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): WireEvent {
    const header = headerValue(headers, 'stripe-signature');
    if (!header) throw new WebhookSignatureError('Missing Stripe signature');
    let event: WireEvent;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        header,
        this.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      ) as unknown as WireEvent;
    } catch (err) {
      // The SDK parses the body once the signature holds: signed, but not JSON.
      if (err instanceof SyntaxError) throw new WebhookPayloadError('Not JSON');
      // The SDK's message echoes the header and hints at the cause; callers only need "rejected".
      throw new WebhookSignatureError('Invalid Stripe signature');
    }
    if (!isWireEvent(event)) throw new WebhookPayloadError('Not a Stripe event');
    return event;
  }

  async parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentEvent | null> {
    const event = this.verified(rawBody, headers);
    let mapped: PaymentEvent | null;
    try {
      mapped = mapEvent(event);
    } catch {
      throw new WebhookPayloadError('Unreadable Stripe event');
    }
    if (!mapped) return null;
    // Fields arrive in the endpoint's API version: check what we read before anything acts on it.
    const checked = paymentEventSchema.safeParse(mapped);
    if (!checked.success) throw new WebhookPayloadError('Unexpected Stripe event fields');
    const e = checked.data;
    // A checkout session names its subscription but not the period it paid for (or the trial's end):
    // ask Stripe, so access and the receipt's next payment date are known from the first event.
    if (e.type === 'checkout.completed' && e.subscriptionId && !e.periodEnd) {
      const sub = await this.stripe.subscriptions.retrieve(e.subscriptionId);
      const end = itemsPeriodEnd(sub as unknown as WireSubscription);
      return { ...e, periodEnd: date(end) };
    }
    return e;
  }

  async refund(req: RefundRequest): Promise<void> {
    // A charge id names itself; a payment intent or an invoice's payment intent otherwise.
    const target = req.paymentRef.startsWith('ch_')
      ? { charge: req.paymentRef }
      : await this.paymentIntentOf(req.paymentRef).then((pi) =>
          pi ? { payment_intent: pi } : null,
        );
    // A checkout that charged nothing (a trial) has no payment to refund.
    if (!target) {
      if (req.reason === 'vendor') throw new RefundRefusedError('No charge to refund.');
      return;
    }
    try {
      await this.stripe.refunds.create(
        {
          ...target,
          ...(req.amount !== undefined ? { amount: req.amount } : {}),
          reason: req.reason === 'duplicate' ? 'duplicate' : 'requested_by_customer',
          metadata: {
            purchase_id: req.purchaseId,
            ...(req.note ? { vendor_reason: req.note.slice(0, 500) } : {}),
          },
        },
        { idempotencyKey: req.idempotencyKey },
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') {
        if (req.reason === 'duplicate') return;
        throw new RefundRefusedError(err.message);
      }
      // Stripe said no to this request (an amount over what is left, a charge it cannot refund):
      // the same request fails the same way. Rate limits, conflicts and outages may pass.
      if (
        err instanceof Stripe.errors.StripeInvalidRequestError ||
        err instanceof Stripe.errors.StripeCardError
      )
        throw new RefundRefusedError(err.message);
      throw err;
    }
  }

  async cancelSubscription(req: { subscriptionId: string }): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(req.subscriptionId, { prorate: false });
    } catch (err) {
      // Already cancelled (or gone): the outcome we wanted.
      if (err instanceof Stripe.errors.StripeError && err.code === 'resource_missing') return;
      throw err;
    }
  }

  /** The payment intent behind a reference: itself, or the one that paid an invoice. */
  private async paymentIntentOf(paymentRef: string): Promise<string | null> {
    if (paymentRef.startsWith('pi_')) return paymentRef;
    if (!paymentRef.startsWith('in_')) return null;
    const found = await this.stripe.invoicePayments.list({ invoice: paymentRef, limit: 3 });
    for (const p of found.data) {
      const intent = p.payment.payment_intent;
      if (p.status === 'paid' && intent) return typeof intent === 'string' ? intent : intent.id;
    }
    return null;
  }

  /** Subscriptions need a real coupon; its id is derived from the discount so retries reuse it. */
  private async ensureCoupon(
    discount: NonNullable<CheckoutRequest['discount']>,
    currency: string,
  ): Promise<string> {
    const id = `ts_${discount.couponId}_${discount.amountOff}_${currency.toLowerCase()}_${discount.duration}`;
    try {
      await this.stripe.coupons.create({
        id,
        amount_off: discount.amountOff,
        currency,
        duration: discount.duration,
      });
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeError && err.code === 'resource_already_exists'))
        throw err;
    }
    return id;
  }
}

function hostOptions(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

function lineItem(
  name: string,
  currency: string,
  unitAmount: number,
  recurring?: Stripe.Checkout.SessionCreateParams.LineItem.PriceData.Recurring,
): Stripe.Checkout.SessionCreateParams.LineItem {
  return {
    quantity: 1,
    price_data: {
      currency,
      unit_amount: unitAmount,
      product_data: { name },
      ...(recurring ? { recurring } : {}),
    },
  };
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/*
 * Webhook payloads follow the endpoint's API version, not the SDK's pinned one, so they are read
 * through these loose shapes that accept both the older and the newer field locations.
 */
type Ref = string | { id: string } | null | undefined;
type Meta = Record<string, string> | null | undefined;

interface WireEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

interface WireSession {
  id: string;
  metadata?: Meta;
  client_reference_id?: string | null;
  payment_status?: string;
  payment_intent?: Ref;
  invoice?: Ref;
  subscription?: Ref;
  customer?: Ref;
  amount_total?: number | null;
  currency?: string | null;
}

interface WireInvoice {
  id: string;
  billing_reason?: string | null;
  amount_paid?: number;
  amount_due?: number;
  currency?: string;
  customer?: Ref;
  metadata?: Meta;
  /** Older API versions. */
  subscription?: Ref;
  subscription_details?: { metadata?: Meta } | null;
  /** Newer API versions. */
  parent?: { subscription_details?: { metadata?: Meta; subscription?: Ref } | null } | null;
  lines?: { data?: Array<{ period?: { end?: number }; metadata?: Meta }> };
}

interface WireSubscription {
  id: string;
  metadata?: Meta;
  customer?: Ref;
  currency?: string;
  cancel_at_period_end?: boolean;
  cancel_at?: number | null;
  ended_at?: number | null;
  /** Older API versions; newer ones keep it per item. */
  current_period_end?: number;
  items?: { data?: Array<{ current_period_end?: number }> };
}

interface WireCharge {
  id: string;
  metadata?: Meta;
  amount_refunded?: number;
  currency?: string;
  payment_intent?: Ref;
  customer?: Ref;
}

interface WireDispute {
  id: string;
  metadata?: Meta;
  amount?: number;
  currency?: string;
  payment_intent?: Ref;
  charge?: string | { id: string; metadata?: Meta } | null;
}

function isWireEvent(value: unknown): value is WireEvent {
  const e = value as Partial<WireEvent> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    !Array.isArray(e) &&
    typeof e.id === 'string' &&
    typeof e.type === 'string' &&
    typeof e.created === 'number' &&
    typeof e.data === 'object' &&
    e.data !== null &&
    typeof e.data.object === 'object' &&
    e.data.object !== null
  );
}

function refId(ref: Ref): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

function date(seconds: number | null | undefined): Date | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

function mapEvent(event: WireEvent): PaymentEvent | null {
  const obj = event.data.object;
  const base = {
    id: event.id,
    occurredAt: new Date(event.created * 1000),
    paymentRef: null,
    amount: null,
    currency: null,
    subscriptionId: null,
    customerId: null,
    periodEnd: null,
    cancelAtPeriodEnd: null,
  };
  const make = (
    type: PaymentEventType,
    purchaseId: string | null | undefined,
    fields: Partial<PaymentEvent> = {},
  ): PaymentEvent | null => (purchaseId ? { ...base, ...fields, type, purchaseId } : null);

  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = obj as unknown as WireSession;
      // 'unpaid' means an async method (e.g. bank debit) is still pending; async_payment_succeeded follows.
      if (s.payment_status !== 'paid' && s.payment_status !== 'no_payment_required') return null;
      return make('checkout.completed', sessionPurchaseId(s), {
        paymentRef: refId(s.payment_intent) ?? refId(s.invoice) ?? s.id,
        amount: s.amount_total ?? null,
        currency: s.currency ?? null,
        subscriptionId: refId(s.subscription),
        customerId: refId(s.customer),
      });
    }
    case 'checkout.session.expired': {
      const s = obj as unknown as WireSession;
      return make('checkout.expired', sessionPurchaseId(s), { customerId: refId(s.customer) });
    }
    case 'checkout.session.async_payment_failed': {
      const s = obj as unknown as WireSession;
      return make('payment.failed', sessionPurchaseId(s), {
        paymentRef: refId(s.payment_intent) ?? s.id,
        amount: s.amount_total ?? null,
        currency: s.currency ?? null,
        customerId: refId(s.customer),
      });
    }
    case 'invoice.paid': {
      const inv = obj as unknown as WireInvoice;
      // The first invoice is covered by checkout.session.completed.
      if (inv.billing_reason !== 'subscription_cycle') return null;
      const periodEnds = (inv.lines?.data ?? []).map((l) => l.period?.end ?? 0);
      return make('subscription.renewed', invoicePurchaseId(inv), {
        paymentRef: inv.id,
        amount: inv.amount_paid ?? null,
        currency: inv.currency ?? null,
        subscriptionId: invoiceSubscriptionId(inv),
        customerId: refId(inv.customer),
        periodEnd: periodEnds.length ? date(Math.max(...periodEnds)) : null,
      });
    }
    case 'invoice.payment_failed': {
      const inv = obj as unknown as WireInvoice;
      return make('payment.failed', invoicePurchaseId(inv), {
        paymentRef: inv.id,
        amount: inv.amount_due ?? null,
        currency: inv.currency ?? null,
        subscriptionId: invoiceSubscriptionId(inv),
        customerId: refId(inv.customer),
      });
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = obj as unknown as WireSubscription;
      const periodEnd = sub.current_period_end ?? itemsPeriodEnd(sub);
      const common = {
        subscriptionId: sub.id,
        customerId: refId(sub.customer),
        currency: sub.currency ?? null,
      };
      if (event.type === 'customer.subscription.deleted') {
        return make('subscription.ended', sub.metadata?.purchase_id, {
          ...common,
          periodEnd: date(sub.ended_at ?? periodEnd),
          cancelAtPeriodEnd: false,
        });
      }
      // Newer billing portals cancel by setting cancel_at instead of cancel_at_period_end.
      const cancelAt = sub.cancel_at ?? null;
      return make('subscription.updated', sub.metadata?.purchase_id, {
        ...common,
        cancelAtPeriodEnd: sub.cancel_at_period_end === true || cancelAt !== null,
        periodEnd: date(cancelAt ?? periodEnd),
      });
    }
    case 'charge.refunded': {
      const ch = obj as unknown as WireCharge;
      // Without purchase_id on the charge, the orders module matches the payment intent instead.
      return {
        ...base,
        type: 'refund',
        purchaseId: ch.metadata?.purchase_id ?? null,
        paymentRef: refId(ch.payment_intent) ?? ch.id,
        amount: ch.amount_refunded ?? null,
        currency: ch.currency ?? null,
        customerId: refId(ch.customer),
      };
    }
    case 'charge.dispute.created': {
      const d = obj as unknown as WireDispute;
      // Disputes rarely carry our metadata; the payment intent identifies the purchase then.
      const chargeMeta = typeof d.charge === 'object' && d.charge ? d.charge.metadata : undefined;
      const purchaseId = d.metadata?.purchase_id ?? chargeMeta?.purchase_id ?? null;
      const paymentRef = refId(d.payment_intent);
      if (!purchaseId && !paymentRef) return null;
      return {
        ...base,
        type: 'dispute',
        purchaseId,
        paymentRef,
        amount: d.amount ?? null,
        currency: d.currency ?? null,
      };
    }
    default:
      return null;
  }
}

interface WireTransfer {
  id: string;
  amount?: number;
  amount_reversed?: number;
  currency?: string;
  metadata?: Meta;
  reversed?: boolean;
}

/**
 * Transfers succeed or fail when created, so `transfer.created` confirms a payout and
 * `transfer.reversed` takes one back. A connected account's own bank payout failing
 * (`payout.failed` on that account) leaves the money in its Stripe balance: not ours to return.
 */
function mapTransferEvent(event: WireEvent): TransferEvent | null {
  if (event.type !== 'transfer.created' && event.type !== 'transfer.reversed') return null;
  const tr = event.data.object as unknown as WireTransfer;
  const reversed = event.type === 'transfer.reversed';
  return {
    id: event.id,
    type: reversed ? 'transfer.reversed' : 'transfer.paid',
    transferId: tr.id,
    payoutId: tr.metadata?.payout_id ?? null,
    amount: (reversed ? tr.amount_reversed : tr.amount) ?? null,
    currency: tr.currency ?? null,
    reason: reversed ? 'Stripe reversed the transfer.' : null,
    occurredAt: new Date(event.created * 1000),
  };
}

function sessionPurchaseId(s: WireSession): string | null {
  return s.metadata?.purchase_id ?? s.client_reference_id ?? null;
}

function invoicePurchaseId(inv: WireInvoice): string | null {
  return (
    inv.parent?.subscription_details?.metadata?.purchase_id ??
    inv.subscription_details?.metadata?.purchase_id ??
    inv.lines?.data?.find((l) => l.metadata?.purchase_id)?.metadata?.purchase_id ??
    null
  );
}

function invoiceSubscriptionId(inv: WireInvoice): string | null {
  return refId(inv.parent?.subscription_details?.subscription) ?? refId(inv.subscription);
}

function itemsPeriodEnd(sub: WireSubscription): number | undefined {
  const ends = (sub.items?.data ?? [])
    .map((i) => i.current_period_end)
    .filter((e): e is number => typeof e === 'number');
  return ends.length ? Math.max(...ends) : undefined;
}
