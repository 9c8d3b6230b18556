import { createHmac } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backoff, hmac, randomToken, safeEqual, sha256 } from '../../lib.ts';
import {
  paymentEventJson,
  RefundRefusedError,
  PAYMENTS_WEBHOOK_PATH,
  WebhookPayloadError,
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type ConnectAccountStatus,
  type Interval,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentsProvider,
  type TransferEvent,
  type TransferEventType,
  type TransferRequest,
  transferEventJson,
  transferEventTypes,
} from './port.ts';
import { SandboxConnect } from './sandbox-connect.ts';
import { sandboxEvents, sandboxSessions, sandboxTransfers } from './tables.ts';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
const TOLERANCE_SECONDS = 300;
const SESSION_MINUTES = 60;
/** Why a refund of a payment the sandbox never took is refused (Stripe: `resource_missing`). */
export const NO_SUCH_PAYMENT = 'The payment provider has no record of this payment.';

export type SandboxSession = typeof sandboxSessions.$inferSelect;
export type SandboxEvent = typeof sandboxEvents.$inferSelect;
export type SandboxTransfer = typeof sandboxTransfers.$inferSelect;

/** Sends one signed event to the webhook endpoint; answers the HTTP status. */
export type SandboxTransport = (body: string, signature: string) => Promise<number>;

/** How long providers keep retrying an undelivered event (Stripe: three days). */
const RETRY_FOR_MS = 3 * 24 * 3600_000;
/** One attempt's claim on an event, so a sweep and a direct send never overlap. */
const CLAIM_SECONDS = 60;
/** 30 s, 1 min, 2 min … at most an hour between attempts. */
const backoffSeconds = (attempts: number) => backoff(attempts, 30, 3600);

