import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeRequest {
  method: string;
  path: string;
  /** The form body, flat: keys keep Stripe's bracket notation (`line_items[0][quantity]`). */
  body: Record<string, string>;
  headers: IncomingHttpHeaders;
  idempotencyKey: string | null;
}

interface Reply {
  status: number;
  json: unknown;
}

const error = (status: number, type: string, message: string, code?: string): Reply => ({
  status,
  json: { error: { type, message, ...(code ? { code } : {}) } },
});

/**
 * A loopback stand-in for the Stripe API: the boundary where our payment calls leave the app.
 * Records every request and answers the endpoints the adapter uses, with Stripe's idempotent
 * replay and error shapes.
 */
export async function startFakeStripe() {
  const requests: FakeStripeRequest[] = [];
  const replays = new Map<string, { body: string; reply: Reply }>();
  const coupons = new Map<string, Record<string, unknown>>();
  const onboarded = new Set<string>();
  /** Accounts whose details are submitted and being verified. */
  const submitted = new Set<string>();
  const cancelled = new Set<string>();
  /** Payment intent (or charge) → amount refunded so far; Stripe refuses more than was charged. */
  const refunded = new Map<string, number>();
  /** What a payment intent charged, when a test told us (else any amount is taken once in full). */
  const charges = new Map<string, number>();
  /** Payment intent → the invoices it paid, as Stripe's invoice payments know them. */
  const invoicesPaid = new Map<string, string[]>();
  let seq = 0;
  let failures = 0;
  /** While set, transfers are refused with this message. */
  let refuseTransfers: string | null = null;
  const now = () => Math.floor(Date.now() / 1000);

  function route(method: string, path: string, body: Record<string, string>): Reply {
    // Retrieving a connected account: onboarded once `completeOnboarding` was called for it.
    const account = /^\/v1\/accounts\/([\w-]+)$/.exec(path);
    if (method === 'GET' && account) {
      const done = onboarded.has(account[1]!);
      const checking = !done && submitted.has(account[1]!);
      return {
        status: 200,
        json: {
          id: account[1],
          object: 'account',
          charges_enabled: done,
          payouts_enabled: done,
          details_submitted: done || checking,
          // What Stripe says a fresh Express account still owes, and why it cannot take charges.
          requirements: {
            currently_due:
              done || checking
                ? []
                : [
                    'business_profile.url',
                    'external_account',
                    'individual.dob.day',
                    'individual.dob.month',
                    'individual.verification.document',
                    'tos_acceptance.date',
                  ],
            past_due: [],
            disabled_reason: done
              ? null
              : checking
                ? 'requirements.pending_verification'
                : 'requirements.past_due',
          },
        },
      };
    }
    if (method === 'GET' && path === '/v1/invoice_payments' && body.invoice) {
      const data = [...invoicesPaid]
        .filter(([, invoices]) => invoices.includes(body.invoice!))
        .map(([intent], i) => ({
          id: `inpay_${i}_${body.invoice}`,
          object: 'invoice_payment',
          invoice: body.invoice,
          payment: { type: 'payment_intent', payment_intent: intent },
          status: 'paid',
        }));
      return {
        status: 200,
        json: { object: 'list', url: '/v1/invoice_payments', has_more: false, data },
      };
    }
    const subscription = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    if (method === 'DELETE' && subscription) {
      const id = subscription[1]!;
      if (cancelled.has(id))
        return error(
          404,
          'invalid_request_error',
          `No such subscription: '${id}'`,
          'resource_missing',
        );
      cancelled.add(id);
      return {
        status: 200,
        json: { id, object: 'subscription', status: 'canceled', canceled_at: now() },
      };
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const intent = body['payment[payment_intent]'];
      if (!intent || body['payment[type]'] !== 'payment_intent')
        return error(400, 'invalid_request_error', 'Filter by payment[payment_intent].');
      const data = (invoicesPaid.get(intent) ?? []).map((invoice, i) => ({
        id: `inpay_${i}_${invoice}`,
        object: 'invoice_payment',
        invoice,
        payment: { type: 'payment_intent', payment_intent: intent },
        status: 'paid',
      }));
      return {
        status: 200,
        json: { object: 'list', url: '/v1/invoice_payments', has_more: false, data },
      };
    }
    if (method !== 'POST') return error(404, 'invalid_request_error', `Unrecognized request URL`);
    const n = ++seq;
    switch (path) {
      case '/v1/checkout/sessions': {
        const id = `cs_test_${n}`;
        const unit = Number(body['line_items[0][price_data][unit_amount]'] ?? 0);
        const qty = Number(body['line_items[0][quantity]'] ?? 1);
        return {
          status: 200,
          json: {
            id,
            object: 'checkout.session',
            mode: body.mode,
            status: 'open',
            payment_status: 'unpaid',
            url: `https://checkout.stripe.test/c/pay/${id}`,
            expires_at: now() + 24 * 3600,
            created: now(),
            client_reference_id: body.client_reference_id ?? null,
            customer: body.customer ?? null,
            customer_email: body.customer_email ?? null,
            amount_total: unit * qty,
            currency: body['line_items[0][price_data][currency]'] ?? null,
            metadata: prefixed(body, 'metadata'),
            success_url: body.success_url ?? null,
            cancel_url: body.cancel_url ?? null,
            payment_intent: null,
            subscription: null,
            invoice: null,
          },
        };
      }
      case '/v1/coupons': {
        const id = body.id ?? `coupon_${n}`;
        if (coupons.has(id))
          return error(
            400,
            'invalid_request_error',
            'Coupon already exists.',
            'resource_already_exists',
          );
        const coupon = {
          id,
          object: 'coupon',
          amount_off: body.amount_off ? Number(body.amount_off) : null,
          currency: body.currency ?? null,
          duration: body.duration,
          valid: true,
          created: now(),
        };
        coupons.set(id, coupon);
        return { status: 200, json: coupon };
      }
      case '/v1/refunds': {
        const intent = body.payment_intent ?? body.charge;
        if (!intent) return error(400, 'invalid_request_error', 'Missing payment_intent');
        const charged = charges.get(intent) ?? Number.POSITIVE_INFINITY;
        const before = refunded.get(intent) ?? 0;
        if (before >= charged || (before > 0 && !charges.has(intent)))
          return error(
            400,
            'invalid_request_error',
            'Charge has already been refunded.',
            'charge_already_refunded',
          );
        const amount = body.amount !== undefined ? Number(body.amount) : charged - before;
        if (amount > charged - before)
          return error(
            400,
            'invalid_request_error',
            `Refund amount (${amount}) is greater than unrefunded amount on charge (${charged - before}).`,
            'amount_too_large',
          );
        refunded.set(intent, before + (Number.isFinite(amount) ? amount : 1));
        return {
          status: 200,
          json: {
            id: `re_test_${n}`,
            object: 'refund',
            payment_intent: body.payment_intent ?? null,
            charge: body.charge ?? null,
            amount: Number.isFinite(amount) ? amount : null,
            reason: body.reason ?? null,
            metadata: prefixed(body, 'metadata'),
            status: 'succeeded',
            created: now(),
          },
        };
      }
      case '/v1/customers':
        return {
          status: 200,
          json: {
            id: `cus_test_${n}`,
            object: 'customer',
            email: body.email ?? null,
            metadata: prefixed(body, 'metadata'),
            created: now(),
          },
        };
      case '/v1/billing_portal/sessions':
        return {
          status: 200,
          json: {
            id: `bps_test_${n}`,
            object: 'billing_portal.session',
            customer: body.customer,
            return_url: body.return_url ?? null,
            url: `https://billing.stripe.test/p/session/bps_test_${n}`,
            created: now(),
          },
        };
      case '/v1/accounts':
        return {
          status: 200,
          json: {
            id: `acct_test_${n}`,
            object: 'account',
            type: body.type,
            email: body.email ?? null,
            charges_enabled: false,
            payouts_enabled: false,
            details_submitted: false,
            created: now(),
          },
        };
      case '/v1/transfers': {
        // Stripe refuses a transfer it cannot make at once (no balance, account not enabled).
        if (refuseTransfers)
          return error(400, 'invalid_request_error', refuseTransfers, 'balance_insufficient');
        if (!body.destination) return error(400, 'invalid_request_error', 'Missing destination');
        return {
          status: 200,
          json: {
            id: `tr_test_${n}`,
            object: 'transfer',
            amount: Number(body.amount),
            currency: body.currency,
            destination: body.destination,
            metadata: prefixed(body, 'metadata'),
            reversed: false,
            amount_reversed: 0,
            created: now(),
          },
        };
      }
      case '/v1/account_links':
        if (!body.account) return error(400, 'invalid_request_error', 'Missing account');
        return {
          status: 200,
          json: {
            object: 'account_link',
            url: `https://connect.stripe.test/setup/e/${body.account}/${n}`,
            expires_at: now() + 300,
            created: now(),
          },
        };
      default:
        return error(404, 'invalid_request_error', `Unrecognized request URL (POST: ${path})`);
    }
  }

  function send(res: ServerResponse, reply: Reply, key: string | null) {
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'request-id': `req_fake_${requests.length}`,
      ...(key ? { 'idempotency-key': key } : {}),
    });
    res.end(JSON.stringify(reply.json));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const key =
        typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
      requests.push({
        method,
        path: url.pathname,
        // GET parameters travel in the query string, the rest in the form body.
        body: Object.fromEntries(method === 'GET' ? url.searchParams : new URLSearchParams(raw)),
        headers: req.headers,
        idempotencyKey: key,
      });

      if (failures > 0) {
        failures--;
        return send(res, error(500, 'api_error', 'Something went wrong on our end.'), key);
      }
      if (!/^Bearer sk_(test|live)_/.test(req.headers.authorization ?? ''))
        return send(res, error(401, 'invalid_request_error', 'Invalid API Key provided'), key);

      const replayKey = key && `${method} ${url.pathname} ${key}`;
      const seen = replayKey ? replays.get(replayKey) : undefined;
      if (seen) {
        if (seen.body !== raw)
          return send(
            res,
            error(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            ),
            key,
          );
        return send(res, seen.reply, key);
      }
      const reply = route(method, url.pathname, requests.at(-1)!.body);
      // Stripe replays successes and client errors, not server errors.
      if (replayKey && reply.status < 500) replays.set(replayKey, { body: raw, reply });
      send(res, reply, key);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Requests to one path, oldest first. */
    requestsTo: (path: string) => requests.filter((r) => r.path === path),
    /** A payment intent paid this invoice (what `GET /v1/invoice_payments` then reports). */
    recordInvoicePayment(invoiceId: string, paymentIntentId: string) {
      invoicesPaid.set(paymentIntentId, [...(invoicesPaid.get(paymentIntentId) ?? []), invoiceId]);
    },
    /** What a payment intent charged, so partial refunds are checked against it. */
    recordCharge(paymentIntentId: string, amount: number) {
      charges.set(paymentIntentId, amount);
    },
    /** How much of a payment intent has been refunded. */
    refundedOf: (paymentIntentId: string) => refunded.get(paymentIntentId) ?? 0,
    /** The vendor finished Stripe's hosted onboarding for this account. */
    completeOnboarding: (accountId: string) => onboarded.add(accountId),
    /** The account's details are in; Stripe is verifying them. */
    submitOnboarding: (accountId: string) => submitted.add(accountId),
    /** Refuses transfers with `message` (null: accepts them again). */
    refuseTransfers(message: string | null) {
      refuseTransfers = message;
    },
    /** Answers the next `n` requests with a 500, as during a Stripe incident. */
    failNext(n: number) {
      failures = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** `metadata[purchase_id]=x` → `{ purchase_id: 'x' }`. */
function prefixed(body: Record<string, string>, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    const m = new RegExp(`^${name}\\[([^\\]]+)\\]$`).exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}
