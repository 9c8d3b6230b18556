import {
  invoicesRoutes,
  IDEMPOTENCY_KEY_HEADER,
  ordersMessages,
  ordersRoutes,
  payoutMessages,
  vendorCouponsRoutes,
  vendorSalesRoutes,
  vendorStorefrontRoutes,
} from '@tradeshelf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import {
  PAYMENTS_WEBHOOK_PATH,
  WebhookPayloadError,
  WebhookSignatureError,
  type TransferEvent,
} from '../../integrations/payments/port.ts';
import { AppError } from '../../platform/errors.ts';
import { originOf } from '../../platform/origin.ts';
import { addressKey, rules } from '../../platform/rate-limit.ts';
import { registerRoute } from '../../platform/routes.ts';
import { requireTwoFactorCode } from '../auth/index.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { buyerReceipt, vendorInvoice } from './receipt-document.ts';
import * as orders from './service.ts';
import { vendorPayouts } from './vendor-payouts.ts';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,200}$/;

function idempotencyKeyOf(req: FastifyRequest): string | null {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new AppError(
      'validation_failed',
      'Idempotency-Key must be 8 to 200 letters, digits or . _ : - characters.',
      { [IDEMPOTENCY_KEY_HEADER]: 'Invalid Idempotency-Key.' },
    );
  }
  return value;
}

/**
 * What orders' routes ask of the affiliates module: referrals at checkout, affiliates' payout
 * accounts on the shared connect routes, transfers on the shared webhook. The wiring (app.ts) hands
 * the module in: affiliates reads orders' ledger, so orders does not import it (issue 28).
 */
export interface OrdersWiring {
  affiliates: {
    referralFor: orders.ReferralLookup;
    connectPayoutAccount(deps: AppDeps, userId: string, origin: string): Promise<{ url: string }>;
    payoutAccountCallback(
      deps: AppDeps,
      userId: string,
    ): Promise<{ message: string; chargesEnabled: boolean; payoutsEnabled: boolean }>;
    applyTransferEvent(deps: AppDeps, event: TransferEvent): Promise<'processed' | 'ignored'>;
  };
}

export async function ordersModule(app: FastifyInstance, wiring: OrdersWiring): Promise<void> {
  const deps = app.deps;
  const { affiliates } = wiring;
  const checkoutContext = (buyerId: string, req: FastifyRequest): orders.CheckoutContext => ({
    buyerId,
    idempotencyKey: idempotencyKeyOf(req),
    origin: originOf(req),
    referralFor: affiliates.referralFor,
  });
  const vendorRoute = vendorRoutes(app, ordersMessages.revokeVendorsOnly);
  const payoutsRoute = vendorRoutes(app, payoutMessages.storefrontFirst);
  registerRoute(app, ordersRoutes.checkoutProduct, ({ query, body, auth, req }) =>
    orders.startCheckout(deps, checkoutContext(auth.sub, req), {
      type: 'product',
      vendorUrl: query.vendorUrl,
      ...body,
    }),
  );
  registerRoute(app, ordersRoutes.checkoutBundle, ({ body, auth, req }) =>
    orders.startCheckout(deps, checkoutContext(auth.sub, req), { type: 'bundle', ...body }),
  );
  registerRoute(app, ordersRoutes.previewCoupon, async ({ query, req }) => {
    await deps.limiter.consume([{ rule: rules.couponPreviewIp, key: addressKey(req.ip) }]);
    return { coupon: await orders.previewCoupon(deps, query) };
  });
  registerRoute(app, ordersRoutes.purchaseStatus, async ({ params, auth }) => ({
    purchase: await orders.ownPurchase(deps, auth.sub, { sessionId: params.id }),
  }));
  registerRoute(app, ordersRoutes.purchaseList, ({ query, auth }) =>
    orders.purchaseList(deps, auth.sub, query.limit, query.cursor),
  );
  registerRoute(app, ordersRoutes.purchaseDetails, async ({ params, auth }) => ({
    purchase: await orders.ownPurchase(deps, auth.sub, { id: params.id }),
  }));
  registerRoute(app, ordersRoutes.customerPortal, async ({ query, auth, req }) => ({
    session: await orders.customerPortal(deps, auth.sub, query.vendorUrl, originOf(req)),
  }));
  // A vendor's account takes its sales; anyone else's (or `as=affiliate`) takes affiliate payouts.
  // Changing where money goes needs two-factor on and a current code, for both (ADR 054).
  registerRoute(app, ordersRoutes.connectAccount, async ({ query, body, auth, req }) => {
    await requireTwoFactorCode(deps, auth.sub, body.twoFactorCode);
    return (await orders.connectPurpose(deps, auth.sub, query.as)) === 'vendor'
      ? orders.connectAccount(deps, auth.sub, originOf(req))
      : affiliates.connectPayoutAccount(deps, auth.sub, originOf(req));
  });
  payoutsRoute(vendorStorefrontRoutes.vendorPayouts, ({ vendorId }) =>
    vendorPayouts(deps, vendorId),
  );
  registerRoute(app, ordersRoutes.connectAccountCallback, async ({ query, auth }) =>
    (await orders.connectPurpose(deps, auth.sub, query.as)) === 'vendor'
      ? orders.connectAccountCallback(deps, auth.sub)
      : affiliates.payoutAccountCallback(deps, auth.sub),
  );
  vendorRoute(ordersRoutes.vendorSales, ({ query, vendorId }) =>
    orders.vendorSales(deps, vendorId, query.limit, query.cursor, query),
  );
  vendorRoute(ordersRoutes.vendorRevokeAccess, async ({ params, body, auth, vendorId }) => ({
    sale: await orders.revokeAccess(deps, auth.sub, vendorId, params.id, body),
  }));
  // Receipts and invoices as PDF (ADR 060).
  const sendPdf = (reply: FastifyReply, file: { pdf: Buffer; filename: string }) => {
    void reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'private, no-store');
    return file.pdf as never;
  };
  registerRoute(app, invoicesRoutes.purchaseReceiptPdf, async ({ params, auth, reply }) =>
    sendPdf(reply, await buyerReceipt(deps, auth.sub, params.id)),
  );
  vendorRoute(invoicesRoutes.vendorSaleInvoicePdf, async ({ params, vendorId, reply }) =>
    sendPdf(reply, await vendorInvoice(deps, vendorId, params.id)),
  );
  vendorRoute(vendorSalesRoutes.vendorSale, async ({ params, vendorId }) => ({
    sale: await orders.vendorSale(deps, vendorId, params.id),
  }));
  vendorRoute(vendorSalesRoutes.vendorRefund, ({ params, body, auth, vendorId, req }) =>
    orders.vendorRefund(deps, auth.sub, vendorId, params.id, body, idempotencyKeyOf(req)),
  );
  vendorRoute(vendorSalesRoutes.vendorCustomers, ({ query, vendorId }) =>
    orders.vendorCustomers(deps, vendorId, query),
  );
  vendorRoute(vendorCouponsRoutes.vendorCoupons, ({ query, vendorId }) =>
    orders.listVendorCoupons(deps, vendorId, query),
  );
  vendorRoute(vendorCouponsRoutes.createVendorCoupon, async ({ body, vendorId }) => ({
    coupon: await orders.createVendorCoupon(deps, vendorId, body),
  }));
  vendorRoute(vendorCouponsRoutes.updateVendorCoupon, async ({ params, body, vendorId }) => ({
    coupon: await orders.updateVendorCoupon(deps, vendorId, params.id, body),
  }));
  vendorRoute(vendorCouponsRoutes.deleteVendorCoupon, ({ params, vendorId }) =>
    orders.deleteVendorCoupon(deps, vendorId, params.id),
  );
  await app.register(webhookRoute, wiring);
}

