import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { PAYMENTS_WEBHOOK_PATH } from './port.ts';
import { stripeSandboxPages } from './stripe-sandbox-pages.ts';
import { SANDBOX_API_VERSION } from './stripe-sandbox-objects.ts';
import {
  apiKeyOf,
  stripeId,
  StripeApiError,
  type RequestContext,
  type StripeSandbox,
  type StripeWebhookTransport,
} from './stripe-sandbox.ts';
import { sandboxStripeRequests } from './tables.ts';

/*
 * Stripe's API at Stripe's paths (`/v1/...`) on the app's own port, for `local` and `sandbox`:
 * `new Stripe(key, { host, port, protocol })` reaches it as it reaches Stripe. Form bodies as the
 * SDK encodes them, the Bearer key, Stripe's error bodies, `Idempotency-Key` and list pagination.
 */

type Params = Record<string, unknown>;
type Handler = (m: RegExpExecArray, params: Params, ctx: RequestContext) => Promise<unknown>;

/**
 * `a[b][0][c]=v` → `{ a: { b: [{ c: 'v' }] } }`, as Stripe reads the SDK's bodies. Numeric
 * segments make arrays; `a[]=x` appends.
 */
export function decodeForm(search: URLSearchParams): Params {
  const root: Params = {};
  for (const [key, value] of search) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Invalid parameter: ${key}`,
        'parameter_unknown',
        key,
      );
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1]!)];
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]!);
      const slot: string | number = Array.isArray(node)
        ? seg === ''
          ? node.length
          : Number(seg)
        : seg;
      if (Array.isArray(node) && (!Number.isInteger(slot) || (slot as number) > 1000))
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `Invalid array index in ${key}`,
          'parameter_invalid',
          key,
        );
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[slot] = value;
      } else {
        if (typeof container[slot] !== 'object' || container[slot] === null)
          container[slot] = nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    }
  }
  return root;
}

const routes: Array<{
  method: string;
  path: RegExp;
  handler: (sb: StripeSandbox, origin: string) => Handler;
}> = [];
const route = (
  method: string,
  path: RegExp,
  handler: (sb: StripeSandbox, origin: string) => Handler,
) => routes.push({ method, path, handler });

const ID = '([A-Za-z0-9_]{1,255})';
const r = (s: string) => new RegExp(`^/v1/${s.replaceAll(':id', ID)}$`);

route('POST', r('checkout/sessions'), (sb, o) => (_m, p, c) => sb.createCheckoutSession(p, o, c));
route(
  'GET',
  r('checkout/sessions'),
  (sb) => (_m, p) =>
    sb.list('checkout.session', '/v1/checkout/sessions', p, pick(p, ['customer', 'status'])),
);
route(
  'GET',
  r('checkout/sessions/:id'),
  (sb) => (m) => sb.retrieve(m[1]!, 'checkout.session', 'checkout.session'),
);
route(
  'POST',
  r('checkout/sessions/:id/expire'),
  (sb) => (m, _p, c) => sb.expireCheckoutSession(m[1]!, c),
);
route('POST', r('customers'), (sb) => (_m, p, c) => sb.createCustomer(p, c));
route(
  'GET',
  r('customers'),
  (sb) => (_m, p) => sb.list('customer', '/v1/customers', p, pick(p, ['email'])),
);
route('GET', r('customers/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'customer', 'customer'));
route('POST', r('coupons'), (sb) => (_m, p, c) => sb.createCoupon(p, c));
route('GET', r('coupons/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'coupon', 'coupon'));
route(
  'POST',
  r('billing_portal/sessions'),
  (sb, o) => (_m, p, c) => sb.createPortalSession(p, o, c),
);
route('POST', r('refunds'), (sb) => (_m, p, c) => sb.createRefund(p, c));
route(
  'GET',
  r('refunds'),
  (sb) => (_m, p) => sb.list('refund', '/v1/refunds', p, pick(p, ['payment_intent', 'charge'])),
);
route('GET', r('refunds/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'refund', 'refund'));
route('GET', r('charges/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'charge', 'charge'));
route(
  'GET',
  r('subscriptions'),
  (sb) => (_m, p) =>
    sb.list('subscription', '/v1/subscriptions', p, pick(p, ['customer', 'status'])),
);
route(
  'GET',
  r('subscriptions/:id'),
  (sb) => (m) => sb.retrieve(m[1]!, 'subscription', 'subscription'),
);
route('POST', r('subscriptions/:id'), (sb) => (m, p, c) => sb.updateSubscription(m[1]!, p, c));
route('DELETE', r('subscriptions/:id'), (sb) => (m, _p, c) => sb.cancelSubscription(m[1]!, c));
route('POST', r('subscriptions/:id/resume'), (sb) => (m, _p, c) => sb.resumeSubscription(m[1]!, c));
route('GET', r('invoices/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'invoice', 'invoice'));
route('GET', r('invoice_payments'), (sb) => (_m, p) => {
  const payment = p.payment as Params | undefined;
  const filter: Params = {
    ...pick(p, ['invoice', 'status']),
    ...(payment?.payment_intent ? { payment: { payment_intent: payment.payment_intent } } : {}),
  };
  return sb.list('invoice_payment', '/v1/invoice_payments', p, filter);
});
route('POST', r('accounts'), (sb) => (_m, p, c) => sb.createAccount(p, c));
route('GET', r('accounts'), (sb) => (_m, p) => sb.list('account', '/v1/accounts', p));
route('GET', r('accounts/:id'), (sb) => (m) => sb.retrieveAccount(m[1]!));
route('POST', r('account_links'), (sb, o) => (_m, p, c) => sb.createAccountLink(p, o, c));
route('POST', r('transfers'), (sb) => (_m, p, c) => sb.createTransfer(p, c));
route(
  'GET',
  r('transfers'),
  (sb) => (_m, p) =>
    sb.list('transfer', '/v1/transfers', p, pick(p, ['destination', 'transfer_group'])),
);
route('GET', r('transfers/:id'), (sb) => (m) => sb.retrieve(m[1]!, 'transfer', 'transfer'));
route(
  'POST',
  r('transfers/:id/reversals'),
  (sb) => (m, p, c) => sb.createTransferReversal(m[1]!, p, c),
);
route('GET', r('events'), (sb) => (_m, p) => sb.list('event', '/v1/events', p, pick(p, ['type'])));
route('GET', r('events/:id'), (sb) => (m) => sb.retrieveEvent(m[1]!));

function pick(p: Params, keys: string[]): Params {
  const out: Params = {};
  for (const k of keys) if (typeof p[k] === 'string') out[k] = p[k];
  return out;
}

const IDEMPOTENCY_MISMATCH =
  'Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than the one you used with this request.';

/** The app takes Stripe's events: delivered in process, through the same route and signature check. */
export const inProcessTransport =
  (app: FastifyInstance): StripeWebhookTransport =>
  async (body, signature) =>
    (
      await app.inject({
        method: 'POST',
        url: PAYMENTS_WEBHOOK_PATH,
        payload: body,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
        },
      })
    ).statusCode;

/** The `/v1` routes (registered in local and sandbox environments only, see `deps.ts`). */
export async function stripeSandboxModule(app: FastifyInstance): Promise<void> {
  const sandbox = app.deps.stripeSandbox!;
  const db = app.deps.database.db;
  const origin = publicOrigin(app.deps.config);
  sandbox.setTransport(inProcessTransport(app));
  // Its hosted pages, where its API sends browsers.
  await app.register(async (pages) => stripeSandboxPages(pages, sandbox));
  await app.register(async (app) => {
    // The SDK's bodies: form-encoded, read as text and decoded the way Stripe decodes them.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_req, body, done) => done(null, body),
    );

    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: '/v1/*',
      schema: { hide: true },
      handler: async (req, reply) => answer(req, reply),
    });

    async function answer(req: FastifyRequest, reply: FastifyReply) {
      const requestId = stripeId('req', 14);
      void reply
        .header('request-id', requestId)
        .header('stripe-version', SANDBOX_API_VERSION)
        .header('cache-control', 'no-cache, no-store');
      const send = (status: number, body: unknown) => reply.status(status).send(body);
      if (!sandbox.authorized(req.headers.authorization)) {
        const given = apiKeyOf(req.headers.authorization);
        return send(401, {
          error: {
            type: 'invalid_request_error',
            message: given
              ? `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
              : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        });
      }
      const url = new URL(req.url, 'http://sandbox');
      const raw =
        req.method === 'GET' || req.method === 'DELETE'
          ? url.search.slice(1)
          : typeof req.body === 'string'
            ? req.body
            : '';
      const path = url.pathname;
      const found = routes.find((x) => x.method === req.method && x.path.test(path));
      if (!found)
        return send(404, {
          error: {
            type: 'invalid_request_error',
            message: `Unrecognized request URL (${req.method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
          },
        });
      let params: Params;
      try {
        params = decodeForm(new URLSearchParams(raw));
      } catch (err) {
        if (err instanceof StripeApiError) return send(err.status, err.body());
        throw err;
      }
      const keyHeader = req.headers['idempotency-key'];
      // Stripe honours keys on POST; GET and DELETE are idempotent already.
      const key =
        req.method === 'POST' && typeof keyHeader === 'string' && keyHeader
          ? keyHeader.slice(0, 255)
          : null;
      const bodyHash = createHash('sha256').update(`${req.method} ${path}\n${raw}`).digest('hex');
      const ctx: RequestContext = { id: requestId, idempotencyKey: key };

      // The first request with a key is logged as in progress; a repeat is answered from it.
      const [logged] = await db
        .insert(sandboxStripeRequests)
        .values({ requestId, method: req.method, path, params, idempotencyKey: key, bodyHash })
        .onConflictDoNothing()
        .returning({ id: sandboxStripeRequests.id });
      if (!logged) {
        const [first] = await db
          .select()
          .from(sandboxStripeRequests)
          .where(
            and(
              eq(sandboxStripeRequests.idempotencyKey, key!),
              isNull(sandboxStripeRequests.replayOf),
            ),
          );
        if (!first) return send(409, conflict());
        let status: number;
        let body: unknown;
        if (first.bodyHash !== bodyHash) {
          status = 400;
          body = { error: { type: 'idempotency_error', message: IDEMPOTENCY_MISMATCH } };
        } else if (first.status === null) {
          status = 409;
          body = conflict();
        } else {
          status = first.status;
          body = first.response;
          void reply
            .header('idempotent-replayed', 'true')
            .header('original-request', first.requestId);
        }
        await db.insert(sandboxStripeRequests).values({
          requestId,
          method: req.method,
          path,
          params,
          idempotencyKey: key,
          bodyHash,
          status,
          response: body,
          replayOf: first.id,
        });
        if (key) void reply.header('idempotency-key', key);
        return send(status, body);
      }
      if (key) void reply.header('idempotency-key', key);

      let status = 200;
      let body: unknown;
      try {
        body = await found.handler(sandbox, origin)(found.path.exec(path)!, params, ctx);
      } catch (err) {
        if (!(err instanceof StripeApiError)) {
          // Not an answer Stripe would keep: a retry with the key runs again.
          await db.delete(sandboxStripeRequests).where(eq(sandboxStripeRequests.id, logged.id));
          req.log.error({ err }, 'stripe sandbox request failed');
          return send(500, {
            error: { type: 'api_error', message: 'Something went wrong on our end.' },
          });
        }
        status = err.status;
        body = err.body();
      }
      await db
        .update(sandboxStripeRequests)
        .set({ status, response: body })
        .where(eq(sandboxStripeRequests.id, logged.id));
      return send(status, body);
    }
  });
}

const conflict = () => ({
  error: {
    type: 'invalid_request_error',
    code: 'idempotency_key_in_use',
    message:
      'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): please retry later.',
  },
});

/** The request log, oldest first (Stripe dashboard's Logs): what the adapter sent, for tests. */
export async function loggedRequests(db: Db, path: string) {
  return db
    .select()
    .from(sandboxStripeRequests)
    .where(and(eq(sandboxStripeRequests.path, path), sql`true`))
    .orderBy(sandboxStripeRequests.id);
}
