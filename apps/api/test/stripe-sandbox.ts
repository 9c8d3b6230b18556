import { asc, eq } from 'drizzle-orm';
import { sandboxStripeRequests } from '../src/integrations/payments/tables.ts';
import type { StripeSandbox } from '../src/integrations/payments/stripe-sandbox.ts';
import { startTestApp, type TestApp } from './harness.ts';
import { listen } from './http.ts';

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
 * The app's own Stripe sandbox (`/v1`) on a loopback port, for tests of code that calls Stripe: the
 * one imitation of Stripe, with its request log (the dashboard's Logs) to see what was sent.
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
  const port = await listen(t.app);
  const sandbox: StripeSandbox = t.deps.stripeSandbox!;
  return {
    t,
    sandbox,
    url: `http://127.0.0.1:${port}`,
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
