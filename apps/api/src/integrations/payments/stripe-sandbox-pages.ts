import { formatMoney } from '@tradeshelf/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cspNonce } from '../../platform/csp.ts';
import { AppError } from '../../platform/errors.ts';
import { localOnly } from '../../platform/local-only.ts';
import { disabledReasonSentence, requirementSentences } from './requirements.ts';
import { esc, page, policy } from './sandbox-page.ts';
import type { SandboxLine } from './stripe-sandbox-objects.ts';
import type { SessionPrivate, StripeSandbox, SubscriptionPrivate } from './stripe-sandbox.ts';

/*
 * The Stripe sandbox's hosted pages, at the paths its API hands out: checkout (Pay / Cancel), the
 * billing portal, Connect onboarding, and (local only) a dashboard. Each acts through the same
 * `StripeSandbox` methods the API uses, so a page's click and an API call change the same state and
 * send the same events.
 */

const id = z.string().regex(/^[\w-]{1,100}$/, 'Not a sandbox id.');
const idParams = z.object({ id });
const portalActionParams = z.object({ id, sub: id, action: z.enum(['cancel', 'resume']) });
const actions = ['refund_half', 'refund', 'renew', 'fail', 'dispute', 'end'] as const;
const actionParams = z.object({ id, action: z.enum(actions) });
const transferParams = z.object({ id, action: z.enum(['fail', 'reverse']) });
const linkParams = z.object({
  token: z.string().regex(/^[\w.-]{1,200}$/, 'Not an onboarding link.'),
});

/** How long a billing portal session's URL opens the portal. */
const PORTAL_SECONDS = 3600;

/** The billing interval in the words the app uses (3 months is a quarter). */
function every(line: SandboxLine): string {
  const r = line.recurring;
  if (!r) return '';
  return r.interval === 'month' && r.interval_count === 3 ? 'quarter' : r.interval;
}

function couponOff(coupon: Stripe.Coupon | null, amount: number): number {
  if (!coupon) return 0;
  if (coupon.amount_off !== null) return Math.min(amount, coupon.amount_off);
  return Math.round((amount * (coupon.percent_off ?? 0)) / 100);
}

