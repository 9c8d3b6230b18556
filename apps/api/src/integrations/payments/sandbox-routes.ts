import { formatMoney } from '@tradeshelf/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cspNonce } from '../../platform/csp.ts';
import { AppError } from '../../platform/errors.ts';
import { localOnly } from '../../platform/local-only.ts';
import { PAYMENTS_WEBHOOK_PATH } from './port.ts';
import { connectPages } from './sandbox-connect-routes.ts';
import { esc, page, policy } from './sandbox-page.ts';
import {
  addInterval,
  firstCharge,
  renewalCharge,
  SANDBOX_SIGNATURE_HEADER,
  type SandboxSession,
} from './sandbox.ts';

// Ids and portal tokens are URL-safe by construction; anything else is not ours.
const id = z.string().regex(/^[\w-]{1,100}$/, 'Not a sandbox id.');
const idParams = z.object({ id });
const portalParams = z.object({ token: z.string().regex(/^[\w.-]{1,500}$/, 'Not a portal link.') });
const portalActionParams = portalParams.extend({ id, action: z.enum(['cancel', 'resume']) });
const actions = ['refund_half', 'refund', 'renew', 'fail', 'dispute', 'end'] as const;
const actionParams = z.object({ id, action: z.enum(actions) });
const eventParams = z.object({ id });
const transferParams = z.object({ id, action: z.enum(['fail', 'reverse']) });

