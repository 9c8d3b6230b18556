import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ApiError, Purchase } from '@tradeshelf/contract';
import { ordersMessages, plans } from '@tradeshelf/contract/client';
import {
  OutcomePanel as Panel,
  ghostLink,
  primaryLink,
  StillWaiting,
} from '../components/outcome-panel.tsx';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert } from '../components/ui.tsx';
import { fetchPurchaseStatus } from '../features/orders/api.ts';
import {
  Entitlements,
  itemPath,
  money,
  orderPath,
  schemeLabel,
} from '../features/orders/components.tsx';
import { pollPurchase } from '../features/orders/poll.ts';
import { DiscordAccess, givesDiscordAccess } from '../features/discord/components.tsx';
import { PurchaseDeliveries } from '../features/deliverables/index.ts';
import { isFinal } from '../features/orders/slice.ts';
import { formatDate } from '../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { isRetryable } from '../lib/idempotency.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => pageMeta('Your payment');

/**
 * Polls the purchase behind the checkout session until it is final (every 1.5 s, for up to two
 * minutes). A network or server hiccup keeps polling; any other error stops and is shown.
 */
function usePurchaseStatus(sessionId: string) {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.order.status);
  const [timedOutFor, setTimedOutFor] = useState<string | null>(null);
  const [stopped, setStopped] = useState<{ id: string; error: ApiError } | null>(null);

  useEffect(() => {
    if (!sessionId) return;
    return pollPurchase({
      check: async () => {
        const result = await dispatch(fetchPurchaseStatus(sessionId));
        if (fetchPurchaseStatus.fulfilled.match(result))
          return isFinal(result.payload) ? 'done' : 'pending';
        const error = result.payload as ApiError | undefined;
        if (error && isRetryable(error)) return 'pending';
        setStopped({ id: sessionId, error: error ?? { error: 'Something went wrong', code: '' } });
        return 'done';
      },
      onTimeout: () => setTimedOutFor(sessionId),
    });
  }, [dispatch, sessionId]);

  const purchase = state.data?.sessionId === sessionId ? state.data : null;
  return {
    purchase,
    timedOut: timedOutFor === sessionId,
    error: stopped?.id === sessionId ? stopped.error : null,
  };
}

function Paid({ purchase }: { purchase: Purchase }) {
  const trial = purchase.subscription?.status === 'trialing' ? purchase.subscription : null;
  const next = purchase.subscription?.nextPayment ?? null;
  return (
    <Panel title={trial ? 'Your free trial has started' : 'Payment received'}>
      <p className="text-slate-300">
        {trial ? 'Your free trial of ' : 'Thank you! You bought '}
        <Link
          to={itemPath(purchase.item)}
          className="font-semibold text-white underline underline-offset-2 hover:decoration-2"
        >
          {purchase.item.title}
        </Link>{' '}
        from {purchase.item.vendor.displayName}
        {trial
          ? ' has started. Cancel before it ends and you pay nothing.'
          : '. A receipt is on its way to your inbox.'}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 rounded-xl bg-ink-800 p-4 text-sm">
        <dt className="text-slate-400">{trial ? 'Paid today' : 'Total paid'}</dt>
        <dd className="font-semibold text-white tabular-nums">{money(purchase.paid)}</dd>
        {trial?.trialEndsAt && (
          <>
            <dt className="text-slate-400">Free trial until</dt>
            <dd>
              <time dateTime={trial.trialEndsAt}>{formatDate(trial.trialEndsAt)}</time>
            </dd>
          </>
        )}
        {next && (
          <>
            <dt className="text-slate-400">{trial ? 'First payment' : 'Next payment'}</dt>
            <dd className="tabular-nums">
              {money(next.amount)} on <time dateTime={next.at}>{formatDate(next.at)}</time>
            </dd>
          </>
        )}
        {purchase.coupon && purchase.discount.amount > 0 && (
          <>
            <dt className="text-slate-400">Coupon</dt>
            <dd>
              <span className="font-mono">{purchase.coupon.code}</span> (−
              {money(purchase.discount)})
            </dd>
          </>
        )}
        {purchase.memberPrice && (
          <>
            <dt className="text-slate-400">Member price</dt>
            <dd>
              {plans[purchase.memberPrice.plan].name} (−{money(purchase.memberPrice.discount)})
            </dd>
          </>
        )}
        <dt className="text-slate-400">Plan</dt>
        <dd>{schemeLabel(purchase)}</dd>
        <dt className="text-slate-400">Receipt number</dt>
        <dd className="font-mono">{purchase.receiptNumber ?? 'being issued'}</dd>
      </dl>
      <div>
        <h2 className="mb-2 font-semibold text-white">What you get</h2>
        {purchase.entitlements.length > 0 ? (
          <div className="flex flex-col gap-3">
            <Entitlements items={purchase.entitlements} />
            {/* The roles arrive while this page is open: it reads them again until they do. */}
            {givesDiscordAccess(purchase) && <DiscordAccess purchaseId={purchase.id} />}
            <PurchaseDeliveries entitlements={purchase.entitlements} />
          </div>
        ) : (
          <p className="text-sm text-slate-400">Access is being set up. It appears in a moment.</p>
        )}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link to={orderPath(purchase)} className={primaryLink}>
          View your order
        </Link>
        <Link to={itemPath(purchase.item)} className={ghostLink}>
          Go to the {purchase.item.type === 'bundle' ? 'bundle' : 'product'}
        </Link>
      </div>
    </Panel>
  );
}