/** The provider's webhook: verified on the raw body, so this plugin keeps JSON unparsed. */
async function webhookRoute(app: FastifyInstance, { affiliates }: OrdersWiring): Promise<void> {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    PAYMENTS_WEBHOOK_PATH,
    { schema: { hide: true }, bodyLimit: 1024 * 1024 },
    async (req, reply) => {
      const { webhooks, webhookLag } = app.deps.metrics;
      if (!Buffer.isBuffer(req.body)) {
        webhooks.inc({ kind: 'unknown', outcome: 'rejected' });
        throw new AppError('bad_request', 'Webhook bodies must be JSON.');
      }
      let event;
      let transfer;
      try {
        // Transfers (affiliate payouts) are the affiliates module's; everything else is a payment.
        transfer = app.deps.payments.parseTransferWebhook(req.body, req.headers);
        event = transfer ? null : await app.deps.payments.parseWebhook(req.body, req.headers);
      } catch (err) {
        webhooks.inc({ kind: 'unknown', outcome: 'rejected' });
        if (err instanceof WebhookSignatureError) {
          throw new AppError('bad_request', 'Webhook signature verification failed.');
        }
        // Signed by the provider but not an event we can read: a retry would fail the same way.
        if (err instanceof WebhookPayloadError || err instanceof SyntaxError) {
          throw new AppError('bad_request', 'Webhook body is not a valid event.');
        }
        throw err;
      }
      const kind = transfer ? 'transfer' : 'payment';
      const occurredAt = transfer?.occurredAt ?? event?.occurredAt;
      if (occurredAt)
        webhookLag.observe({ kind }, Math.max(0, Date.now() - occurredAt.getTime()) / 1000);
      let outcome: string;
      try {
        if (transfer) outcome = await affiliates.applyTransferEvent(app.deps, transfer);
        else if (!event) outcome = 'ignored';
        else outcome = await orders.applyPaymentEvent(app.deps, event);
      } catch (err) {
        // Answered 5xx: the provider sends it again.
        webhooks.inc({ kind, outcome: 'failed' });
        throw err;
      }
      webhooks.inc({ kind, outcome });
      if (event && outcome === 'ignored') {
        req.log.warn({ eventId: event.id, type: event.type }, 'payment event ignored');
      }
      return reply.send({ received: true, outcome });
    },
  );
}
