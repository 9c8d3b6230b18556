import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import { backoff, safeEqual } from '../../lib.ts';
import { PAYMENTS_WEBHOOK_PATH } from './port.ts';
import * as build from './stripe-sandbox-objects.ts';
import { nowSeconds, type AccountState, type SandboxLine } from './stripe-sandbox-objects.ts';
import { sandboxStripeEvents, sandboxStripeObjects, sandboxStripeRequests } from './tables.ts';

/*
 * The Stripe-compatible payments sandbox: the state behind `/v1/...` (see `stripe-sandbox-routes.ts`)
 * and behind its hosted pages, which act through the same methods. Every object is kept as the JSON
 * Stripe would answer, in PostgreSQL; every change that Stripe reports by webhook records its event
 * in the same transaction, then delivers it signed as Stripe signs (`Stripe-Signature`).
 */

/** Stripe's error body: `{ error: { type, code, message, param } }` with its HTTP status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'api_error' | 'card_error',
    message: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }

  body() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

/** The 400 most refusals are: Stripe's `invalid_request_error`, with its code and param if any. */
const badRequest = (message: string, code: string | null = null, param: string | null = null) =>
  new StripeApiError(400, 'invalid_request_error', message, code, param);

const missing = (what: string, id: string, param: string | null, status = 404) =>
  new StripeApiError(
    status,
    'invalid_request_error',
    `No such ${what}: '${id}'`,
    'resource_missing',
    param,
  );

/** Sends one event body with its `Stripe-Signature` header to the webhook endpoint; answers the status. */
export type StripeWebhookTransport = (body: string, signature: string) => Promise<number>;