const endings: Record<'failed' | 'cancelled' | 'refunded', [string, string]> = {
  failed: [
    'Payment failed',
    'Your payment did not go through, so you were not charged. You can try again with another card.',
  ],
  cancelled: ['Checkout cancelled', 'The checkout was cancelled. You were not charged.'],
  refunded: ['Payment refunded', 'This payment has been refunded to your original payment method.'],
};

function OrderStatusPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const { purchase, timedOut, error } = usePurchaseStatus(sessionId);

  if (!sessionId)
    return (
      <Panel title="We could not find your checkout">
        <Alert>This link is missing its checkout session.</Alert>
        <Link to="/orders" className={ghostLink}>
          Go to your orders
        </Link>
      </Panel>
    );
  if (purchase?.status === 'paid') return <Paid purchase={purchase} />;
  if (purchase && purchase.status !== 'pending') {
    const duplicate = purchase.refundReason === 'duplicate';
    const [title, text] = duplicate
      ? ['You already own this', ordersMessages.duplicateRefunded]
      : endings[purchase.status];
    return (
      <Panel title={title}>
        <p className="text-slate-300">
          {text} ({purchase.item.title}, {money(purchase.total)})
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          {duplicate ? (
            <Link to={itemPath(purchase.item)} className={primaryLink}>
              Go to {purchase.item.title}
            </Link>
          ) : purchase.status === 'refunded' ? (
            <Link to={orderPath(purchase)} className={primaryLink}>
              View your order
            </Link>
          ) : (
            <Link to={itemPath(purchase.item)} className={primaryLink}>
              Back to {purchase.item.title}
            </Link>
          )}
          <Link to="/orders" className={ghostLink}>
            Your orders
          </Link>
        </div>
      </Panel>
    );
  }
  if (error)
    return (
      <Panel title="We could not check your payment">
        <Alert>{error.error}</Alert>
        <p className="text-sm text-slate-400">
          If you paid, your order appears on your orders page and we e-mail your receipt.
        </p>
        <Link to="/orders" className={ghostLink}>
          Go to your orders
        </Link>
      </Panel>
    );
  if (timedOut)
    return (
      <Panel title="Your payment is still processing">
        <p className="text-slate-300">
          This is taking longer than usual. There is nothing more you need to do: we&apos;ll e-mail
          your receipt as soon as the payment is confirmed, and the order appears on your orders
          page.
        </p>
        <Link to="/orders" className={ghostLink}>
          Go to your orders
        </Link>
      </Panel>
    );
  return (
    <Panel title="Confirming your payment…">
      <StillWaiting>
        Confirming your payment{purchase ? ` for ${purchase.item.title}` : ''}. This usually takes a
        few seconds; please keep this page open.
      </StillWaiting>
    </Panel>
  );
}

export default function OrderStatus() {
  return (
    <RequireAuth>
      <OrderStatusPage />
    </RequireAuth>
  );
}
