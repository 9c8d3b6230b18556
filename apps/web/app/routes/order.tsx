import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ordersMessages, plans } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { fetchPurchaseDetails } from '../features/orders/api.ts';
import { fetchReceiptPdf } from '../features/orders/receipt-pdf.ts';
import {
  Entitlements,
  itemPath,
  money,
  schemeLabel,
  StatusBadge,
  subscriptionLabels,
} from '../features/orders/components.tsx';
import { DiscordAccess, givesDiscordAccess } from '../features/discord/components.tsx';
import { PurchaseDeliveries } from '../features/deliverables/index.ts';
import { openCustomerPortal } from '../features/users/api.ts';
import { formatDate, formatDateTime } from '../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { saveFile } from '../lib/save-file.ts';
import { pageMeta } from '../lib/seo.ts';
import { BackLink, Loading } from '../components/screen.tsx';

export const meta = () => pageMeta('Your order');

function OrderPage({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const details = useAppSelector((s) => s.order.details);
  const portal = useAppSelector((s) => s.user.portal);
  const [pdf, setPdf] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  useEffect(() => {
    void dispatch(fetchPurchaseDetails(id));
  }, [dispatch, id]);

  const purchase = details.data?.id === id ? details.data : null;
  if (details.status === 'failure' && !purchase)
    return (
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <Alert>{details.error?.error ?? 'We could not load this order.'}</Alert>
        <Link
          to="/orders"
          className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Back to your orders
        </Link>
      </div>
    );
  if (!purchase)
    return (
      <div className="mx-auto max-w-2xl">
        <Loading label="Loading your order…" size="row" rows={3} />
      </div>
    );

  const manage = async () => {
    const result = await dispatch(openCustomerPortal(purchase.item.vendor.vendorUrl));
    if (openCustomerPortal.fulfilled.match(result)) window.location.assign(result.payload.url);
  };
  const sub = purchase.subscription;
  const downloadPdf = async () => {
    setPdf({ busy: true, error: null });
    const r = await dispatch(fetchReceiptPdf(purchase.id));
    if (!fetchReceiptPdf.fulfilled.match(r))
      return setPdf({ busy: false, error: r.payload?.error ?? 'We could not make the PDF.' });
    saveFile(r.payload, `receipt-${purchase.receiptNumber ?? purchase.id}.pdf`);
    setPdf({ busy: false, error: null });
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <BackLink to="/orders">Your orders</BackLink>
        <div className="flex flex-wrap gap-2">
          {sub && (
            <Button
              type="button"
              variant="ghost"
              loading={portal.status === 'loading' || portal.status === 'success'}
              onClick={() => void manage()}
            >
              Manage subscription
            </Button>
          )}
          {purchase.paidAt && (
            <Button
              type="button"
              variant="ghost"
              loading={pdf.busy}
              onClick={() => void downloadPdf()}
            >
              Download PDF
            </Button>
          )}
          <Button type="button" onClick={() => window.print()}>
            Print receipt
          </Button>
        </div>
      </div>
      {pdf.error && <Alert>{pdf.error}</Alert>}
      {portal.status === 'failure' && portal.error && <Alert>{portal.error.error}</Alert>}
      <article
        aria-labelledby="receipt-title"
        className="flex flex-col gap-5 rounded-2xl border border-ink-700 bg-ink-900 p-6 print:border-black print:bg-white print:text-black"
      >
        <header className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-xs tracking-wide text-slate-400 uppercase print:text-black">
              Tradeshelf receipt
            </p>
            <h1 id="receipt-title" className="text-2xl font-bold text-white print:text-black">
              {purchase.receiptNumber ? `Receipt ${purchase.receiptNumber}` : 'Order'}
            </h1>
          </div>
          <StatusBadge status={purchase.status} />
        </header>
        {purchase.refundReason === 'duplicate' && (
          <p
            role="note"
            className="rounded-lg border border-ink-700 bg-ink-800 p-3 text-sm text-slate-200"
          >
            {ordersMessages.duplicateRefunded}
          </p>
        )}
        {purchase.disputedAt && (
          <p
            role="note"
            className="rounded-lg border border-amber-700 bg-ink-800 p-3 text-sm text-slate-200"
          >
            This payment was disputed with your bank on{' '}
            <time dateTime={purchase.disputedAt}>{formatDate(purchase.disputedAt)}</time>, so access
            is paused while the bank decides.
          </p>
        )}
        {purchase.revoked && (
          <div
            role="note"
            className="rounded-lg border border-amber-700 bg-ink-800 p-3 text-sm text-slate-200"
          >
            <p>
              {purchase.item.vendor.displayName} ended your access on{' '}
              <time dateTime={purchase.revoked.at}>{formatDate(purchase.revoked.at)}</time>
              {purchase.subscription ? ' and cancelled the subscription' : ''}. Their reason:
            </p>
            <blockquote className="mt-1 border-l-2 border-ink-600 pl-3 whitespace-pre-line text-slate-300">
              {purchase.revoked.reason}
            </blockquote>
            <p className="mt-1">
              No money was refunded with this.{' '}
              <Link
                to={`/contact?order=${encodeURIComponent(purchase.receiptNumber ?? purchase.id)}&vendor=${encodeURIComponent(purchase.item.vendor.vendorUrl)}`}
                className="underline"
              >
                Contact support
              </Link>{' '}
              if you think this is a mistake.
            </p>
          </div>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-sm">
          <dt className="text-slate-400 print:text-black">Receipt number</dt>
          <dd className="font-mono">{purchase.receiptNumber ?? '—'}</dd>
          <dt className="text-slate-400 print:text-black">Order date</dt>
          <dd>
            <time dateTime={purchase.createdAt}>{formatDateTime(purchase.createdAt)}</time>
          </dd>
          {purchase.paidAt && (
            <>
              <dt className="text-slate-400 print:text-black">Paid</dt>
              <dd>
                <time dateTime={purchase.paidAt}>{formatDateTime(purchase.paidAt)}</time>
              </dd>
            </>
          )}
          {purchase.refundedAt && (
            <>
              <dt className="text-slate-400 print:text-black">Refunded</dt>
              <dd>
                <time dateTime={purchase.refundedAt}>{formatDateTime(purchase.refundedAt)}</time>
              </dd>
            </>
          )}
          <dt className="text-slate-400 print:text-black">Sold by</dt>
          <dd>{purchase.item.vendor.displayName}</dd>
          <dt className="text-slate-400 print:text-black">Order id</dt>
          <dd className="font-mono text-xs break-all">{purchase.id}</dd>
        </dl>
        <section aria-labelledby="receipt-item" className="border-t border-ink-700 pt-4">
          <h2 id="receipt-item" className="sr-only">
            Item
          </h2>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p>
              <Link
                to={itemPath(purchase.item)}
                className="font-semibold text-white hover:text-brand-300 print:text-black"
              >
                {purchase.item.title}
              </Link>
              <span className="block text-xs text-slate-400 print:text-black">
                {purchase.item.type === 'bundle' ? 'Bundle' : 'Product'} · {schemeLabel(purchase)}
              </span>
            </p>
            <span className="tabular-nums">{money(purchase.subtotal)}</span>
          </div>
          <dl className="mt-4 grid grid-cols-[1fr_auto] gap-y-1 text-sm">
            <dt className="text-slate-400 print:text-black">Subtotal</dt>
            <dd className="text-right tabular-nums">{money(purchase.subtotal)}</dd>
            {purchase.discount.amount > 0 && (
              <>
                <dt className="text-slate-400 print:text-black">
                  Discount
                  {purchase.coupon && (
                    <>
                      {' '}
                      (coupon <span className="font-mono">{purchase.coupon.code}</span>
                      {purchase.coupon.duration === 'once' && sub ? ', first payment' : ''})
                    </>
                  )}
                </dt>
                <dd className="text-right text-brand-300 tabular-nums print:text-black">
                  −{money(purchase.discount)}
                </dd>
              </>
            )}
            {purchase.memberPrice && (
              <>
                <dt className="text-slate-400 print:text-black">
                  {plans[purchase.memberPrice.plan].name} member price
                  {sub ? ', every payment' : ''}
                </dt>
                <dd className="text-right text-brand-300 tabular-nums print:text-black">
                  −{money(purchase.memberPrice.discount)}
                </dd>
              </>
            )}
            <dt className="border-t border-ink-700 pt-1 font-semibold text-white print:text-black">
              Total
            </dt>
            <dd className="border-t border-ink-700 pt-1 text-right font-semibold text-white tabular-nums print:text-black">
              {money(purchase.total)}
            </dd>
            {(purchase.status === 'paid' || purchase.status === 'refunded') && (
              <>
                <dt className="text-slate-400 print:text-black">Paid so far</dt>
                <dd className="text-right tabular-nums">{money(purchase.paid)}</dd>
              </>
            )}
            {purchase.refunded.amount > 0 && (
              <>
                <dt className="text-slate-400 print:text-black">
                  {purchase.status === 'refunded' ? 'Refunded' : 'Partially refunded'}
                </dt>
                <dd className="text-right text-violet-200 tabular-nums print:text-black">
                  −{money(purchase.refunded)}
                </dd>
              </>
            )}
          </dl>
        </section>
        {sub && (
          <section aria-labelledby="receipt-plan" className="border-t border-ink-700 pt-4">
            <h2 id="receipt-plan" className="font-semibold text-white print:text-black">
              Subscription
            </h2>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-sm">
              <dt className="text-slate-400 print:text-black">Plan</dt>
              <dd>{schemeLabel(purchase)}</dd>
              <dt className="text-slate-400 print:text-black">Status</dt>
              <dd>{subscriptionLabels[sub.status]}</dd>
              {sub.trialEndsAt && (
                <>
                  <dt className="text-slate-400 print:text-black">Free trial until</dt>
                  <dd>
                    <time dateTime={sub.trialEndsAt}>{formatDate(sub.trialEndsAt)}</time>
                  </dd>
                </>
              )}
              {sub.currentPeriodEnd && sub.status === 'cancelling' && (
                <>
                  <dt className="text-slate-400 print:text-black">Access until</dt>
                  <dd>
                    <time dateTime={sub.currentPeriodEnd}>{formatDate(sub.currentPeriodEnd)}</time>
                  </dd>
                </>
              )}
              {sub.nextPayment && (
                <>
                  <dt className="text-slate-400 print:text-black">
                    {sub.status === 'trialing' ? 'First payment' : 'Renews on'}
                  </dt>
                  <dd>
                    <time dateTime={sub.nextPayment.at}>{formatDate(sub.nextPayment.at)}</time>
                    {' · '}
                    <span className="tabular-nums">{money(sub.nextPayment.amount)}</span>
                  </dd>
                </>
              )}
              {sub.status !== 'ended' && sub.status !== 'cancelling' && (
                <>
                  <dt className="text-slate-400 print:text-black">Renewal amount</dt>
                  <dd className="tabular-nums">{money(sub.renewalAmount)}</dd>
                </>
              )}
            </dl>
          </section>
        )}
        <section aria-labelledby="receipt-access" className="border-t border-ink-700 pt-4">
          <h2 id="receipt-access" className="mb-2 font-semibold text-white print:text-black">
            What you get
          </h2>
          {purchase.entitlements.length > 0 ? (
            <div className="flex flex-col gap-3">
              <Entitlements items={purchase.entitlements} />
              {givesDiscordAccess(purchase) && <DiscordAccess purchaseId={purchase.id} />}
              <PurchaseDeliveries entitlements={purchase.entitlements} />
            </div>
          ) : (
            <p className="text-sm text-slate-400 print:text-black">
              {purchase.status === 'paid'
                ? 'Access is being set up. It appears here in a moment.'
                : purchase.status === 'pending'
                  ? 'Access starts as soon as the payment is confirmed.'
                  : 'This order gives no access.'}
            </p>
          )}
        </section>
      </article>
      <p className="text-sm text-slate-400 print:hidden">
        Something wrong with this order?{' '}
        <Link
          to={`/contact?${new URLSearchParams({ order: purchase.id, vendor: purchase.item.vendor.vendorUrl })}`}
          className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Contact support
        </Link>{' '}
        (the vendor gets a copy).
      </p>
    </div>
  );
}

function OrderRoute() {
  const { id = '' } = useParams();
  return <OrderPage id={id} />;
}

export default function Order() {
  return (
    <RequireAuth>
      <OrderRoute />
    </RequireAuth>
  );
}
