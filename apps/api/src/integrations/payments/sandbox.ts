import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hmac, newId, randomToken, safeEqual, sha256 } from '../../lib.ts';
import {
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type Interval,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentsProvider,
} from './port.ts';
import { sandboxSessions } from './tables.ts';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
const TOLERANCE_SECONDS = 300;
const SESSION_MINUTES = 60;

export type SandboxSession = typeof sandboxSessions.$inferSelect;

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

  constructor(
    private readonly db: Db,
    private readonly secret: string,
  ) {}

  async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
    // The idempotency key makes a retried creation return the first session, as Stripe does.
    await this.db
      .insert(sandboxSessions)
      .values({
        id: `cs_sbx_${randomToken(18)}`,
        idempotencyKey: req.idempotencyKey,
        purchaseId: req.purchaseId,
        request: req,
        customerId: req.buyer.customerId ?? this.customerIdFor(req.buyer.userId),
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
    returnUrl: string;
  }): Promise<{ accountId: string; url: string }> {
    // The sandbox has no onboarding to do: the account is ready at once.
    return { accountId: req.accountId ?? newId('acct_sbx'), url: req.returnUrl };
  }

  async connectAccountStatus(): Promise<{ chargesEnabled: boolean; payoutsEnabled: boolean }> {
    return { chargesEnabled: true, payoutsEnabled: true };
  }

  async ensureCustomer(req: { userId: string; customerId: string | null }): Promise<string> {
    return req.customerId ?? this.customerIdFor(req.userId);
  }

  private customerIdFor(userId: string): string {
    return `cus_sbx_${sha256(userId).slice(0, 20)}`;
  }

  /** Signs an event the way the webhook endpoint expects: `t=<unix>,v1=<hmac(t.body)>`. */
  sign(body: string, timestamp = Math.floor(Date.now() / 1000)): string {
    const mac = createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex');
    return `t=${timestamp},v1=${mac}`;
  }

  /** Builds a signed event for a session; the caller delivers it to the webhook endpoint. */
  event(
    session: SandboxSession,
    type: PaymentEventType,
    fields: Partial<Omit<PaymentEvent, 'id' | 'type' | 'purchaseId'>> = {},
  ): { body: string; signature: string } {
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
    const body = JSON.stringify(event);
    return { body, signature: this.sign(body) };
  }

  /** The sandbox records and refunds payments under one reference each: no aliases. */
  async paymentAliases(): Promise<string[]> {
    return [];
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): PaymentEvent | null {
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
    const raw = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
    return {
      ...(raw as unknown as PaymentEvent),
      occurredAt: new Date(raw.occurredAt as string),
      periodEnd: raw.periodEnd ? new Date(raw.periodEnd as string) : null,
    };
  }

  async session(id: string): Promise<SandboxSession | null> {
    const [row] = await this.db.select().from(sandboxSessions).where(eq(sandboxSessions.id, id));
    return row ?? null;
  }

  async update(id: string, values: Partial<SandboxSession>): Promise<SandboxSession> {
    const [row] = await this.db
      .update(sandboxSessions)
      .set(values)
      .where(eq(sandboxSessions.id, id))
      .returning();
    if (!row) throw new Error('sandbox session vanished');
    return row;
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
