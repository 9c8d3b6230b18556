import type Stripe from 'stripe';

/*
 * The Stripe sandbox's objects, built with the `stripe` package's own types: a field Stripe always
 * sends and these leave out, or a shape that drifts from Stripe's, fails the typecheck. Values are
 * what a test-mode account answers for the parts the sandbox does not model (no tax, no shipping).
 */

/** The API version the pinned SDK speaks; events are rendered in it. */
export const SANDBOX_API_VERSION = '2026-10-28.endive';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

type Meta = Record<string, string>;

/** One line of a checkout, as the session's `line_items[0][price_data]` described it. */
export interface SandboxLine {
  name: string;
  currency: string;
  unitAmount: number;
  quantity: number;
  recurring: { interval: 'day' | 'week' | 'month' | 'year'; interval_count: number } | null;
}

export function checkoutSession(p: {
  id: string;
  created: number;
  expiresAt: number;
  url: string;
  params: Stripe.Checkout.SessionCreateParams;
  customer: string | null;
  line: SandboxLine;
  amountDiscount: number;
}): Stripe.Checkout.Session {
  const { params } = p;
  const subtotal = p.line.unitAmount * p.line.quantity;
  return {
    id: p.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: subtotal,
    amount_total: Math.max(0, subtotal - p.amountDiscount),
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: params.cancel_url ?? null,
    client_reference_id: params.client_reference_id ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: p.created,
    currency: p.line.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: p.customer,
    customer_account: null,
    customer_creation: p.customer ? null : 'if_required',
    customer_details: null,
    customer_email: params.customer_email ?? null,
    discounts: (params.discounts ?? []).map((d) => ({
      coupon: typeof d.coupon === 'string' ? d.coupon : null,
      promotion_code: null,
    })),
    expires_at: p.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: (params.metadata as Meta | undefined) ?? {},
    mode: params.mode ?? 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: params.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: params.success_url ?? null,
    total_details: { amount_discount: p.amountDiscount, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: p.url,
    wallet_options: null,
  };
}

export function customer(p: {
  id: string;
  created: number;
  email: string | null;
  metadata: Meta;
}): Stripe.Customer {
  return {
    id: p.id,
    object: 'customer',
    balance: 0,
    created: p.created,
    default_source: null,
    description: null,
    email: p.email,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: p.metadata,
    shipping: null,
  };
}

export function portalSession(p: {
  id: string;
  created: number;
  customer: string;
  returnUrl: string | null;
  url: string;
}): Stripe.BillingPortal.Session {
  return {
    id: p.id,
    object: 'billing_portal.session',
    configuration: 'bpc_sandbox_default',
    created: p.created,
    customer: p.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: p.returnUrl,
    url: p.url,
  };
}

export function coupon(p: {
  id: string;
  created: number;
  amountOff: number | null;
  percentOff: number | null;
  currency: string | null;
  duration: Stripe.Coupon.Duration;
  durationInMonths: number | null;
  name: string | null;
  metadata: Meta;
}): Stripe.Coupon {
  return {
    id: p.id,
    object: 'coupon',
    amount_off: p.amountOff,
    created: p.created,
    currency: p.currency,
    duration: p.duration,
    duration_in_months: p.durationInMonths,
    livemode: false,
    max_redemptions: null,
    metadata: p.metadata,
    name: p.name,
    percent_off: p.percentOff,
    redeem_by: null,
    times_redeemed: 0,
    valid: true,
  };
}

export function charge(p: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  paymentIntent: string;
  metadata: Meta;
  applicationFeeAmount: number | null;
  destination: string | null;
  email: string | null;
}): Stripe.Charge {
  return {
    id: p.id,
    object: 'charge',
    amount: p.amount,
    amount_captured: p.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: p.applicationFeeAmount,
    balance_transaction: `txn_${p.id.slice(3)}`,
    billing_details: { address: null, email: p.email, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'TRADESHELF',
    captured: true,
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: p.metadata,
    on_behalf_of: null,
    outcome: null,
    paid: true,
    payment_intent: p.paymentIntent,
    payment_method: `pm_${p.id.slice(3)}`,
    payment_method_details: null,
    receipt_email: p.email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: p.destination ? { amount: null, destination: p.destination } : null,
    transfer_group: null,
  };
}

export function refund(p: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  charge: string;
  customer: string | null;
  paymentIntent: string | null;
  reason: Stripe.Refund.Reason | null;
  metadata: Meta;
}): Stripe.Refund {
  return {
    id: p.id,
    object: 'refund',
    amount: p.amount,
    balance_transaction: `txn_${p.id.slice(3)}`,
    charge: p.charge,
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    metadata: p.metadata,
    payment_intent: p.paymentIntent,
    payment_method: null,
    reason: p.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function dispute(p: { id: string; created: number; charge: Stripe.Charge }): Stripe.Dispute {
  return {
    id: p.id,
    object: 'dispute',
    amount: p.charge.amount,
    balance_transactions: [],
    charge: p.charge.id,
    created: p.created,
    currency: p.charge.currency,
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: null,
      billing_address: null,
      cancellation_policy: null,
      cancellation_policy_disclosure: null,
      cancellation_rebuttal: null,
      customer_communication: null,
      customer_email_address: null,
      customer_name: null,
      customer_purchase_ip: null,
      customer_signature: null,
      duplicate_charge_documentation: null,
      duplicate_charge_explanation: null,
      duplicate_charge_id: null,
      enhanced_evidence: {},
      product_description: null,
      receipt: null,
      refund_policy: null,
      refund_policy_disclosure: null,
      refund_refusal_explanation: null,
      service_date: null,
      service_documentation: null,
      shipping_address: null,
      shipping_carrier: null,
      shipping_date: null,
      shipping_documentation: null,
      shipping_tracking_number: null,
      uncategorized_file: null,
      uncategorized_text: null,
    },
    evidence_details: {
      due_by: p.created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    // Stripe copies nothing onto a dispute: the payment intent identifies the purchase.
    metadata: {},
    payment_intent: typeof p.charge.payment_intent === 'string' ? p.charge.payment_intent : null,
    reason: 'fraudulent',
    status: 'needs_response',
  };
}

export function subscription(p: {
  id: string;
  itemId: string;
  created: number;
  customer: string;
  line: SandboxLine & { recurring: NonNullable<SandboxLine['recurring']> };
  periodStart: number;
  periodEnd: number;
  trialEnd: number | null;
  metadata: Meta;
  applicationFeePercent: number | null;
  destination: string | null;
  discounts: string[];
  latestInvoice: string | null;
}): Stripe.Subscription {
  const price: Stripe.Price = {
    id: `price_${p.id.slice(4)}`,
    object: 'price',
    active: false,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.line.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: `prod_${p.id.slice(4)}`,
    recurring: {
      interval: p.line.recurring.interval,
      interval_count: p.line.recurring.interval_count,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: p.line.unitAmount,
    unit_amount_decimal: String(
      p.line.unitAmount,
    ) as unknown as Stripe.Price['unit_amount_decimal'],
  };
  const plan: Stripe.Plan = {
    id: price.id,
    object: 'plan',
    active: false,
    amount: p.line.unitAmount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.line.currency,
    interval: p.line.recurring.interval,
    interval_count: p.line.recurring.interval_count,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
  const item: Stripe.SubscriptionItem = {
    id: p.itemId,
    object: 'subscription_item',
    billing_thresholds: null,
    created: p.created,
    current_period_end: p.periodEnd,
    current_period_start: p.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan,
    price,
    quantity: p.line.quantity,
    subscription: p.id,
    tax_rates: [],
  };
  const trialing = p.trialEnd !== null && p.trialEnd > nowSeconds();
  return {
    id: p.id,
    object: 'subscription',
    application: null,
    application_fee_percent: p.applicationFeePercent,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: p.periodEnd,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: p.created,
    currency: p.line.currency,
    customer: p.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: p.discounts,
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${p.id}`,
    },
    latest_invoice: p.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: null,
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: p.created,
    status: trialing ? 'trialing' : 'active',
    test_clock: null,
    transfer_data: p.destination ? { amount_percent: null, destination: p.destination } : null,
    trial_end: p.trialEnd,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: p.trialEnd ? p.created : null,
  };
}

export function invoice(p: {
  id: string;
  created: number;
  sub: Stripe.Subscription;
  billingReason: 'subscription_create' | 'subscription_cycle';
  amount: number;
  paid: boolean;
  periodStart: number;
  periodEnd: number;
}): Stripe.Invoice {
  const customer = typeof p.sub.customer === 'string' ? p.sub.customer : p.sub.customer.id;
  const line: Stripe.InvoiceLineItem = {
    id: `il_${p.id.slice(3)}`,
    object: 'line_item',
    amount: p.amount,
    currency: p.sub.currency,
    description: null,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: p.id,
    livemode: false,
    metadata: p.sub.metadata,
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: null,
        subscription: p.sub.id,
        subscription_item: p.sub.items.data[0]!.id,
      },
      type: 'subscription_item_details',
    },
    period: { start: p.periodStart, end: p.periodEnd },
    pretax_credit_amounts: [],
    pricing: null,
    quantity: 1,
    quantity_decimal: null,
    subscription: p.sub.id,
    subtotal: p.amount,
    taxes: [],
  };
  return {
    id: p.id,
    object: 'invoice',
    account_country: 'DE',
    account_name: 'Tradeshelf sandbox',
    account_tax_ids: null,
    amount_due: p.amount,
    amount_overpaid: 0,
    amount_paid: p.paid ? p.amount : 0,
    amount_remaining: p.paid ? 0 : p.amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: null,
    billing_reason: p.billingReason,
    collection_method: 'charge_automatically',
    created: p.created,
    currency: p.sub.currency,
    custom_fields: null,
    customer,
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: p.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${p.id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: p.paid ? null : p.created + 3 * 86_400,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: p.sub.metadata, subscription: p.sub.id },
      type: 'subscription_details',
    },
    payment_settings: {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
    },
    period_end: p.periodEnd,
    period_start: p.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: p.paid ? 'paid' : 'open',
    status_transitions: {
      finalized_at: p.created,
      marked_uncollectible_at: null,
      paid_at: p.paid ? p.created : null,
      voided_at: null,
    },
    subtotal: p.amount,
    subtotal_excluding_tax: p.amount,
    test_clock: null,
    total: p.amount,
    total_discount_amounts: [],
    total_excluding_tax: p.amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
}

export function invoicePayment(p: {
  id: string;
  created: number;
  invoice: string;
  paymentIntent: string;
  amount: number;
  currency: string;
}): Stripe.InvoicePayment {
  return {
    id: p.id,
    object: 'invoice_payment',
    amount_paid: p.amount,
    amount_requested: p.amount,
    created: p.created,
    currency: p.currency,
    invoice: p.invoice,
    is_default: true,
    livemode: false,
    payment: { payment_intent: p.paymentIntent, type: 'payment_intent' },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: p.created },
  };
}

/** What a fresh Express account still owes before it can take charges (Stripe's test mode). */
export const EXPRESS_CURRENTLY_DUE = [
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.dob.month',
  'individual.verification.document',
  'tos_acceptance.date',
];

export type AccountState = 'new' | 'pending_verification' | 'active' | 'restricted';

export function account(p: {
  id: string;
  created: number;
  email: string | null;
  type: Stripe.Account.Type;
  state: AccountState;
  businessName: string | null;
  metadata: Meta;
}): Stripe.Account {
  const active = p.state === 'active';
  const submitted = p.state !== 'new';
  const due = submitted ? [] : EXPRESS_CURRENTLY_DUE;
  const disabled: Stripe.Account.Requirements.DisabledReason | null = active
    ? null
    : p.state === 'pending_verification'
      ? 'requirements.pending_verification'
      : p.state === 'restricted'
        ? 'rejected.other'
        : 'requirements.past_due';
  return {
    id: p.id,
    object: 'account',
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: null,
      minority_owned_business_designation: null,
      name: p.businessName,
      product_description: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      specified_commercial_transactions_act_url: null,
      url: null,
    },
    business_type: submitted ? 'individual' : null,
    capabilities: {
      card_payments: active ? 'active' : 'inactive',
      transfers: active ? 'active' : 'inactive',
    },
    charges_enabled: active,
    country: 'DE',
    created: p.created,
    default_currency: 'eur',
    details_submitted: submitted,
    email: p.email,
    metadata: p.metadata,
    payouts_enabled: active,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: due,
      disabled_reason: disabled,
      errors: [],
      eventually_due: due,
      past_due: due,
      pending_verification: p.state === 'pending_verification' ? ['individual.id_number'] : [],
    },
    type: p.type,
  };
}

export function accountLink(p: { created: number; url: string }): Stripe.AccountLink {
  return { object: 'account_link', created: p.created, expires_at: p.created + 300, url: p.url };
}

export function transfer(p: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  destination: string;
  metadata: Meta;
  description: string | null;
  transferGroup: string | null;
}): Stripe.Transfer {
  return {
    id: p.id,
    object: 'transfer',
    amount: p.amount,
    amount_reversed: 0,
    balance_transaction: `txn_${p.id.slice(3)}`,
    created: p.created,
    currency: p.currency,
    description: p.description,
    destination: p.destination,
    destination_payment: `py_${p.id.slice(3)}`,
    livemode: false,
    metadata: p.metadata,
    reversals: {
      object: 'list',
      data: [],
      has_more: false,
      url: `/v1/transfers/${p.id}/reversals`,
    },
    reversed: false,
    source_transaction: null,
    source_type: 'card',
    transfer_group: p.transferGroup,
  };
}

export function transferReversal(p: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  transfer: string;
  metadata: Meta;
}): Stripe.TransferReversal {
  return {
    id: p.id,
    object: 'transfer_reversal',
    amount: p.amount,
    balance_transaction: `txn_${p.id.slice(4)}`,
    created: p.created,
    currency: p.currency,
    destination_payment_refund: null,
    metadata: p.metadata,
    source_refund: null,
    transfer: p.transfer,
  };
}

/** An event as Stripe renders it for a webhook endpoint and `GET /v1/events`. */
export function event(p: {
  id: string;
  created: number;
  type: Stripe.Event.Type;
  object: { object: string };
  previous?: Record<string, unknown> | undefined;
  request: { id: string | null; idempotency_key: string | null } | null;
}): Stripe.Event {
  return {
    id: p.id,
    object: 'event',
    api_version: SANDBOX_API_VERSION,
    created: p.created,
    data: {
      object: p.object,
      ...(p.previous ? { previous_attributes: p.previous } : {}),
    },
    livemode: false,
    pending_webhooks: 1,
    request: p.request,
    type: p.type,
  } as Stripe.Event;
}