/** Delivers by HTTP, as a real provider does (used where no app runs in this process). */
export function httpTransport(origin: string): SandboxTransport {
  return async (body, signature) => {
    const res = await fetch(new URL(PAYMENTS_WEBHOOK_PATH, origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

/** The member price's discount, off every payment. */
const memberOff = (r: CheckoutRequest) => r.memberDiscount?.amountOff ?? 0;

/** What the first payment charges: nothing during a trial, else the price less any discounts. */
export const firstCharge = (r: CheckoutRequest) =>
  r.trialDays ? 0 : r.item.amount - (r.discount?.amountOff ?? 0) - memberOff(r);
/**
 * What renewal `n` (1 = the first after checkout) charges: a coupon for every payment always applies;
 * a first-payment coupon on a trial applies to the first charge, when the trial ends.
 */
export const renewalCharge = (r: CheckoutRequest, n: number) =>
  (r.discount && (r.discount.duration === 'forever' || (r.trialDays && n === 1))
    ? r.item.amount - r.discount.amountOff
    : r.item.amount) - memberOff(r);

/** Adds one billing interval (quarter = three months) to a date. */
export function addInterval(from: Date, interval: Interval): Date {
  const d = new Date(from);
  if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else if (interval === 'quarter') d.setUTCMonth(d.getUTCMonth() + 3);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

/**
 * The local stand-in for Stripe: sessions live in its own table, its hosted pages (see
 * `sandbox-routes.ts`) complete or cancel them, and every outcome is delivered as a signed webhook
 * through the same endpoint and code path Stripe's events take.
 */
export class SandboxPayments implements PaymentsProvider {
  readonly name = 'sandbox' as const;

  /** Connected accounts and their onboarding page's links. */
  readonly connect: SandboxConnect;

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private transport: SandboxTransport | null = null,
  ) {
    this.connect = new SandboxConnect(db, secret);
  }

  /** The app delivers in process once it is built; until then (or in a worker) HTTP is used. */
  setTransport(transport: SandboxTransport): void {
    this.transport = transport;
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
    // The idempotency key makes a retried creation return the first session, as Stripe does.
    await this.db
      .insert(sandboxSessions)
      .values({
        id: `cs_sbx_${randomToken(18)}`,
        idempotencyKey: req.idempotencyKey,
        purchaseId: req.purchaseId,
        request: req,
        customerId: req.buyer.customerId ?? this.customerIdFor(req.buyer.userId, 'platform'),
        expiresAt: new Date(Date.now() + SESSION_MINUTES * 60_000),
      })
      .onConflictDoNothing();
    const [row] = await this.db
      .select()
      .from(sandboxSessions)
      .where(eq(sandboxSessions.idempotencyKey, req.idempotencyKey));
    if (!row) throw new Error('sandbox session missing after insert');
    return {
      sessionId: row.id,
      url: new URL(`/sandbox/checkout/${row.id}`, req.successUrl).toString(),
      expiresAt: row.expiresAt,
    };
  }

  async createPortal(req: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    // Short and URL-safe as it is: customer id, expiry (base 36), 128-bit MAC.
    const payload = `${req.customerId}.${(Date.now() + 60 * 60_000).toString(36)}`;
    const token = `${payload}.${hmac(this.secret, `portal:${payload}`).slice(0, 32)}`;
    return { url: new URL(`/sandbox/portal/${token}`, req.returnUrl).toString() };
  }

  /** The customer a portal token was issued for, or null when forged or expired. */
  verifyPortalToken(token: string): string | null {
    const [customerId, expires, mac] = token.split('.');
    if (!customerId || !expires || !mac) return null;
    const expected = hmac(this.secret, `portal:${customerId}.${expires}`).slice(0, 32);
    if (!safeEqual(mac, expected)) return null;
    return parseInt(expires, 36) > Date.now() ? customerId : null;
  }

  async createConnectOnboarding(req: {
    accountId: string | null;
    email: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ accountId: string; url: string }> {
    // The onboarding page: the account is ready once its form is submitted (sandbox-connect.ts).
    return this.connect.createOnboarding(req);
  }

  async connectAccountStatus(accountId: string): Promise<ConnectAccountStatus> {
    return this.connect.status(accountId);
  }

  async ensureCustomer(req: {
    userId: string;
    vendorId: string;
    customerId: string | null;
  }): Promise<string> {
    return req.customerId ?? this.customerIdFor(req.userId, req.vendorId);
  }

  private customerIdFor(userId: string, vendorId: string): string {
    return `cus_sbx_${sha256(`${userId}:${vendorId}`).slice(0, 20)}`;
  }

  /** Signs an event the way the webhook endpoint expects: `t=<unix>,v1=<hmac(t.body)>`. */
  sign(body: string, timestamp = Math.floor(Date.now() / 1000)): string {
    const mac = createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex');
    return `t=${timestamp},v1=${mac}`;
  }

  /** An event about a session, as JSON; `emit` records it and `send` signs and delivers it. */
  private eventBody(
    session: SandboxSession,
    type: PaymentEventType,
    fields: Partial<Omit<PaymentEvent, 'id' | 'type' | 'purchaseId'>>,
  ): { id: string; body: string } {
    const event: PaymentEvent = {
      id: `evt_sbx_${randomToken(18)}`,
      type,
      purchaseId: session.purchaseId,
      occurredAt: new Date(),
      paymentRef: session.paymentRef,
      amount: null,
      currency: session.request.item.currency,
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      periodEnd: session.currentPeriodEnd,
      cancelAtPeriodEnd: null,
      ...fields,
    };
    return { id: event.id, body: JSON.stringify(event) };
  }

  /**
   * Changes a session and records the event reporting it, in one transaction, then tries to deliver
   * it. `from` makes the change conditional on the session's status (a second Pay changes nothing).
   * Returns null when the condition did not hold.
   */
  async emit(
    id: string,
    change: Partial<SandboxSession>,
    type: PaymentEventType,
    fields: Partial<Omit<PaymentEvent, 'id' | 'type' | 'purchaseId'>> = {},
    from?: SandboxSession['status'],
  ): Promise<SandboxSession | null> {
    const recorded = await this.db.transaction(async (tx) => {
      const where = from
        ? and(eq(sandboxSessions.id, id), eq(sandboxSessions.status, from))
        : eq(sandboxSessions.id, id);
      const [row] = Object.keys(change).length
        ? await tx.update(sandboxSessions).set(change).where(where).returning()
        : await tx.select().from(sandboxSessions).where(where).for('update');
      if (!row) return null;
      const event = this.eventBody(row, type, fields);
      await tx
        .insert(sandboxEvents)
        .values({ id: event.id, sessionId: row.id, type, body: event.body });
      return { row, eventId: event.id };
    });
    if (!recorded) return null;
    await this.send(recorded.eventId);
    return recorded.row;
  }

  /**
   * One delivery attempt. The claim (attempts + 1, next attempt pushed out) is taken first, so
   * concurrent senders do not overlap; a failure schedules the next attempt with backoff.
   * Returns whether the endpoint took the event.
   */
  async send(eventId: string): Promise<boolean> {
    const [claimed] = await this.db
      .update(sandboxEvents)
      .set({
        attempts: sql`${sandboxEvents.attempts} + 1`,
        nextAttemptAt: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      })
      .where(
        and(
          eq(sandboxEvents.id, eventId),
          isNull(sandboxEvents.deliveredAt),
          sql`${sandboxEvents.nextAttemptAt} <= now()`,
        ),
      )
      .returning();
    if (!claimed) return false;
    let status = 0;
    let error: string | null = null;
    try {
      if (!this.transport) throw new Error('no transport');
      status = await this.transport(claimed.body, this.sign(claimed.body));
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const ok = status >= 200 && status < 300;
    await this.db
      .update(sandboxEvents)
      .set(
        ok
          ? { deliveredAt: new Date(), lastStatus: status, lastError: null }
          : {
              lastStatus: status || null,
              lastError: (error ?? `HTTP ${status}`).slice(0, 500),
              nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(claimed.attempts)})`,
            },
      )
      .where(eq(sandboxEvents.id, eventId));
    return ok;
  }

  /** The retry sweep: every undelivered event that is due, oldest first. Returns how many went. */
  async sendDue(limit = 100): Promise<number> {
    const due = await this.db
      .select({ id: sandboxEvents.id })
      .from(sandboxEvents)
      .where(
        sql`${sandboxEvents.deliveredAt} is null and ${sandboxEvents.nextAttemptAt} <= now()
          and ${sandboxEvents.createdAt} > now() - make_interval(secs => ${RETRY_FOR_MS / 1000})`,
      )
      .orderBy(sandboxEvents.createdAt)
      .limit(limit);
    let sent = 0;
    for (const { id } of due) if (await this.send(id)) sent++;
    return sent;
  }

  /** Makes an undelivered event due now (the dashboard's "Deliver again"), then sends it. */
  async retry(eventId: string): Promise<boolean> {
    await this.db
      .update(sandboxEvents)
      .set({ nextAttemptAt: sql`now()` })
      .where(and(eq(sandboxEvents.id, eventId), isNull(sandboxEvents.deliveredAt)));
    return this.send(eventId);
  }

  async recentEvents(limit = 30): Promise<SandboxEvent[]> {
    return this.db
      .select()
      .from(sandboxEvents)
      .orderBy(sql`${sandboxEvents.createdAt} desc`)
      .limit(limit);
  }

  /**
   * Refunds a payment in whole (no `amount`) or in part, once per idempotency key, and reports it with
   * a `refund` event carrying the payment's refunded total so far (Stripe's `amount_refunded`), as a
   * refund from the back office does. More than is left of the payment is refused, as Stripe does.
   */
  async refund(req: {
    paymentRef: string;
    purchaseId: string;
    amount?: number | undefined;
    reason?: 'duplicate' | 'vendor';
    idempotencyKey: string;
  }): Promise<void> {
    const recorded = await this.db.transaction(async (tx) => {
      const [s] = await tx
        .select()
        .from(sandboxSessions)
        .where(eq(sandboxSessions.purchaseId, req.purchaseId))
        .for('update');
      // A payment the sandbox never took (as Stripe answers `resource_missing`): a vendor's refund is
      // refused at once rather than asked again for ever (issue 27).
      if (
        (!s || s.status !== 'paid' || !this.chargeOf(s, req.paymentRef)) &&
        req.reason === 'vendor'
      )
        throw new RefundRefusedError(NO_SUCH_PAYMENT);
      if (!s || s.status !== 'paid' || s.refunds.some((r) => r.key === req.idempotencyKey))
        return null;
      const charged = this.chargeOf(s, req.paymentRef);
      const before = s.refunds
        .filter((r) => r.paymentRef === req.paymentRef)
        .reduce((sum, r) => sum + r.amount, 0);
      // The back office's whole refund of the first payment records no amounts: nothing is left.
      const left = s.refundedAt && req.paymentRef === s.paymentRef ? 0 : charged - before;
      const amount = req.amount ?? left;
      if (left <= 0 || amount <= 0) {
        if (req.amount === undefined) return null; // already refunded in full: nothing to do
        throw new RefundRefusedError('This payment has already been refunded in full.');
      }
      if (amount > left) {
        throw new RefundRefusedError(
          `Refund amount (${amount}) is greater than what is left of the payment (${left}).`,
        );
      }
      const total = before + amount;
      const whole = total >= charged;
      const [row] = await tx
        .update(sandboxSessions)
        .set({
          refunds: [...s.refunds, { key: req.idempotencyKey, paymentRef: req.paymentRef, amount }],
          ...(whole && req.paymentRef === s.paymentRef ? { refundedAt: new Date() } : {}),
        })
        .where(eq(sandboxSessions.id, s.id))
        .returning();
      const event = this.eventBody(row!, 'refund', { paymentRef: req.paymentRef, amount: total });
      await tx
        .insert(sandboxEvents)
        .values({ id: event.id, sessionId: s.id, type: 'refund', body: event.body });
      return event.id;
    });
    if (recorded) await this.send(recorded);
  }

  /** What one payment of a session charged: the first, or renewal n (`in_sbx_<session>_<n>`). */
  private chargeOf(s: SandboxSession, paymentRef: string): number {
    if (paymentRef === s.paymentRef) return firstCharge(s.request);
    const n = s.renewals.indexOf(paymentRef);
    return n >= 0 ? renewalCharge(s.request, n + 1) : 0;
  }

  async cancelSubscription(req: { subscriptionId: string }): Promise<void> {
    const [s] = await this.db
      .select()
      .from(sandboxSessions)
      .where(eq(sandboxSessions.subscriptionId, req.subscriptionId));
    if (!s || s.subscriptionStatus === 'ended') return;
    await this.emit(s.id, { subscriptionStatus: 'ended' }, 'subscription.ended');
  }

  /** The sandbox records and refunds payments under one reference each: no aliases. */
  async paymentAliases(): Promise<string[]> {
    return [];
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): PaymentEvent | null {
    const parsed = paymentEventJson.safeParse(this.verified(rawBody, headers));
    if (!parsed.success) throw new WebhookPayloadError('Not a payment event.');
    return parsed.data;
  }

  parseTransferWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): TransferEvent | null {
    const raw = this.verified(rawBody, headers);
    const type = (raw as { type?: unknown } | null)?.type;
    if (!transferEventTypes.includes(type as TransferEventType)) return null;
    const parsed = transferEventJson.safeParse(raw);
    if (!parsed.success) throw new WebhookPayloadError('Not a transfer event.');
    return parsed.data;
  }

  /** The body of a webhook signed with our secret (checked on the raw bytes), as JSON. */
  private verified(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): unknown {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    if (typeof header !== 'string') throw new WebhookSignatureError('Missing signature.');
    const parts = Object.fromEntries(
      header.split(',').map((p) => p.split('=', 2) as [string, string]),
    );
    const timestamp = Number(parts.t);
    if (!Number.isInteger(timestamp) || !parts.v1) {
      throw new WebhookSignatureError('Malformed signature.');
    }
    if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) {
      throw new WebhookSignatureError('Stale signature.');
    }
    const expected = createHmac('sha256', this.secret)
      .update(`${timestamp}.`)
      .update(rawBody)
      .digest('hex');
    if (!safeEqual(parts.v1, expected)) throw new WebhookSignatureError('Bad signature.');
    try {
      return JSON.parse(rawBody.toString('utf8')) as unknown;
    } catch {
      throw new WebhookPayloadError('Not JSON.');
    }
  }

  /**
   * Records a transfer, paid at once as Stripe's are; the same idempotency key answers the first
   * transfer again. A person fails or reverses it on the dashboard later.
   */
  async transfer(req: TransferRequest): Promise<{ transferId: string }> {
    await this.db
      .insert(sandboxTransfers)
      .values({
        id: `tr_sbx_${randomToken(18)}`,
        idempotencyKey: req.idempotencyKey,
        accountId: req.accountId,
        amount: req.amount,
        currency: req.currency,
        metadata: req.metadata,
      })
      .onConflictDoNothing();
    const [row] = await this.db
      .select()
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.idempotencyKey, req.idempotencyKey));
    if (!row) throw new Error('sandbox transfer missing after insert');
    return { transferId: row.id };
  }

  /**
   * Fails (`failed`) or reverses (`reversed`) a paid transfer and records the event reporting it in
   * the same transaction, then delivers it like every sandbox event. False when it was not paid.
   */
  async settleTransfer(
    id: string,
    outcome: 'failed' | 'reversed',
    reason: string,
  ): Promise<boolean> {
    const recorded = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(sandboxTransfers)
        .set({ status: outcome, failureReason: reason, updatedAt: new Date() })
        .where(and(eq(sandboxTransfers.id, id), eq(sandboxTransfers.status, 'paid')))
        .returning();
      if (!row) return null;
      const event: TransferEvent = {
        id: `evt_sbx_${randomToken(18)}`,
        type: outcome === 'failed' ? 'transfer.failed' : 'transfer.reversed',
        transferId: row.id,
        payoutId: row.metadata.payout_id ?? null,
        amount: row.amount,
        currency: row.currency,
        reason,
        occurredAt: new Date(),
      };
      await tx
        .insert(sandboxEvents)
        .values({ id: event.id, sessionId: row.id, type: event.type, body: JSON.stringify(event) });
      return event.id;
    });
    if (!recorded) return false;
    await this.send(recorded);
    return true;
  }

  async recentTransfers(limit = 30): Promise<SandboxTransfer[]> {
    return this.db
      .select()
      .from(sandboxTransfers)
      .orderBy(sql`${sandboxTransfers.createdAt} desc`)
      .limit(limit);
  }

  async session(id: string): Promise<SandboxSession | null> {
    const [row] = await this.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, id));
    return row ?? null;
  }

  async sessionsOfCustomer(customerId: string): Promise<SandboxSession[]> {
    return this.db
      .select()
      .from(sandboxSessions)
      .where(
        sql`${sandboxSessions.customerId} = ${customerId} and ${sandboxSessions.subscriptionId} is not null`,
      )
      .orderBy(sql`${sandboxSessions.createdAt} desc`);
  }

  async recentSessions(limit = 100): Promise<SandboxSession[]> {
    return this.db
      .select()
      .from(sandboxSessions)
      .where(sql`${sandboxSessions.status} = 'paid'`)
      .orderBy(sql`${sandboxSessions.createdAt} desc`)
      .limit(limit);
  }
}

/**
 * Demo data: a payment the sandbox took, as its hosted page's Pay leaves a session (paid, with the
 * payment's reference, and the subscription for a recurring item), so a seeded sale refunds, renews
 * and cancels like one bought by hand (issue 27). `refundedAt` records a back-office refund already
 * made in full. Idempotent: the session is keyed by the purchase id, as checkout keys its own.
 */
export async function seedSandboxPayment(
  db: Db,
  p: {
    sessionId: string;
    purchaseId: string;
    buyerId: string;
    vendorId: string;
    itemName: string;
    amount: number;
    currency: string;
    interval: Interval | null;
    paymentRef: string;
    subscriptionId: string | null;
    currentPeriodEnd: Date | null;
    paidAt: Date;
    refundedAt?: Date | null;
  },
): Promise<void> {
  const request: CheckoutRequest = {
    purchaseId: p.purchaseId,
    mode: p.interval ? 'subscription' : 'payment',
    item: { name: p.itemName, amount: p.amount, currency: p.currency, interval: p.interval },
    discount: null,
    memberDiscount: null,
    trialDays: null,
    buyer: { userId: p.buyerId, email: '', customerId: null },
    connectedAccountId: null,
    applicationFeeAmount: 0,
    applicationFeePercent: 0,
    successUrl: 'http://localhost/orders/status?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://localhost/',
    idempotencyKey: p.purchaseId,
  };
  await db
    .insert(sandboxSessions)
    .values({
      id: p.sessionId,
      idempotencyKey: p.purchaseId,
      purchaseId: p.purchaseId,
      request,
      status: 'paid',
      // The customer `ensureCustomer` gives this buyer at this vendor.
      customerId: `cus_sbx_${sha256(`${p.buyerId}:${p.vendorId}`).slice(0, 20)}`,
      paymentRef: p.paymentRef,
      subscriptionId: p.subscriptionId,
      subscriptionStatus: p.subscriptionId ? 'active' : null,
      currentPeriodEnd: p.currentPeriodEnd,
      refundedAt: p.refundedAt ?? null,
      expiresAt: p.paidAt,
      createdAt: p.paidAt,
    })
    .onConflictDoNothing();
}