/** Delivers by HTTP to the app's webhook endpoint, as Stripe does (where no app runs in this process). */
export function stripeHttpTransport(origin: string): StripeWebhookTransport {
  return async (body, signature) => {
    const res = await fetch(new URL(PAYMENTS_WEBHOOK_PATH, origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signature,
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

/** Which API request caused a change (an event's `request`); null for the dashboard's and pages' own. */
export interface RequestContext {
  id: string;
  idempotencyKey: string | null;
}

/** How long Stripe retries an undelivered event: three days. */
const RETRY_FOR_SECONDS = 3 * 24 * 3600;
const CLAIM_SECONDS = 60;
const SESSION_SECONDS = 24 * 3600;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** An id in Stripe's style: prefix, underscore, letters and digits. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return `${prefix}_${out}`;
}

type Params = Record<string, unknown>;
type Row = { data: Record<string, unknown>; private: Record<string, unknown> };

/** What the sandbox keeps about a checkout besides the session Stripe shows. */
export interface SessionPrivate {
  params: Stripe.Checkout.SessionCreateParams;
  line: SandboxLine;
  coupon: Stripe.Coupon | null;
}

/** What it keeps about a subscription: its line, its coupon and how many payments were charged. */
export interface SubscriptionPrivate {
  line: SandboxLine & { recurring: NonNullable<SandboxLine['recurring']> };
  coupon: Stripe.Coupon | null;
  /** Charges made so far (a trial's first invoice charges nothing). */
  charges: number;
  /** The session that started it (its hosted pages find it from there). */
  session: string;
  email: string | null;
}

/** One transaction's writes: objects, and the events reporting them, sent once it commits. */
class Work {
  readonly events: string[] = [];
  constructor(
    readonly tx: Db,
    private readonly request: RequestContext | null,
    /** History being written (a seeded sale): no events, as none were news to anyone. */
    private readonly quiet = false,
  ) {}

  async get<T>(id: string, type: string): Promise<{ data: T; private: Params } | null> {
    const [row] = await this.tx
      .select({ data: sandboxStripeObjects.data, private: sandboxStripeObjects.private })
      .from(sandboxStripeObjects)
      .where(and(eq(sandboxStripeObjects.id, id), eq(sandboxStripeObjects.type, type)))
      .for('update');
    return (row as { data: T; private: Params } | undefined) ?? null;
  }

  /** `get`, or Stripe's `resource_missing` naming `param` when there is no such object. */
  async need<T>(id: string, type: string, param: string): Promise<{ data: T; private: Params }> {
    const found = await this.get<T>(id, type);
    if (!found) throw missing(type, id, param);
    return found;
  }

  async insert(object: { id: string; object: string }, priv: object = {}): Promise<void> {
    await this.tx.insert(sandboxStripeObjects).values({
      id: object.id,
      type: object.object,
      data: object as unknown as Params,
      private: priv as Params,
    });
  }

  async update(object: { id: string }, priv?: object): Promise<void> {
    await this.tx
      .update(sandboxStripeObjects)
      .set({
        data: object as unknown as Params,
        ...(priv ? { private: priv as Params } : {}),
      })
      .where(eq(sandboxStripeObjects.id, object.id));
  }

  /** Inserts a new object and reports it as `type` (`customer.created` …). */
  async create(type: Stripe.Event.Type, object: { id: string; object: string }): Promise<void> {
    await this.insert(object);
    await this.emit(type, object);
  }

  /** Saves a changed object and reports it as `type`; `previous` as in `emit`. Answers the object. */
  async change<T extends { id: string; object: string }>(
    type: Stripe.Event.Type,
    object: T,
    previous?: Record<string, unknown>,
  ): Promise<T> {
    await this.update(object);
    await this.emit(type, object, previous);
    return object;
  }

  /** Records an event about `object` (as it is now); `previous` is Stripe's `previous_attributes`. */
  async emit(
    type: Stripe.Event.Type,
    object: { object: string },
    previous?: Record<string, unknown>,
  ): Promise<void> {
    if (this.quiet) return;
    const id = stripeId('evt');
    const event = build.event({
      id,
      created: nowSeconds(),
      type,
      object,
      previous,
      request: this.request
        ? { id: this.request.id, idempotency_key: this.request.idempotencyKey }
        : null,
    });
    await this.tx
      .insert(sandboxStripeEvents)
      .values({ id, type, data: event as unknown as Params });
    this.events.push(id);
  }
}

export interface StripeSandboxOptions {
  /** The one API key it accepts (`Authorization: Bearer …`). */
  secretKey: string;
  /** Signs webhook deliveries, as the endpoint's signing secret (`whsec_…`) does at Stripe. */
  webhookSecret: string;
  /** Where its hosted pages are reached; null: the origin the API request came to. */
  publicUrl: string | null;
}

export class StripeSandbox {
  constructor(
    private readonly db: Db,
    readonly options: StripeSandboxOptions,
    private transport: StripeWebhookTransport | null = null,
  ) {}

  /** Where events go; null keeps them (listed by `GET /v1/events`) without delivering. */
  setTransport(transport: StripeWebhookTransport | null): void {
    this.transport = transport;
  }

  /** Whether an `Authorization` header carries the configured key (constant-time). */
  authorized(header: string | undefined): boolean {
    const key = apiKeyOf(header);
    return key !== null && safeEqual(key, this.options.secretKey);
  }

  private async work<T>(
    request: RequestContext | null,
    fn: (w: Work) => Promise<T>,
    quiet = false,
  ): Promise<T> {
    const events: string[] = [];
    const result = await this.db.transaction(async (tx) => {
      const w = new Work(tx as unknown as Db, request, quiet);
      const out = await fn(w);
      events.push(...w.events);
      return out;
    });
    for (const id of events) await this.send(id);
    return result;
  }

  async retrieve<T>(id: string, type: string, what: string): Promise<T> {
    const [row] = await this.db
      .select({ data: sandboxStripeObjects.data })
      .from(sandboxStripeObjects)
      .where(and(eq(sandboxStripeObjects.id, id), eq(sandboxStripeObjects.type, type)));
    if (!row) throw missing(what, id, 'id');
    return row.data as T;
  }

  async retrieveEvent(id: string): Promise<Stripe.Event> {
    const [row] = await this.db
      .select({ data: sandboxStripeEvents.data })
      .from(sandboxStripeEvents)
      .where(eq(sandboxStripeEvents.id, id));
    if (!row) throw missing('event', id, 'id');
    return row.data as unknown as Stripe.Event;
  }

  /** A row with its private part, for the hosted pages. */
  async row(id: string, type: string): Promise<Row | null> {
    const [row] = await this.db
      .select({ data: sandboxStripeObjects.data, private: sandboxStripeObjects.private })
      .from(sandboxStripeObjects)
      .where(and(eq(sandboxStripeObjects.id, id), eq(sandboxStripeObjects.type, type)));
    return row ?? null;
  }

  /**
   * A Stripe list, newest first: `limit` (1–100, default 10), `starting_after` / `ending_before`
   * an id in the list, `has_more`. `filter` matches by containment in the object's JSON.
   */
  async list(
    type: string,
    url: string,
    params: Params,
    filter: Params = {},
  ): Promise<Stripe.ApiList<unknown>> {
    const limit = params.limit === undefined ? 10 : integer(params.limit, 'limit');
    if (limit < 1 || limit > 100)
      throw badRequest(
        'This value must be greater than or equal to 1 and less than or equal to 100.',
        'parameter_invalid_integer',
        'limit',
      );
    const table = type === 'event' ? sandboxStripeEvents : sandboxStripeObjects;
    const typeCond = type === 'event' ? sql`true` : sql`${sandboxStripeObjects.type} = ${type}`;
    const cursorOf = async (id: unknown, param: string) => {
      if (typeof id !== 'string') throw invalid(param, 'must be an id');
      const [row] = await this.db
        .select({ seq: table.seq })
        .from(table)
        .where(and(eq(table.id, id), typeCond));
      if (!row) throw missing('object', id, param, 400);
      return row.seq;
    };
    const after =
      params.starting_after !== undefined
        ? await cursorOf(params.starting_after, 'starting_after')
        : null;
    const before =
      params.ending_before !== undefined
        ? await cursorOf(params.ending_before, 'ending_before')
        : null;
    const rows = await this.db
      .select({ data: table.data })
      .from(table)
      .where(
        and(
          typeCond,
          sql`${table.data} @> ${JSON.stringify(filter)}::jsonb`,
          after !== null ? sql`${table.seq} < ${after}` : undefined,
          before !== null ? sql`${table.seq} > ${before}` : undefined,
        ),
      )
      .orderBy(before !== null ? sql`${table.seq} asc` : sql`${table.seq} desc`)
      .limit(limit + 1);
    const page = rows.slice(0, limit).map((r) => r.data);
    if (before !== null) page.reverse();
    return { object: 'list', url, has_more: rows.length > limit, data: page };
  }

  /* ---------------------------------------------------------------- Customers and coupons */

  async createCustomer(params: Params, request: RequestContext | null): Promise<Stripe.Customer> {
    const c = build.customer({
      id: stripeId('cus', 14),
      created: nowSeconds(),
      email: optionalString(params.email, 'email'),
      metadata: metadata(params.metadata),
    });
    return this.work(request, async (w) => {
      await w.create('customer.created', c);
      return c;
    });
  }

  async createCoupon(params: Params, request: RequestContext | null): Promise<Stripe.Coupon> {
    const duration = oneOf(params.duration, 'duration', ['once', 'forever', 'repeating'] as const);
    const amountOff =
      params.amount_off === undefined ? null : integer(params.amount_off, 'amount_off');
    const percentOff =
      params.percent_off === undefined ? null : decimal(params.percent_off, 'percent_off');
    if ((amountOff === null) === (percentOff === null))
      throw invalid('amount_off', 'Exactly one of amount_off or percent_off is required.');
    const currency = optionalString(params.currency, 'currency')?.toLowerCase() ?? null;
    if (amountOff !== null && !currency)
      throw badRequest(
        'You must pass currency when passing amount_off.',
        'parameter_missing',
        'currency',
      );
    const c = build.coupon({
      id: optionalString(params.id, 'id') ?? stripeId('', 8).slice(1),
      created: nowSeconds(),
      amountOff,
      percentOff,
      currency,
      duration,
      durationInMonths:
        duration === 'repeating' ? integer(params.duration_in_months, 'duration_in_months') : null,
      name: optionalString(params.name, 'name'),
      metadata: metadata(params.metadata),
    });
    return this.work(request, async (w) => {
      if (await w.get(c.id, 'coupon'))
        throw badRequest('Coupon already exists.', 'resource_already_exists', 'id');
      await w.create('coupon.created', c);
      return c;
    });
  }

  /* ---------------------------------------------------------------- Checkout */

  async createCheckoutSession(
    raw: Params,
    origin: string,
    request: RequestContext | null,
    /** A seeded sale's own id and time. */
    seed?: { id: string; created: number },
  ): Promise<Stripe.Checkout.Session> {
    const params = raw as Stripe.Checkout.SessionCreateParams;
    const mode = oneOf(params.mode, 'mode', ['payment', 'subscription'] as const);
    const items = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length !== 1) throw invalid('line_items', 'The sandbox takes exactly one line item.');
    const item = items[0]!;
    const pd = item.price_data;
    if (!pd)
      throw invalid('line_items[0][price_data]', 'The sandbox takes price_data, not price ids.');
    const recurring = pd.recurring
      ? {
          interval: oneOf(pd.recurring.interval, 'line_items[0][price_data][recurring][interval]', [
            'day',
            'week',
            'month',
            'year',
          ] as const),
          interval_count:
            pd.recurring.interval_count === undefined
              ? 1
              : integer(
                  pd.recurring.interval_count,
                  'line_items[0][price_data][recurring][interval_count]',
                ),
        }
      : null;
    if (mode === 'subscription' && !recurring)
      throw invalid(
        'line_items[0][price_data][recurring]',
        'You must provide at least one recurring price in `subscription` mode when using prices.',
      );
    if (mode === 'payment' && recurring)
      throw invalid(
        'line_items[0][price_data][recurring]',
        'You specified `payment` mode but passed a recurring price.',
      );
    const line: SandboxLine = {
      name: requiredString(pd.product_data?.name, 'line_items[0][price_data][product_data][name]'),
      currency: requiredString(pd.currency, 'line_items[0][price_data][currency]').toLowerCase(),
      unitAmount: integer(pd.unit_amount, 'line_items[0][price_data][unit_amount]'),
      quantity: item.quantity === undefined ? 1 : integer(item.quantity, 'line_items[0][quantity]'),
      recurring,
    };
    const successUrl = requiredString(params.success_url, 'success_url');
    requiredString(params.cancel_url ?? '-', 'cancel_url');
    const trial = params.subscription_data?.trial_period_days;
    if (trial !== undefined) integer(trial, 'subscription_data[trial_period_days]');
    const created = seed?.created ?? nowSeconds();
    const id = seed?.id ?? stripeId('cs_test', 58);
    return this.work(
      request,
      async (w) => {
        let customerId: string | null = null;
        if (params.customer !== undefined) {
          customerId = requiredString(params.customer, 'customer');
          if (!(await w.get(customerId, 'customer')))
            throw missing('customer', customerId, 'customer', 400);
        }
        let coupon: Stripe.Coupon | null = null;
        const discount = params.discounts?.[0]?.coupon;
        if (discount !== undefined) {
          const found = await w.get<Stripe.Coupon>(String(discount), 'coupon');
          if (!found) throw missing('coupon', String(discount), 'discounts[0][coupon]', 400);
          coupon = found.data;
        }
        const subtotal = line.unitAmount * line.quantity;
        const off = couponOff(coupon, subtotal, line.currency);
        const session = build.checkoutSession({
          id,
          created,
          expiresAt:
            params.expires_at !== undefined
              ? integer(params.expires_at, 'expires_at')
              : created + SESSION_SECONDS,
          url: new URL(`/sandbox/checkout/${id}`, origin).toString(),
          params,
          customer: customerId,
          line,
          // A trial charges nothing today: Stripe's amount_total is what the buyer pays now.
          amountDiscount: trial ? subtotal : off,
        });
        void successUrl;
        const priv: SessionPrivate = { params, line, coupon };
        await w.insert(session, priv);
        return session;
      },
      seed !== undefined,
    );
  }

  async expireCheckoutSession(
    id: string,
    request: RequestContext | null,
  ): Promise<Stripe.Checkout.Session> {
    return this.work(request, async (w) => {
      const found = await w.need<Stripe.Checkout.Session>(id, 'checkout.session', 'session');
      const s = found.data;
      if (s.status !== 'open')
        throw badRequest(
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
        );
      const next: Stripe.Checkout.Session = { ...s, status: 'expired', url: null };
      return w.change('checkout.session.expired', next, { status: 'open', url: s.url });
    });
  }

  /**
   * The hosted page's Pay: completes an open session as Stripe does once the card is accepted —
   * a payment intent and charge (payment mode), or a customer, subscription and first invoice
   * (subscription mode, nothing charged during a trial) — then `checkout.session.completed`.
   * A second Pay changes nothing. Returns the session, or null when it does not exist.
   */
  async completeCheckoutSession(
    id: string,
    /** A seeded sale: paid `at`, with its own payment intent and subscription ids, and no events. */
    seed?: { at: number; paymentIntent: string; subscription: string | null },
  ): Promise<Stripe.Checkout.Session | null> {
    return this.work(
      null,
      async (w) => {
        const found = await w.get<Stripe.Checkout.Session>(id, 'checkout.session');
        if (!found) return null;
        const s = found.data;
        if (s.status !== 'open' || (!seed && s.expires_at <= nowSeconds())) return s;
        const priv = found.private as unknown as SessionPrivate;
        const { params, line } = priv;
        const now = seed?.at ?? nowSeconds();
        // A session for an existing customer pays as that customer: Stripe fills in their e-mail.
        const email =
          s.customer_email ??
          (typeof s.customer === 'string'
            ? ((await w.get<Stripe.Customer>(s.customer, 'customer'))?.data.email ?? null)
            : null);
        let next: Stripe.Checkout.Session;
        if (s.mode === 'payment') {
          const pid = params.payment_intent_data;
          const pi = seed?.paymentIntent ?? stripeId('pi');
          const ch = build.charge({
            id: stripeId('ch'),
            created: now,
            amount: s.amount_total ?? 0,
            currency: line.currency,
            customer: typeof s.customer === 'string' ? s.customer : null,
            paymentIntent: pi,
            // The payment intent's metadata is copied onto the charge it makes.
            metadata: metadata(pid?.metadata),
            applicationFeeAmount:
              pid?.application_fee_amount !== undefined ? Number(pid.application_fee_amount) : null,
            destination: pid?.transfer_data?.destination ?? null,
            email,
          });
          await w.create('charge.succeeded', ch);
          next = {
            ...s,
            status: 'complete',
            payment_status: (s.amount_total ?? 0) > 0 ? 'paid' : 'no_payment_required',
            payment_intent: pi,
            url: null,
          };
        } else {
          let customerId = typeof s.customer === 'string' ? s.customer : null;
          if (!customerId) {
            const c = build.customer({
              id: stripeId('cus', 14),
              created: now,
              email,
              metadata: {},
            });
            await w.create('customer.created', c);
            customerId = c.id;
          }
          const sd = params.subscription_data;
          const trialDays = sd?.trial_period_days !== undefined ? Number(sd.trial_period_days) : 0;
          const recurring = line.recurring!;
          const periodEnd = trialDays ? now + trialDays * 86_400 : addPeriod(now, recurring);
          const subId = seed?.subscription ?? stripeId('sub');
          const invoiceId = stripeId('in');
          const sub = build.subscription({
            id: subId,
            itemId: stripeId('si', 14),
            created: now,
            customer: customerId,
            line: { ...line, recurring },
            periodStart: now,
            periodEnd,
            trialEnd: trialDays ? periodEnd : null,
            metadata: metadata(sd?.metadata),
            applicationFeePercent:
              sd?.application_fee_percent !== undefined ? Number(sd.application_fee_percent) : null,
            destination: sd?.transfer_data?.destination ?? null,
            discounts: priv.coupon ? [stripeId('di')] : [],
            latestInvoice: invoiceId,
          });
          const amount = trialDays ? 0 : (s.amount_total ?? 0);
          const inv = build.invoice({
            id: invoiceId,
            created: now,
            sub,
            billingReason: 'subscription_create',
            amount,
            paid: true,
            periodStart: now,
            periodEnd: now,
          });
          const subPriv: SubscriptionPrivate = {
            line: { ...line, recurring },
            coupon: priv.coupon,
            charges: amount > 0 ? 1 : 0,
            session: s.id,
            email,
          };
          await w.insert(sub, subPriv);
          await w.insert(inv);
          if (amount > 0) await this.chargeInvoice(w, inv, customerId, email, seed?.paymentIntent);
          await w.emit('customer.subscription.created', sub);
          await w.emit('invoice.paid', inv);
          next = {
            ...s,
            status: 'complete',
            customer: customerId,
            payment_status: amount > 0 ? 'paid' : 'no_payment_required',
            subscription: subId,
            invoice: invoiceId,
            url: null,
          };
        }
        next.customer_details = {
          address: null,
          business_name: null,
          email,
          individual_name: null,
          name: null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: [],
        };
        await w.change('checkout.session.completed', next);
        if (typeof next.subscription === 'string') {
          // Checkout then saves the card as the subscription's default, as Stripe does: an update.
          const sub = (await w.get<Stripe.Subscription>(next.subscription, 'subscription'))!;
          const withCard: Stripe.Subscription = {
            ...sub.data,
            default_payment_method: stripeId('pm'),
          };
          await w.change('customer.subscription.updated', withCard, {
            default_payment_method: null,
          });
        }
        return next;
      },
      seed !== undefined,
    );
  }

  /**
   * A sale from before this database (the demo's): the session, customer, payment and subscription
   * Stripe would hold for it, paid `at`, under the ids the seeded purchase carries. Written as
   * history: no events. Idempotent.
   */
  async seedPaidSession(p: {
    sessionId: string;
    paymentIntent: string;
    subscriptionId: string | null;
    purchaseId: string;
    email: string;
    itemName: string;
    amount: number;
    currency: string;
    recurring: { interval: 'week' | 'month' | 'year'; interval_count: number } | null;
    at: Date;
    /** Refunded in full (later than `at`). */
    refunded?: boolean;
  }): Promise<void> {
    if (await this.row(p.sessionId, 'checkout.session')) return;
    const metadata = { purchase_id: p.purchaseId };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: p.recurring ? 'subscription' : 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: p.currency,
            unit_amount: p.amount,
            product_data: { name: p.itemName },
            ...(p.recurring ? { recurring: p.recurring } : {}),
          },
        },
      ],
      client_reference_id: p.purchaseId,
      metadata,
      customer_email: p.email,
      success_url: `${this.options.publicUrl ?? 'http://localhost'}/orders`,
      cancel_url: `${this.options.publicUrl ?? 'http://localhost'}/`,
      ...(p.recurring
        ? { subscription_data: { metadata } }
        : { payment_intent_data: { metadata } }),
    };
    const at = Math.floor(p.at.getTime() / 1000);
    await this.createCheckoutSession(params as unknown as Params, 'http://localhost', null, {
      id: p.sessionId,
      created: at,
    });
    await this.completeCheckoutSession(p.sessionId, {
      at,
      paymentIntent: p.paymentIntent,
      subscription: p.subscriptionId,
    });
    if (!p.refunded) return;
    await this.work(
      null,
      async (w) => {
        const ch = await this.chargeOfIntent(w, p.paymentIntent);
        if (ch) await this.refundCharge(w, ch, ch.amount - ch.amount_refunded, null, metadata);
      },
      true,
    );
  }

  /** The payment intent and charge that paid an invoice, and the invoice payment linking them. */
  private async chargeInvoice(
    w: Work,
    inv: Stripe.Invoice,
    customerId: string,
    email: string | null,
    paymentIntent?: string,
  ): Promise<void> {
    const pi = paymentIntent ?? stripeId('pi');
    // Stripe leaves an invoice's charge without our metadata: refunds find it by payment intent.
    const ch = build.charge({
      id: stripeId('ch'),
      created: inv.created,
      amount: inv.amount_paid,
      currency: inv.currency,
      customer: customerId,
      paymentIntent: pi,
      metadata: {},
      applicationFeeAmount: null,
      destination: null,
      email,
    });
    await w.insert(ch);
    await w.insert(
      build.invoicePayment({
        id: stripeId('inpay'),
        created: inv.created,
        invoice: inv.id,
        paymentIntent: pi,
        amount: inv.amount_paid,
        currency: inv.currency,
      }),
    );
    await w.emit('charge.succeeded', ch);
  }

  /* ---------------------------------------------------------------- Refunds and disputes */

  async createRefund(params: Params, request: RequestContext | null): Promise<Stripe.Refund> {
    const intent = optionalString(params.payment_intent, 'payment_intent');
    const chargeId = optionalString(params.charge, 'charge');
    if (!intent && !chargeId)
      throw badRequest(
        'One of the following params should be provided for this request: payment_intent or charge.',
        'parameter_missing',
      );
    const reason =
      params.reason === undefined
        ? null
        : oneOf(params.reason, 'reason', [
            'duplicate',
            'fraudulent',
            'requested_by_customer',
          ] as const);
    const asked = params.amount === undefined ? null : integer(params.amount, 'amount');
    return this.work(request, async (w) => {
      const ch = chargeId
        ? (await w.get<Stripe.Charge>(chargeId, 'charge'))?.data
        : await this.chargeOfIntent(w, intent!);
      if (!ch)
        throw chargeId
          ? missing('charge', chargeId, 'charge', 400)
          : missing('payment_intent', intent!, 'payment_intent', 400);
      const left = ch.amount - ch.amount_refunded;
      if (left <= 0)
        throw badRequest(`Charge ${ch.id} has already been refunded.`, 'charge_already_refunded');
      const amount = asked ?? left;
      if (amount <= 0) throw invalid('amount', 'Amount must be positive.');
      if (amount > left)
        throw badRequest(
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`,
          'amount_too_large',
          'amount',
        );
      return this.refundCharge(w, ch, amount, reason, metadata(params.metadata));
    });
  }

  private async chargeOfIntent(w: Work, intent: string): Promise<Stripe.Charge | null> {
    const [row] = await w.tx
      .select({ id: sandboxStripeObjects.id })
      .from(sandboxStripeObjects)
      .where(
        and(
          eq(sandboxStripeObjects.type, 'charge'),
          sql`${sandboxStripeObjects.data} @> ${JSON.stringify({ payment_intent: intent })}::jsonb`,
        ),
      );
    return row ? ((await w.get<Stripe.Charge>(row.id, 'charge'))?.data ?? null) : null;
  }

  private async refundCharge(
    w: Work,
    ch: Stripe.Charge,
    amount: number,
    reason: Stripe.Refund.Reason | null,
    meta: Record<string, string>,
  ): Promise<Stripe.Refund> {
    const now = nowSeconds();
    const re = build.refund({
      id: stripeId('re'),
      created: now,
      amount,
      currency: ch.currency,
      charge: ch.id,
      customer: typeof ch.customer === 'string' ? ch.customer : null,
      paymentIntent: typeof ch.payment_intent === 'string' ? ch.payment_intent : null,
      reason,
      metadata: meta,
    });
    const refunded = ch.amount_refunded + amount;
    const next: Stripe.Charge = {
      ...ch,
      amount_refunded: refunded,
      refunded: refunded >= ch.amount,
    };
    await w.insert(re);
    await w.update(next);
    await w.emit('refund.created', re);
    await w.emit('charge.refunded', next, {
      amount_refunded: ch.amount_refunded,
      refunded: ch.refunded,
    });
    return re;
  }

  /** The dashboard's refund of what is left of a session's first payment (`half`: half of it). */
  async refundSession(sessionId: string, half: boolean): Promise<boolean> {
    return this.work(null, async (w) => {
      const ch = await this.firstCharge(w, sessionId);
      if (!ch || ch.amount_refunded >= ch.amount) return false;
      const left = ch.amount - ch.amount_refunded;
      const amount = half ? Math.floor(ch.amount / 2) : left;
      if (amount <= 0 || amount > left) return false;
      await this.refundCharge(w, ch, amount, 'requested_by_customer', {});
      return true;
    });
  }

  /** The charge behind a completed session's first payment, if it charged anything. */
  private async firstCharge(w: Work, sessionId: string): Promise<Stripe.Charge | null> {
    const s = (await w.get<Stripe.Checkout.Session>(sessionId, 'checkout.session'))?.data;
    if (!s) return null;
    if (typeof s.payment_intent === 'string') return this.chargeOfIntent(w, s.payment_intent);
    if (typeof s.invoice !== 'string') return null;
    const [pay] = await w.tx
      .select({ data: sandboxStripeObjects.data })
      .from(sandboxStripeObjects)
      .where(
        and(
          eq(sandboxStripeObjects.type, 'invoice_payment'),
          sql`${sandboxStripeObjects.data} @> ${JSON.stringify({ invoice: s.invoice })}::jsonb`,
        ),
      );
    const intent = (pay?.data as Stripe.InvoicePayment | undefined)?.payment.payment_intent;
    return typeof intent === 'string' ? this.chargeOfIntent(w, intent) : null;
  }

  /** The dashboard's dispute of a session's first payment: `charge.dispute.created`. */
  async disputeSession(sessionId: string): Promise<boolean> {
    return this.work(null, async (w) => {
      const ch = await this.firstCharge(w, sessionId);
      if (!ch || ch.disputed) return false;
      const dp = build.dispute({ id: stripeId('du'), created: nowSeconds(), charge: ch });
      await w.insert(dp);
      const disputed: Stripe.Charge = { ...ch, disputed: true };
      await w.update(disputed);
      await w.emit('charge.dispute.created', dp);
      return true;
    });
  }

  /* ---------------------------------------------------------------- Subscriptions */

  async updateSubscription(
    id: string,
    params: Params,
    request: RequestContext | null,
  ): Promise<Stripe.Subscription> {
    return this.work(request, async (w) => {
      const found = await w.need<Stripe.Subscription>(id, 'subscription', 'id');
      const sub = found.data;
      if (sub.status === 'canceled')
        throw badRequest(
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      const next: Stripe.Subscription = { ...sub };
      const previous: Record<string, unknown> = {};
      if (params.cancel_at_period_end !== undefined) {
        const flag = boolean(params.cancel_at_period_end, 'cancel_at_period_end');
        if (flag !== sub.cancel_at_period_end) {
          previous.cancel_at_period_end = sub.cancel_at_period_end;
          previous.cancel_at = sub.cancel_at;
          previous.canceled_at = sub.canceled_at;
          next.cancel_at_period_end = flag;
          next.cancel_at = flag ? periodEndOf(sub) : null;
          next.canceled_at = flag ? nowSeconds() : null;
          next.cancellation_details = {
            ...sub.cancellation_details!,
            reason: flag ? 'cancellation_requested' : null,
          };
        }
      }
      if (params.metadata !== undefined) {
        previous.metadata = sub.metadata;
        next.metadata = { ...sub.metadata, ...metadata(params.metadata) };
      }
      if (Object.keys(previous).length === 0) return sub;
      return w.change('customer.subscription.updated', next, previous);
    });
  }

  async cancelSubscription(
    id: string,
    request: RequestContext | null,
  ): Promise<Stripe.Subscription> {
    return this.work(request, async (w) => {
      const found = await w.get<Stripe.Subscription>(id, 'subscription');
      // Stripe answers a subscription already canceled as gone.
      if (!found || found.data.status === 'canceled') throw missing('subscription', id, 'id');
      return this.endSubscription(w, found.data);
    });
  }

  private async endSubscription(w: Work, sub: Stripe.Subscription): Promise<Stripe.Subscription> {
    const now = nowSeconds();
    const next: Stripe.Subscription = {
      ...sub,
      status: 'canceled',
      canceled_at: sub.canceled_at ?? now,
      ended_at: now,
      cancellation_details: { ...sub.cancellation_details!, reason: 'cancellation_requested' },
    };
    return w.change('customer.subscription.deleted', next, { status: sub.status });
  }

  async resumeSubscription(
    id: string,
    request: RequestContext | null,
  ): Promise<Stripe.Subscription> {
    return this.work(request, async (w) => {
      const found = await w.need<Stripe.Subscription>(id, 'subscription', 'id');
      const sub = found.data;
      if (sub.status !== 'paused') throw badRequest('Only a paused subscription can be resumed.');
      const next: Stripe.Subscription = { ...sub, status: 'active', pause_collection: null };
      return w.change('customer.subscription.resumed', next, { status: 'paused' });
    });
  }

  /** The dashboard's "End subscription": ends it now. */
  async endSubscriptionNow(id: string): Promise<boolean> {
    return this.work(null, async (w) => {
      const found = await w.get<Stripe.Subscription>(id, 'subscription');
      if (!found || found.data.status === 'canceled') return false;
      await this.endSubscription(w, found.data);
      return true;
    });
  }

  /**
   * The dashboard's "Renew now" (`fail`: "Fail renewal"): the next billing period's invoice, paid
   * (`invoice.paid`, the period moved on) or not (`invoice.payment_failed`). A coupon for the first
   * payment applies to the first charge (after a trial), one `forever` to every charge.
   */
  async renewSubscription(id: string, fail = false): Promise<Stripe.Invoice | null> {
    return this.work(null, async (w) => {
      const found = await w.get<Stripe.Subscription>(id, 'subscription');
      if (!found || found.data.status === 'canceled') return null;
      const sub = found.data;
      const priv = found.private as unknown as SubscriptionPrivate;
      const start = periodEndOf(sub);
      const end = addPeriod(start, priv.line.recurring);
      const subtotal = priv.line.unitAmount * priv.line.quantity;
      const applies =
        priv.coupon &&
        (priv.coupon.duration === 'forever' ||
          (priv.coupon.duration === 'once' && priv.charges === 0));
      const amount = Math.max(
        0,
        subtotal - (applies ? couponOff(priv.coupon, subtotal, priv.line.currency) : 0),
      );
      const inv = build.invoice({
        id: stripeId('in'),
        created: nowSeconds(),
        sub,
        billingReason: 'subscription_cycle',
        amount,
        paid: !fail,
        periodStart: start,
        periodEnd: end,
      });
      // The invoice's line covers the period it pays for.
      await w.insert(inv);
      if (fail) {
        await w.emit('invoice.payment_failed', inv);
        return inv;
      }
      const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
      if (amount > 0) await this.chargeInvoice(w, inv, customerId, priv.email);
      const item = sub.items.data[0]!;
      const next: Stripe.Subscription = {
        ...sub,
        status: 'active',
        latest_invoice: inv.id,
        items: {
          ...sub.items,
          data: [{ ...item, current_period_start: start, current_period_end: end }],
        },
      };
      await w.update(next, { ...priv, charges: priv.charges + (amount > 0 ? 1 : 0) });
      await w.emit('invoice.paid', inv);
      return inv;
    });
  }

  /* ---------------------------------------------------------------- Billing portal */

  async createPortalSession(
    params: Params,
    origin: string,
    request: RequestContext | null,
  ): Promise<Stripe.BillingPortal.Session> {
    const customerId = requiredString(params.customer, 'customer');
    return this.work(request, async (w) => {
      if (!(await w.get(customerId, 'customer')))
        throw missing('customer', customerId, 'customer', 400);
      const id = stripeId('bps');
      const session = build.portalSession({
        id,
        created: nowSeconds(),
        customer: customerId,
        returnUrl: optionalString(params.return_url, 'return_url'),
        url: new URL(`/sandbox/portal/${id}`, origin).toString(),
      });
      await w.insert(session);
      return session;
    });
  }

  /** The customer's subscriptions, newest first (the portal page lists them). */
  async subscriptionsOf(
    customerId: string,
  ): Promise<Array<{ sub: Stripe.Subscription; priv: SubscriptionPrivate }>> {
    const rows = await this.db
      .select({ data: sandboxStripeObjects.data, private: sandboxStripeObjects.private })
      .from(sandboxStripeObjects)
      .where(
        and(
          eq(sandboxStripeObjects.type, 'subscription'),
          sql`${sandboxStripeObjects.data} @> ${JSON.stringify({ customer: customerId })}::jsonb`,
        ),
      )
      .orderBy(sql`${sandboxStripeObjects.seq} desc`);
    return rows.map((r) => ({
      sub: r.data as unknown as Stripe.Subscription,
      priv: r.private as unknown as SubscriptionPrivate,
    }));
  }

  /* ---------------------------------------------------------------- Connect */

  async createAccount(params: Params, request: RequestContext | null): Promise<Stripe.Account> {
    const type =
      params.type === undefined
        ? 'express'
        : oneOf(params.type, 'type', ['express', 'standard', 'custom'] as const);
    const a = build.account({
      id: stripeId('acct', 16),
      created: nowSeconds(),
      email: optionalString(params.email, 'email'),
      type,
      state: 'new',
      businessName: null,
      metadata: metadata(params.metadata),
    });
    return this.work(request, async (w) => {
      await w.insert(a, { state: 'new' });
      return a;
    });
  }

  /** A connected account from before this database (the demo's), active, written as history. */
  async seedAccount(p: { id: string; email: string; businessName: string }): Promise<void> {
    if (await this.row(p.id, 'account')) return;
    const a = build.account({
      id: p.id,
      created: nowSeconds(),
      email: p.email,
      type: 'express',
      state: 'active',
      businessName: p.businessName,
      metadata: {},
    });
    await this.work(null, (w) => w.insert(a, { state: 'active' }), true);
  }

  async retrieveAccount(id: string): Promise<Stripe.Account> {
    const [row] = await this.db
      .select({ data: sandboxStripeObjects.data })
      .from(sandboxStripeObjects)
      .where(and(eq(sandboxStripeObjects.id, id), eq(sandboxStripeObjects.type, 'account')));
    if (!row) throw noAccess(id, this.options.secretKey);
    return row.data as unknown as Stripe.Account;
  }

  async createAccountLink(
    params: Params,
    origin: string,
    request: RequestContext | null,
  ): Promise<Stripe.AccountLink> {
    const accountId = requiredString(params.account, 'account');
    oneOf(params.type, 'type', ['account_onboarding', 'account_update'] as const);
    const refreshUrl = requiredString(params.refresh_url, 'refresh_url');
    const returnUrl = requiredString(params.return_url, 'return_url');
    return this.work(request, async (w) => {
      const found = await w.get<Stripe.Account>(accountId, 'account');
      if (!found) throw noAccess(accountId, this.options.secretKey, 'account');
      const created = nowSeconds();
      const expires = created + 300;
      const token = this.linkToken(accountId, expires);
      await w.update(found.data, { ...found.private, refreshUrl, returnUrl });
      return build.accountLink({
        created,
        url: new URL(`/sandbox/connect/${accountId}.${expires}.${token}`, origin).toString(),
      });
    });
  }

  /** An onboarding link's MAC: the page opens only from a link this sandbox made. */
  linkToken(accountId: string, expires: number): string {
    return createHmac('sha256', this.options.webhookSecret)
      .update(`account_link:${accountId}:${expires}`)
      .digest('hex')
      .slice(0, 32);
  }

  /** The account behind a valid, unexpired onboarding link, with where to send the browser. */
  async accountForLink(
    link: string,
  ): Promise<
    | { account: Stripe.Account; state: AccountState; returnUrl: string; refreshUrl: string }
    | 'expired'
    | null
  > {
    const [accountId, expires, mac] = link.split('.');
    if (!accountId || !expires || !mac) return null;
    if (!safeEqual(mac, this.linkToken(accountId, Number(expires)))) return null;
    const row = await this.row(accountId, 'account');
    if (!row) return null;
    const priv = row.private as { state: AccountState; returnUrl?: string; refreshUrl?: string };
    if (Number(expires) < nowSeconds()) return 'expired';
    return {
      account: row.data as unknown as Stripe.Account,
      state: priv.state,
      returnUrl: priv.returnUrl ?? '/',
      refreshUrl: priv.refreshUrl ?? '/',
    };
  }

  /** Moves an account along onboarding (the hosted form, or verification) and reports `account.updated`. */
  async setAccountState(
    id: string,
    state: AccountState,
    businessName?: string | null,
  ): Promise<Stripe.Account | null> {
    return this.work(null, async (w) => {
      const found = await w.get<Stripe.Account>(id, 'account');
      if (!found) return null;
      const a = found.data;
      const priv = found.private as { state: AccountState };
      if (priv.state === state && businessName === undefined) return a;
      const next = build.account({
        id: a.id,
        created: a.created ?? nowSeconds(),
        email: a.email,
        type: a.type,
        state,
        businessName:
          businessName === undefined ? (a.business_profile?.name ?? null) : businessName,
        metadata: a.metadata ?? {},
      });
      await w.update(next, { ...found.private, state });
      await w.emit('account.updated', next, {
        charges_enabled: a.charges_enabled,
        payouts_enabled: a.payouts_enabled,
        details_submitted: a.details_submitted,
        requirements: a.requirements,
      });
      return next;
    });
  }

  async createTransfer(params: Params, request: RequestContext | null): Promise<Stripe.Transfer> {
    const amount = integer(params.amount, 'amount');
    if (amount <= 0) throw invalid('amount', 'Amount must be positive.');
    const currency = requiredString(params.currency, 'currency').toLowerCase();
    const destination = requiredString(params.destination, 'destination');
    return this.work(request, async (w) => {
      const account = await w.get<Stripe.Account>(destination, 'account');
      if (!account) throw missing('destination', destination, 'destination', 400);
      if (!account.data.payouts_enabled)
        throw badRequest(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'insufficient_capabilities_for_transfer',
          'destination',
        );
      const tr = build.transfer({
        id: stripeId('tr'),
        created: nowSeconds(),
        amount,
        currency,
        destination,
        metadata: metadata(params.metadata),
        description: optionalString(params.description, 'description'),
        transferGroup: optionalString(params.transfer_group, 'transfer_group'),
      });
      await w.create('transfer.created', tr);
      return tr;
    });
  }

  async createTransferReversal(
    transferId: string,
    params: Params,
    request: RequestContext | null,
  ): Promise<Stripe.TransferReversal> {
    return this.work(request, async (w) => {
      const found = await w.need<Stripe.Transfer>(transferId, 'transfer', 'id');
      const tr = found.data;
      const left = tr.amount - tr.amount_reversed;
      const amount = params.amount === undefined ? left : integer(params.amount, 'amount');
      if (left <= 0 || amount <= 0 || amount > left)
        throw badRequest(
          `Transfer ${tr.id} cannot be reversed by ${amount}: ${left} is left of it.`,
          'transfer_reversal_amount_too_large',
          'amount',
        );
      return this.reverse(w, tr, amount, metadata(params.metadata));
    });
  }

  private async reverse(
    w: Work,
    tr: Stripe.Transfer,
    amount: number,
    meta: Record<string, string>,
  ): Promise<Stripe.TransferReversal> {
    const rev = build.transferReversal({
      id: stripeId('trr'),
      created: nowSeconds(),
      amount,
      currency: tr.currency,
      transfer: tr.id,
      metadata: meta,
    });
    const reversed = tr.amount_reversed + amount;
    const next: Stripe.Transfer = {
      ...tr,
      amount_reversed: reversed,
      reversed: reversed >= tr.amount,
      reversals: {
        ...tr.reversals,
        data: [rev, ...tr.reversals.data],
      },
    };
    await w.insert(rev);
    await w.change('transfer.reversed', next, {
      amount_reversed: tr.amount_reversed,
      reversed: tr.reversed,
    });
    return rev;
  }

  /** The dashboard's "Reverse transfer" (and "Fail transfer": Stripe reverses what it cannot pay out). */
  async reverseTransferNow(id: string, reason: string): Promise<boolean> {
    return this.work(null, async (w) => {
      const found = await w.get<Stripe.Transfer>(id, 'transfer');
      if (!found || found.data.reversed) return false;
      await this.reverse(w, found.data, found.data.amount - found.data.amount_reversed, { reason });
      return true;
    });
  }

  /** Completed checkouts, newest first, with their subscription and first charge (the dashboard). */
  async completedSessions(limit = 100): Promise<
    Array<{
      session: Stripe.Checkout.Session;
      priv: SessionPrivate;
      sub: Stripe.Subscription | null;
      charge: Stripe.Charge | null;
    }>
  > {
    const rows = await this.db
      .select({ id: sandboxStripeObjects.id })
      .from(sandboxStripeObjects)
      .where(
        and(
          eq(sandboxStripeObjects.type, 'checkout.session'),
          sql`${sandboxStripeObjects.data} @> '{"status":"complete"}'::jsonb`,
        ),
      )
      .orderBy(sql`${sandboxStripeObjects.seq} desc`)
      .limit(limit);
    const out = [];
    for (const { id } of rows) {
      out.push(
        await this.db.transaction(async (tx) => {
          const w = new Work(tx as unknown as Db, null);
          const found = (await w.get<Stripe.Checkout.Session>(id, 'checkout.session'))!;
          const subId = found.data.subscription;
          const sub =
            typeof subId === 'string'
              ? ((await w.get<Stripe.Subscription>(subId, 'subscription'))?.data ?? null)
              : null;
          return {
            session: found.data,
            priv: found.private as unknown as SessionPrivate,
            sub,
            charge: await this.firstCharge(w, id),
          };
        }),
      );
    }
    return out;
  }

  /* ---------------------------------------------------------------- Webhooks */

  /** `t=<unix>,v1=<HMAC-SHA256 of "t.body">`, as Stripe signs. */
  sign(body: string, timestamp = nowSeconds()): string {
    const mac = createHmac('sha256', this.options.webhookSecret)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    return `t=${timestamp},v1=${mac}`;
  }

  /**
   * One delivery attempt: the claim (attempts + 1, next attempt pushed out) first, so a sweep and a
   * direct send never overlap; a failure schedules the next with backoff. Whether it was taken.
   */
  async send(eventId: string): Promise<boolean> {
    const transport = this.transport;
    if (!transport) return false;
    const [claimed] = await this.db
      .update(sandboxStripeEvents)
      .set({
        attempts: sql`${sandboxStripeEvents.attempts} + 1`,
        nextAttemptAt: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      })
      .where(
        and(
          eq(sandboxStripeEvents.id, eventId),
          isNull(sandboxStripeEvents.deliveredAt),
          sql`${sandboxStripeEvents.nextAttemptAt} <= now()`,
        ),
      )
      .returning();
    if (!claimed) return false;
    const body = JSON.stringify(claimed.data, null, 2);
    let status = 0;
    let error: string | null = null;
    try {
      status = await transport(body, this.sign(body));
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const ok = status >= 200 && status < 300;
    await this.db
      .update(sandboxStripeEvents)
      .set(
        ok
          ? { deliveredAt: new Date(), lastStatus: status, lastError: null }
          : {
              lastStatus: status || null,
              lastError: (error ?? `HTTP ${status}`).slice(0, 500),
              // 30 s, 1 min, 2 min … at most an hour apart.
              nextAttemptAt: sql`now() + make_interval(secs => ${backoff(claimed.attempts, 30, 3600)})`,
            },
      )
      .where(eq(sandboxStripeEvents.id, eventId));
    return ok;
  }

  /**
   * The retry sweep: undelivered events that are due, oldest first, for three days. It also forgets
   * requests older than a day, as Stripe forgets idempotency keys after 24 hours.
   */
  async sendDue(limit = 100): Promise<number> {
    await this.db
      .delete(sandboxStripeRequests)
      .where(sql`${sandboxStripeRequests.createdAt} < now() - interval '24 hours'`);
    if (!this.transport) return 0;
    const due = await this.db
      .select({ id: sandboxStripeEvents.id })
      .from(sandboxStripeEvents)
      .where(
        sql`${sandboxStripeEvents.deliveredAt} is null and ${sandboxStripeEvents.nextAttemptAt} <= now()
          and ${sandboxStripeEvents.createdAt} > now() - make_interval(secs => ${RETRY_FOR_SECONDS})`,
      )
      .orderBy(sandboxStripeEvents.seq)
      .limit(limit);
    let sent = 0;
    for (const { id } of due) if (await this.send(id)) sent++;
    return sent;
  }

  /** The dashboard's "Deliver again": makes an undelivered event due now and sends it. */
  async retry(eventId: string): Promise<boolean> {
    await this.db
      .update(sandboxStripeEvents)
      .set({ nextAttemptAt: sql`now()` })
      .where(and(eq(sandboxStripeEvents.id, eventId), isNull(sandboxStripeEvents.deliveredAt)));
    return this.send(eventId);
  }

  async recentEvents(limit = 30) {
    return this.db
      .select()
      .from(sandboxStripeEvents)
      .orderBy(sql`${sandboxStripeEvents.seq} desc`)
      .limit(limit);
  }

  async recent<T>(type: string, limit = 100): Promise<Array<{ data: T; private: Params }>> {
    const rows = await this.db
      .select({ data: sandboxStripeObjects.data, private: sandboxStripeObjects.private })
      .from(sandboxStripeObjects)
      .where(eq(sandboxStripeObjects.type, type))
      .orderBy(sql`${sandboxStripeObjects.seq} desc`)
      .limit(limit);
    return rows as unknown as Array<{ data: T; private: Params }>;
  }
}

/* ---------------------------------------------------------------- Parameter checks */

function invalid(param: string, message: string): StripeApiError {
  return badRequest(message, 'parameter_invalid', param);
}

function noAccess(id: string, key: string, param: string | null = null): StripeApiError {
  return new StripeApiError(
    param ? 400 : 403,
    'invalid_request_error',
    `The provided key '${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}' does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`,
    'account_invalid',
    param,
  );
}

function requiredString(value: unknown, param: string): string {
  if (value === undefined || value === '')
    throw badRequest(`Missing required param: ${param}.`, 'parameter_missing', param);
  if (typeof value !== 'string') throw invalid(param, `Invalid string: ${param}`);
  return value;
}

function optionalString(value: unknown, param: string): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(param, `Invalid string: ${param}`);
  return value;
}

export function integer(value: unknown, param: string): number {
  const s = typeof value === 'number' ? String(value) : value;
  if (typeof s !== 'string' || !/^-?\d{1,15}$/.test(s))
    throw badRequest(
      s === undefined ? `Missing required param: ${param}.` : `Invalid integer: ${String(s)}`,
      s === undefined ? 'parameter_missing' : 'parameter_invalid_integer',
      param,
    );
  return Number(s);
}

function decimal(value: unknown, param: string): number {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value))
    throw invalid(param, `Invalid decimal: ${String(value)}`);
  return Number(value);
}

function boolean(value: unknown, param: string): boolean {
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw invalid(param, `Invalid boolean: ${String(value)}`);
}

function oneOf<T extends string>(value: unknown, param: string, allowed: readonly T[]): T {
  if (value === undefined) return requiredString(value, param) as T;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw badRequest(
      `Invalid ${param}: must be one of ${allowed.join(', ')}`,
      'parameter_invalid_string',
      param,
    );
  return value as T;
}

/** Stripe's metadata: string values, at most 50 keys. */
function metadata(value: unknown): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('metadata', 'Invalid object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid(`metadata[${k}]`, 'Invalid string');
    if (v !== '') out[k] = v;
  }
  if (Object.keys(out).length > 50) throw invalid('metadata', 'You can have up to 50 keys.');
  return out;
}

/** What a coupon takes off an amount in a currency. */
function couponOff(coupon: Stripe.Coupon | null, amount: number, currency: string): number {
  if (!coupon) return 0;
  if (coupon.amount_off !== null)
    return coupon.currency === currency ? Math.min(amount, coupon.amount_off) : 0;
  return Math.round((amount * (coupon.percent_off ?? 0)) / 100);
}

function addPeriod(
  from: number,
  r: { interval: 'day' | 'week' | 'month' | 'year'; interval_count: number },
): number {
  const d = new Date(from * 1000);
  if (r.interval === 'day') d.setUTCDate(d.getUTCDate() + r.interval_count);
  else if (r.interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * r.interval_count);
  else if (r.interval === 'month') d.setUTCMonth(d.getUTCMonth() + r.interval_count);
  else d.setUTCFullYear(d.getUTCFullYear() + r.interval_count);
  return Math.floor(d.getTime() / 1000);
}

function periodEndOf(sub: Stripe.Subscription): number {
  return Math.max(...sub.items.data.map((i) => i.current_period_end));
}

/**
 * The key in an `Authorization` header, as Stripe reads it: `Bearer <key>`, or Basic with the key as
 * the user name (`curl -u sk_test_…:`, as Stripe's own examples do).
 */
export function apiKeyOf(header: string | undefined): string | null {
  const bearer = /^Bearer (.+)$/.exec(header ?? '');
  if (bearer) return bearer[1]!;
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!basic) return null;
  const user = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0];
  return user || null;
}

/**
 * Writes a seeded sale into the Stripe sandbox's records (see `seedPaidSession`): demo data is held
 * where a real sale's payment is, so a refund of it goes through Stripe's path like any other.
 */
export function seedSandboxSale(
  db: Db,
  sale: Parameters<StripeSandbox['seedPaidSession']>[0],
): Promise<void> {
  return seeder(db).seedPaidSession(sale);
}

/** Writes a seeded connected account (see `seedAccount`). */
export function seedSandboxAccount(
  db: Db,
  account: Parameters<StripeSandbox['seedAccount']>[0],
): Promise<void> {
  return seeder(db).seedAccount(account);
}

// Seeding signs nothing and serves no page: no keys, no origin.
const seeder = (db: Db) =>
  new StripeSandbox(db, { secretKey: '', webhookSecret: '', publicUrl: null });