/** The sandbox's hosted pages: checkout, customer portal and (local only) a payments dashboard. */
export async function sandboxPaymentsModule(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sandbox = app.deps.sandbox!;
  // Events reach the real webhook endpoint in process: same route, signature check and handler.
  sandbox.setTransport(
    async (body, signature) =>
      (
        await app.inject({
          method: 'POST',
          url: PAYMENTS_WEBHOOK_PATH,
          payload: body,
          headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
        })
      ).statusCode,
  );
  // HTML forms post url-encoded bodies; most pages act on the path alone.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    // Only the onboarding form reads its fields (sandbox-connect-routes.ts).
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  await connectPages(app, sandbox);

  async function sessionOr404(id: string): Promise<SandboxSession> {
    const session = await sandbox.session(id);
    if (!session) throw new AppError('not_found', 'That checkout session does not exist.');
    return session;
  }

  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(body);

  app.get(
    '/sandbox/checkout/:id',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const s = await sessionOr404(req.params.id);
      const r = s.request;
      const discount = r.discount?.amountOff ?? 0;
      const due = firstCharge(r);
      const every = r.item.interval ? ` / ${r.item.interval}` : '';
      const rowsHtml = [
        `<tr><td>${esc(r.item.name)}</td><td>${formatMoney(r.item.amount, r.item.currency)}${every}</td></tr>`,
        discount
          ? `<tr><td>Coupon (${r.discount!.duration === 'once' ? 'first payment' : 'every payment'})</td><td>−${formatMoney(discount, r.item.currency)}</td></tr>`
          : '',
        r.memberDiscount
          ? `<tr><td>${esc(r.memberDiscount.label)}${r.mode === 'subscription' ? ' (every payment)' : ''}</td><td>−${formatMoney(r.memberDiscount.amountOff, r.item.currency)}</td></tr>`
          : '',
        r.trialDays ? `<tr><td>Free trial</td><td>${r.trialDays} days</td></tr>` : '',
        `<tr><td><strong>Due today</strong></td><td><strong>${formatMoney(due, r.item.currency)}</strong></td></tr>`,
        r.trialDays
          ? `<tr><td>Then, when the trial ends</td><td>${formatMoney(renewalCharge(r, 1), r.item.currency)}${every}</td></tr>`
          : '',
      ].join('');
      const open = s.status === 'open' && s.expiresAt > new Date();
      return html(
        reply,
        page(
          cspNonce(reply, policy),
          'Checkout',
          `<h1>Pay ${esc(r.item.name)}</h1><p class="muted">Paying as ${esc(r.buyer.email)}</p>
<table>${rowsHtml}</table>
${
  open
    ? `<div class="row"><form method="post" action="/sandbox/checkout/${esc(s.id)}/pay"><button class="primary" type="submit">Pay</button></form>
<form method="post" action="/sandbox/checkout/${esc(s.id)}/cancel"><button type="submit">Cancel</button></form></div>`
    : `<p>This checkout is <span class="badge">${s.status === 'open' ? 'expired' : esc(s.status)}</span>.</p>`
}`,
        ),
      );
    },
  );

  app.post(
    '/sandbox/checkout/:id/pay',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const s = await sessionOr404(req.params.id);
      const success = s.request.successUrl.replace(
        '{CHECKOUT_SESSION_ID}',
        encodeURIComponent(s.id),
      );
      if (s.status !== 'open') return reply.redirect(success, 303);
      if (s.expiresAt <= new Date()) {
        throw new AppError('business_rule', 'This checkout has expired. Start again.');
      }
      const r = s.request;
      const now = new Date();
      const subscription = r.mode === 'subscription';
      const periodEnd = subscription
        ? r.trialDays
          ? new Date(now.getTime() + r.trialDays * 86_400_000)
          : addInterval(now, r.item.interval ?? 'month')
        : null;
      // Paid and its event recorded together; delivery is retried until the endpoint takes it, so
      // the buyer's return page shows the order pending at worst, never lost.
      await sandbox.emit(
        s.id,
        {
          status: 'paid',
          paymentRef: `pi_sbx_${s.id.slice(7)}`,
          subscriptionId: subscription ? `sub_sbx_${s.id.slice(7)}` : null,
          subscriptionStatus: subscription ? 'active' : null,
          currentPeriodEnd: periodEnd,
        },
        'checkout.completed',
        { amount: firstCharge(r) },
        'open',
      );
      return reply.redirect(success, 303);
    },
  );

  app.post(
    '/sandbox/checkout/:id/cancel',
    { schema: { hide: true, params: idParams } },
    async (req, reply) => {
      const s = await sessionOr404(req.params.id);
      if (s.status === 'open')
        await sandbox.emit(s.id, { status: 'cancelled' }, 'checkout.expired', {}, 'open');
      return reply.redirect(s.request.cancelUrl, 303);
    },
  );

  /* Customer portal: the buyer's subscriptions, cancel at period end or resume. */
  app.get(
    '/sandbox/portal/:token',
    { schema: { hide: true, params: portalParams } },
    async (req, reply) => {
      const { token } = req.params;
      const customerId = sandbox.verifyPortalToken(token);
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
      const subs = await sandbox.sessionsOfCustomer(customerId);
      const list = subs
        .map((s) => {
          const end = s.currentPeriodEnd ? s.currentPeriodEnd.toISOString().slice(0, 10) : '';
          const state =
            s.subscriptionStatus === 'cancelling'
              ? `Cancels on ${end}`
              : s.subscriptionStatus === 'ended'
                ? 'Ended'
                : `Renews on ${end}`;
          const action =
            s.subscriptionStatus === 'active'
              ? `<form method="post" action="/sandbox/portal/${esc(token)}/${esc(s.id)}/cancel"><button type="submit">Cancel subscription</button></form>`
              : s.subscriptionStatus === 'cancelling'
                ? `<form method="post" action="/sandbox/portal/${esc(token)}/${esc(s.id)}/resume"><button class="primary" type="submit">Resume subscription</button></form>`
                : '';
          return `<tr><td>${esc(s.request.item.name)}<br><span class="muted">${formatMoney(renewalCharge(s.request, s.renewals.length + 1), s.request.item.currency)} / ${esc(s.request.item.interval ?? 'month')} · ${esc(state)}</span></td><td>${action}</td></tr>`;
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
    '/sandbox/portal/:token/:id/:action',
    { schema: { hide: true, params: portalActionParams } },
    async (req, reply) => {
      const { token, id, action } = req.params;
      const customerId = sandbox.verifyPortalToken(token);
      const s = await sandbox.session(id);
      if (!customerId || !s || s.customerId !== customerId || !s.subscriptionId) {
        throw new AppError('not_found', 'That subscription does not exist.');
      }
      const cancelling = action === 'cancel';
      if (
        (cancelling && s.subscriptionStatus === 'active') ||
        (!cancelling && s.subscriptionStatus === 'cancelling')
      ) {
        await sandbox.emit(
          s.id,
          { subscriptionStatus: cancelling ? 'cancelling' : 'active' },
          'subscription.updated',
          { cancelAtPeriodEnd: cancelling },
        );
      }
      return reply.redirect(`/sandbox/portal/${token}`, 303);
    },
  );

  /* The sandbox's "dashboard": what a vendor or support would do in Stripe. Local only. */
  if (app.deps.config.APP_ENV !== 'local') return;
  await app.register(async (dashboard) => {
    // The provider's back office: buyers' e-mails and refund buttons, for this machine only.
    dashboard.addHook('onRequest', localOnly(app.deps.config));
    const routes = dashboard.withTypeProvider<ZodTypeProvider>();

    routes.get('/sandbox/payments', { schema: { hide: true } }, async (_req, reply) => {
      const [sessions, events, transfers] = await Promise.all([
        sandbox.recentSessions(),
        sandbox.recentEvents(),
        sandbox.recentTransfers(),
      ]);
      const list = sessions
        .map((s) => {
          const r = s.request;
          const sub = s.subscriptionId
            ? ` · subscription ${esc(s.subscriptionStatus ?? '')}${s.currentPeriodEnd ? ` to ${s.currentPeriodEnd.toISOString().slice(0, 10)}` : ''}`
            : '';
          const buttons = actions
            .filter((a) => (a === 'renew' || a === 'fail' || a === 'end' ? s.subscriptionId : true))
            // A partial refund needs a charged first payment (not a trial's).
            .filter((a) => a !== 'refund_half' || !s.request.trialDays)
            .filter(() => !s.refundedAt)
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
          return `<tr><td>${esc(r.item.name)}<br><span class="muted">${esc(r.buyer.email)} · ${s.createdAt.toISOString().slice(0, 16).replace('T', ' ')}${sub}${s.refundedAt ? ' · refunded' : ''}</span><div class="row">${buttons}</div></td></tr>`;
        })
        .join('');
      // Payouts to connected accounts: fail or reverse one as the provider would (ADR 037).
      const transferRows = transfers
        .map((tr) => {
          const buttons =
            tr.status === 'paid'
              ? `<div class="row"><form method="post" action="/sandbox/transfers/${esc(tr.id)}/fail"><button type="submit">Fail transfer</button></form>
<form method="post" action="/sandbox/transfers/${esc(tr.id)}/reverse"><button type="submit">Reverse transfer</button></form></div>`
              : '';
          return `<tr><td>Transfer ${formatMoney(tr.amount, tr.currency)} to ${esc(tr.accountId)}<br><span class="muted">${esc(tr.id)} · ${tr.createdAt.toISOString().slice(0, 16).replace('T', ' ')} · <span class="badge">${esc(tr.status)}</span>${tr.failureReason ? ` ${esc(tr.failureReason)}` : ''}</span>${buttons}</td></tr>`;
        })
        .join('');
      const deliveries = events
        .map((e) => {
          const state = e.deliveredAt
            ? 'delivered'
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
      { schema: { hide: true, params: eventParams } },
      async (req, reply) => {
        await sandbox.retry(req.params.id);
        return reply.redirect('/sandbox/payments', 303);
      },
    );

    routes.post(
      '/sandbox/transfers/:id/:action',
      { schema: { hide: true, params: transferParams } },
      async (req, reply) => {
        const { id: transferId, action } = req.params;
        await sandbox.settleTransfer(
          transferId,
          action === 'fail' ? 'failed' : 'reversed',
          action === 'fail'
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
        const s = await sessionOr404(req.params.id);
        const r = s.request;
        if (action === 'refund_half' && !s.refundedAt && !r.trialDays) {
          // Like Stripe's amount_refunded: the payment's refunded total so far, here half of it.
          await sandbox.emit(s.id, {}, 'refund', {
            paymentRef: s.paymentRef,
            amount: Math.floor(firstCharge(r) / 2),
          });
        } else if (action === 'refund' && !s.refundedAt) {
          await sandbox.emit(
            s.id,
            { refundedAt: new Date(), subscriptionStatus: s.subscriptionId ? 'ended' : null },
            'refund',
          );
        } else if (action === 'renew' && s.subscriptionId && s.subscriptionStatus !== 'ended') {
          const periodEnd = addInterval(
            s.currentPeriodEnd ?? new Date(),
            r.item.interval ?? 'month',
          );
          const invoice = `in_sbx_${s.id.slice(7)}_${s.renewals.length + 1}`;
          await sandbox.emit(
            s.id,
            { currentPeriodEnd: periodEnd, renewals: [...s.renewals, invoice] },
            'subscription.renewed',
            { paymentRef: invoice, amount: renewalCharge(r, s.renewals.length + 1), periodEnd },
          );
        } else if (action === 'fail' && s.subscriptionId) {
          await sandbox.emit(s.id, {}, 'payment.failed', {
            paymentRef: `in_sbx_failed_${Date.now()}`,
          });
        } else if (action === 'dispute') {
          await sandbox.emit(s.id, {}, 'dispute');
        } else if (action === 'end' && s.subscriptionId && s.subscriptionStatus !== 'ended') {
          await sandbox.emit(s.id, { subscriptionStatus: 'ended' }, 'subscription.ended');
        }
        return reply.redirect('/sandbox/payments', 303);
      },
    );
  });
}
