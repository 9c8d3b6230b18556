import { asc, eq, sql } from 'drizzle-orm';
import { sandboxStripeRequests } from '../src/integrations/payments/tables.ts';
import type { StripeSandbox } from '../src/integrations/payments/stripe-sandbox.ts';
import { inProcessTransport } from '../src/integrations/payments/stripe-sandbox-routes.ts';
import { startTestApp, type TestApp } from './harness.ts';

export interface LoggedStripeRequest {
  method: string;
  path: string;
  /** The form body, flat: keys keep Stripe's bracket notation (`line_items[0][quantity]`). */
  body: Record<string, string>;
  idempotencyKey: string | null;
  /** Answered from an earlier request with the same idempotency key. */
  replayed: boolean;
}

/**
 * The app on its own Stripe sandbox (`/v1` on the test app's loopback port), for tests that look at
 * what was sent to Stripe: the one imitation of Stripe, with its request log (the dashboard's Logs),
 * an outage switch, and its webhook deliveries held back or let through.
 */
export async function startStripeSandbox(env: Record<string, string> = {}) {
  let failures = 0;
  /** Idempotency keys of requests answered with a 500 by `failNext` (they never reach the sandbox). */
  const failedKeys: Array<string | null> = [];
  const t: TestApp = await startTestApp(env, {
    beforeReady(app) {
      app.addHook('onRequest', async (req, reply) => {
        if (failures <= 0 || !req.url.startsWith('/v1/')) return;
        failures--;
        const key = req.headers['idempotency-key'];
        failedKeys.push(typeof key === 'string' ? key : null);
        await reply.status(500).send({
          error: { type: 'api_error', message: 'Something went wrong on our end.' },
        });
      });
    },
  });
  const sandbox: StripeSandbox = t.deps.stripeSandbox!;
  return {
    t,
    sandbox,
    url: t.config.STRIPE_API_URL!,
    secretKey: t.config.STRIPE_SECRET_KEY!,
    webhookSecret: t.config.STRIPE_WEBHOOK_SECRET!,
    failedKeys,
    /** Requests to one path, oldest first. */
    async requestsTo(path: string): Promise<LoggedStripeRequest[]> {
      const rows = await t.database.db
        .select()
        .from(sandboxStripeRequests)
        .where(eq(sandboxStripeRequests.path, path))
        .orderBy(asc(sandboxStripeRequests.id));
      return rows.map((r) => ({
        method: r.method,
        path: r.path,
        body: flatten(r.params),
        idempotencyKey: r.idempotencyKey,
        replayed: r.replayOf !== null,
      }));
    },
    /** Answers the next `n` API requests with a 500, as during a Stripe incident. */
    failNext(n: number) {
      failures = n;
    },
    /** Stripe's events cannot reach the app (it answers 503 for them) until `deliverEvents`. */
    holdEvents() {
      sandbox.setTransport(async () => 503);
    },
    /** Lets events through again and sends every undelivered one now. */
    async deliverEvents() {
      sandbox.setTransport(inProcessTransport(t.app));
      await t.database.db.execute(sql`update sandbox_stripe_events set next_attempt_at = now()
        where delivered_at is null`);
      return sandbox.sendDue();
    },
    close: () => t.close(),
  };
}

export type StripeSandboxHandle = Awaited<ReturnType<typeof startStripeSandbox>>;

/** `{ a: { b: [{ c: 'v' }] } }` → `{ 'a[b][0][c]': 'v' }`, the SDK's form keys. */
function flatten(value: unknown, prefix = '', out: Record<string, string> = {}) {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}[${k}]` : k, out);
  } else if (prefix) {
    out[prefix] = String(value);
  }
  return out;
}