/** What the next renewal of a subscription charges (a first-payment coupon only before any charge). */
function nextCharge(priv: SubscriptionPrivate): number {
  const subtotal = priv.line.unitAmount * priv.line.quantity;
  const c = priv.coupon;
  const applies = c && (c.duration === 'forever' || (c.duration === 'once' && priv.charges === 0));
  return subtotal - (applies ? couponOff(c, subtotal) : 0);
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const periodEnd = (sub: Stripe.Subscription) =>
  Math.max(...sub.items.data.map((i) => i.current_period_end));

export async function stripeSandboxPages(
  fastify: FastifyInstance,
  sandbox: StripeSandbox,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // HTML forms post url-encoded bodies; only the onboarding form reads its fields.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(body);

  async function sessionOr404(sessionId: string) {
    const row = await sandbox.row(sessionId, 'checkout.session');
    if (!row) throw new AppError('not_found', 'That checkout session does not exist.');
    return {
      s: row.data as unknown as Stripe.Checkout.Session,
      priv: row.private as unknown as SessionPrivate,
    };
  }

  /* Checkout: what the buyer pays today and after any trial; Pay or Cancel. */
  app.get(
    '/sandbox/checkout/:id',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const { s, priv } = await sessionOr404(req.params.id);
      const { line, coupon } = priv;
      const cur = line.currency;
      const subtotal = line.unitAmount * line.quantity;
      const per = line.recurring ? ` / ${every(line)}` : '';
      const trialDays = Number(priv.params.subscription_data?.trial_period_days ?? 0);
      const off = couponOff(coupon, subtotal);
      let email = s.customer_email;
      if (!email && typeof s.customer === 'string') {
        const c = await sandbox.row(s.customer, 'customer');
        email = (c?.data as { email?: string | null } | undefined)?.email ?? null;
      }
      const rows = [
        `<tr><td>${esc(line.name)}</td><td>${formatMoney(subtotal, cur)}${per}</td></tr>`,
        off
          ? `<tr><td>Coupon (${coupon!.duration === 'once' ? 'first payment' : 'every payment'})</td><td>−${formatMoney(off, cur)}</td></tr>`
          : '',
        trialDays ? `<tr><td>Free trial</td><td>${trialDays} days</td></tr>` : '',
        `<tr><td><strong>Due today</strong></td><td><strong>${formatMoney(s.amount_total ?? 0, cur)}</strong></td></tr>`,
        trialDays
          ? `<tr><td>Then, when the trial ends</td><td>${formatMoney(subtotal - off, cur)}${per}</td></tr>`
          : '',
      ].join('');
      const open = s.status === 'open' && s.expires_at * 1000 > Date.now();
      return html(
        reply,
        page(
          cspNonce(reply, policy),
          'Checkout',
          `<h1>Pay ${esc(line.name)}</h1><p class="muted">Paying as ${esc(email ?? '')}</p>
<table>${rows}</table>
${
  open
    ? `<div class="row"><form method="post" action="/sandbox/checkout/${esc(s.id)}/pay"><button class="primary" type="submit">Pay</button></form>
<form method="post" action="/sandbox/checkout/${esc(s.id)}/cancel"><button type="submit">Cancel</button></form></div>`
    : `<p>This checkout is <span class="badge">${s.status === 'open' ? 'expired' : esc(s.status ?? '')}</span>.</p>`
}`,
        ),
      );
    },
  );

  app.post(
    '/sandbox/checkout/:id/pay',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const { s } = await sessionOr404(req.params.id);
      const success = (s.success_url ?? '/').replace(
        '{CHECKOUT_SESSION_ID}',
        encodeURIComponent(s.id),
      );
      if (s.status === 'open' && s.expires_at * 1000 <= Date.now())
        throw new AppError('business_rule', 'This checkout has expired. Start again.');
      // Paid and its events recorded together; delivery is retried until the endpoint takes them.
      await sandbox.completeCheckoutSession(s.id);
      return reply.redirect(success, 303);
    },
  );

  app.post(
    '/sandbox/checkout/:id/cancel',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const { s } = await sessionOr404(req.params.id);
      if (s.status === 'open') await sandbox.expireCheckoutSession(s.id, null).catch(() => null);
      return reply.redirect(s.cancel_url ?? '/', 303);
    },
  );

  /* Billing portal: the customer's subscriptions, cancel at period end or resume. */
  async function portalCustomer(portalId: string): Promise<string | null> {
    const row = await sandbox.row(portalId, 'billing_portal.session');
    const session = row?.data as unknown as Stripe.BillingPortal.Session | undefined;
    if (!session || session.created + PORTAL_SECONDS < Date.now() / 1000) return null;
    return session.customer;
  }

  app.get(
    '/sandbox/portal/:id',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const portalId = req.params.id;
      const customerId = await portalCustomer(portalId);
      if (!customerId) {
        return html(
          reply,
          page(
            cspNonce(reply, policy),
            'Link expired',
            '<h1>This link has expired</h1><p><a href="/orders">Back to your orders</a></p>',
          ),
          404,
        );
      }
      const list = (await sandbox.subscriptionsOf(customerId))
        .map(({ sub, priv }) => {
          const end = day(sub.cancel_at ?? periodEnd(sub));
          const ended = sub.status === 'canceled';
          const state = ended
            ? 'Ended'
            : sub.cancel_at_period_end
              ? `Cancels on ${end}`
              : `Renews on ${end}`;
          const action = ended
            ? ''
            : sub.cancel_at_period_end
              ? `<form method="post" action="/sandbox/portal/${esc(portalId)}/${esc(sub.id)}/resume"><button class="primary" type="submit">Resume subscription</button></form>`
              : `<form method="post" action="/sandbox/portal/${esc(portalId)}/${esc(sub.id)}/cancel"><button type="submit">Cancel subscription</button></form>`;
          return `<tr><td>${esc(priv.line.name)}<br><span class="muted">${formatMoney(nextCharge(priv), priv.line.currency)} / ${esc(every(priv.line))} · ${esc(state)}</span></td><td>${action}</td></tr>`;
        })
        .join('');
      return html(
        reply,
        page(
          cspNonce(reply, policy),
          'Manage subscriptions',
          `<h1>Manage subscriptions</h1>${list ? `<table>${list}</table>` : '<p>No subscriptions.</p>'}
<p class="muted">Payment method: sandbox card ending 4242.</p><p><a href="/orders" style="color:#9db6ff">Back to your orders</a></p>`,
        ),
      );
    },
  );

  app.post(
    '/sandbox/portal/:id/:sub/:action',
    { schema: { hide: true, params: portalActionParams } },
    async (req, reply) => {
      const { id: portalId, sub: subId, action } = req.params;
      const customerId = await portalCustomer(portalId);
      const row = await sandbox.row(subId, 'subscription');
      const sub = row?.data as unknown as Stripe.Subscription | undefined;
      if (!customerId || !sub || sub.customer !== customerId)
        throw new AppError('not_found', 'That subscription does not exist.');
      if (sub.status !== 'canceled')
        await sandbox.updateSubscription(
          subId,
          { cancel_at_period_end: action === 'cancel' ? 'true' : 'false' },
          null,
        );
      return reply.redirect(`/sandbox/portal/${portalId}`, 303);
    },
  );

  await connectPages(fastify, sandbox);

  /* The dashboard: what support would do in Stripe's. Local only. */
  if (fastify.deps.config.APP_ENV !== 'local') return;
  await app.register(async (dashboard) => {
    dashboard.addHook('onRequest', localOnly(fastify.deps.config));
    const routes = dashboard.withTypeProvider<ZodTypeProvider>();

    routes.get('/sandbox/payments', { schema: { hide: true } }, async (_req, reply) => {
      const [sessions, events, transfers] = await Promise.all([
        sandbox.completedSessions(),
        sandbox.recentEvents(),
        sandbox.recent<Stripe.Transfer>('transfer', 30),
      ]);
      const list = sessions
        .map(({ session: s, priv, sub, charge }) => {
          const refunded = charge !== null && charge.amount_refunded >= charge.amount;
          const subText = sub
            ? ` · subscription ${esc(sub.status)}${sub.status === 'canceled' ? '' : ` to ${day(periodEnd(sub))}`}`
            : '';
          const live = sub !== null && sub.status !== 'canceled';
          const buttons = actions
            .filter((a) => (a === 'renew' || a === 'fail' || a === 'end' ? live : true))
            // Refunds and disputes need a charged first payment (not a trial's).
            .filter((a) => (a === 'renew' || a === 'fail' || a === 'end' ? true : charge !== null))
            .filter(() => !refunded)
            .map(
              (a) =>
                `<form method="post" action="/sandbox/payments/${esc(s.id)}/${a}"><button type="submit">${
                  {
                    refund_half: 'Refund half',
                    refund: 'Refund',
                    renew: 'Renew now',
                    fail: 'Fail renewal',
                    dispute: 'Dispute',
                    end: 'End subscription',
                  }[a]
                }</button></form>`,
            )
            .join(' ');
          const email = s.customer_details?.email ?? s.customer_email ?? '';
          return `<tr><td>${esc(priv.line.name)}<br><span class="muted">${esc(email)} · ${new Date(s.created * 1000).toISOString().slice(0, 16).replace('T', ' ')}${subText}${refunded ? ' · refunded' : ''}</span><div class="row">${buttons}</div></td></tr>`;
        })
        .join('');
      const transferRows = transfers
        .map(({ data: tr }) => {
          const buttons = tr.reversed
            ? ''
            : `<div class="row"><form method="post" action="/sandbox/transfers/${esc(tr.id)}/fail"><button type="submit">Fail transfer</button></form>
<form method="post" action="/sandbox/transfers/${esc(tr.id)}/reverse"><button type="submit">Reverse transfer</button></form></div>`;
          const state = tr.reversed ? 'reversed' : 'paid';
          return `<tr><td>Transfer ${formatMoney(tr.amount, tr.currency)} to ${esc(String(tr.destination))}<br><span class="muted">${esc(tr.id)} · ${new Date(tr.created * 1000).toISOString().slice(0, 16).replace('T', ' ')} · <span class="badge">${state}</span></span>${buttons}</td></tr>`;
        })
        .join('');
      const deliveries = events
        .map((e) => {
          const state = e.deliveredAt
            ? 'delivered'
            : e.attempts === 0
              ? 'no endpoint'
              : `not delivered (${e.attempts} ${e.attempts === 1 ? 'attempt' : 'attempts'}${e.lastError ? `: ${esc(e.lastError)}` : ''}) · next ${e.nextAttemptAt.toISOString().slice(11, 19)}`;
          const again = e.deliveredAt
            ? ''
            : `<form method="post" action="/sandbox/events/${esc(e.id)}/retry"><button type="submit">Deliver again</button></form>`;
          return `<tr><td>${esc(e.type)}<br><span class="muted">${esc(e.id)} · ${e.createdAt.toISOString().slice(0, 19).replace('T', ' ')} · <span class="badge">${state}</span></span></td><td>${again}</td></tr>`;
        })
        .join('');
      return html(
        reply,
        page(
          cspNonce(reply, policy),
          'Payments',
          `<h1>Sandbox payments</h1>${list ? `<table>${list}</table>` : '<p>No payments yet.</p>'}
<h2>Transfers</h2>${transferRows ? `<table>${transferRows}</table>` : '<p>No transfers yet.</p>'}
<h2>Webhook deliveries</h2><p class="muted">Each event is retried with backoff until the endpoint answers 2xx, for up to three days.</p>${deliveries ? `<table>${deliveries}</table>` : '<p>No events yet.</p>'}`,
        ),
      );
    });

    routes.post(
      '/sandbox/events/:id/retry',
      { schema: { hide: true, params: idParams } },
      async (req, reply) => {
        await sandbox.retry(req.params.id);
        return reply.redirect('/sandbox/payments', 303);
      },
    );

    routes.post(
      '/sandbox/transfers/:id/:action',
      { schema: { hide: true, params: transferParams } },
      async (req, reply) => {
        // Stripe's transfers do not fail after the fact: what it cannot pay out, it reverses.
        await sandbox.reverseTransferNow(
          req.params.id,
          req.params.action === 'fail'
            ? 'The bank account of the connected account rejected the transfer.'
            : 'The platform reversed the transfer.',
        );
        return reply.redirect('/sandbox/payments', 303);
      },
    );

    routes.post(
      '/sandbox/payments/:id/:action',
      { schema: { hide: true, params: actionParams } },
      async (req, reply) => {
        const { action } = req.params;
        const { s } = await sessionOr404(req.params.id);
        const sub = typeof s.subscription === 'string' ? s.subscription : null;
        if (action === 'refund_half') await sandbox.refundSession(s.id, true);
        else if (action === 'refund') await sandbox.refundSession(s.id, false);
        else if (action === 'renew' && sub) await sandbox.renewSubscription(sub);
        else if (action === 'fail' && sub) await sandbox.renewSubscription(sub, true);
        else if (action === 'dispute') await sandbox.disputeSession(s.id);
        else if (action === 'end' && sub) await sandbox.endSubscriptionNow(sub);
        return reply.redirect('/sandbox/payments', 303);
      },
    );
  });
}

const countries = [
  ['US', 'United States'],
  ['GB', 'United Kingdom'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['CA', 'Canada'],
  ['AU', 'Australia'],
] as const;

interface Form {
  businessName?: string;
  country?: string;
  account?: string;
  tos?: string;
  outcome?: string;
}

/** Field → message; empty when the form is complete. */
function problems(form: Form): Record<string, string> {
  const out: Record<string, string> = {};
  if (!form.businessName?.trim()) out.businessName = 'Enter the name you sell under.';
  if (!countries.some(([c]) => c === form.country)) out.country = 'Choose your country.';
  if (!/^[A-Z0-9 ]{6,34}$/i.test(form.account?.trim() ?? ''))
    out.account = 'Enter a bank account number or IBAN (6 to 34 letters and digits).';
  if (form.tos !== 'on') out.tos = 'Accept the services agreement to continue.';
  return out;
}

/**
 * Connect onboarding (Stripe's hosted onboarding, in miniature), opened by an account link: a form
 * with the details a new account owes; submitting it makes the account active, or leaves it pending
 * verification when asked (`account.updated` either way), and returns to the link's return URL.
 */
async function connectPages(fastify: FastifyInstance, sandbox: StripeSandbox): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const linkOr404 = async (token: string) => {
    const link = await sandbox.accountForLink(token);
    if (!link || link === 'expired')
      throw new AppError(
        'not_found',
        'This onboarding link is not valid or has expired. Start again from Tradeshelf.',
      );
    return link;
  };

  const render = async (
    reply: FastifyReply,
    token: string,
    link: Awaited<ReturnType<typeof linkOr404>>,
    form: Form = {},
    errors: Record<string, string> = {},
  ) => {
    const { account } = link;
    const due = [
      ...(account.requirements?.past_due ?? []),
      ...(account.requirements?.currently_due ?? []),
    ];
    const nonce = cspNonce(reply, policy);
    const err = (field: string) =>
      errors[field] ? `<p class="error" id="${field}-error">${esc(errors[field]!)}</p>` : '';
    const described = (field: string) =>
      errors[field] ? ` aria-invalid="true" aria-describedby="${field}-error"` : '';
    let body: string;
    if (account.charges_enabled) {
      body = `<h1>Payouts are set up</h1><p>This account is active: sales pay out to it.</p>
<p><a href="${esc(link.returnUrl)}">Back to Tradeshelf</a></p>`;
    } else if (link.state === 'pending_verification') {
      body = `<h1>Verifying your details</h1>
<p>${esc(disabledReasonSentence(account.requirements?.disabled_reason ?? null) ?? '')} In the sandbox you can finish it now.</p>
<div class="row"><form method="post" action="/sandbox/connect/${esc(token)}"><input type="hidden" name="outcome" value="verify">
<button class="primary" type="submit">Complete verification</button></form>
<a href="${esc(link.returnUrl)}">Back to Tradeshelf</a></div>`;
    } else {
      const value = (v: string | undefined) => esc(v ?? '');
      body = `<h1>Set up payouts</h1>
<p class="muted">For ${esc(account.email ?? 'your account')}. Still due:</p>
<ul class="due">${requirementSentences(due)
        .map((r) => `<li>${esc(r)}</li>`)
        .join('')}</ul>
${Object.keys(errors).length ? '<p class="error" role="alert">Some details are missing. Check the fields below.</p>' : ''}
<form method="post" action="/sandbox/connect/${esc(token)}" novalidate>
<div class="field"><label for="businessName">Business or trading name</label>
<input id="businessName" name="businessName" autocomplete="organization" value="${value(form.businessName ?? account.business_profile?.name ?? '')}"${described('businessName')}>${err('businessName')}</div>
<div class="field"><label for="country">Country</label>
<select id="country" name="country"${described('country')}><option value="">Choose…</option>${countries
        .map(
          ([c, name]) =>
            `<option value="${c}"${form.country === c ? ' selected' : ''}>${esc(name)}</option>`,
        )
        .join('')}</select>${err('country')}</div>
<div class="field"><label for="account">Bank account number or IBAN</label>
<input id="account" name="account" inputmode="text" autocomplete="off" placeholder="000123456789" value="${value(form.account)}"${described('account')}>${err('account')}</div>
<div class="check"><input type="checkbox" id="tos" name="tos"${form.tos === 'on' ? ' checked' : ''}${described('tos')}>
<label for="tos">I accept the payment sandbox’s services agreement.</label></div>${err('tos')}
<div class="row"><button class="primary" type="submit" name="outcome" value="active">Submit</button>
<button type="submit" name="outcome" value="pending">Submit, verify later</button></div>
</form>
<p><a href="${esc(link.refreshUrl)}">Save and return later</a></p>`;
    }
    return reply
      .status(Object.keys(errors).length ? 400 : 200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(nonce, 'Set up payouts', body));
  };

  app.get(
    '/sandbox/connect/:token',
    { schema: { hide: true, params: linkParams } },
    async (req, reply) => render(reply, req.params.token, await linkOr404(req.params.token)),
  );

  app.post(
    '/sandbox/connect/:token',
    { schema: { hide: true, params: linkParams } },
    async (req, reply) => {
      const { token } = req.params;
      const link = await linkOr404(token);
      const form = (req.body ?? {}) as Form;
      if (form.outcome === 'verify') {
        if (link.state === 'pending_verification')
          await sandbox.setAccountState(link.account.id, 'active');
        return reply.redirect(link.returnUrl, 303);
      }
      const errors = problems(form);
      if (Object.keys(errors).length) return render(reply, token, link, form, errors);
      await sandbox.setAccountState(
        link.account.id,
        form.outcome === 'pending' ? 'pending_verification' : 'active',
        form.businessName!.trim(),
      );
      return reply.redirect(link.returnUrl, 303);
    },
  );
}
