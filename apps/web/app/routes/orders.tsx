import { useEffect } from 'react';
import { Link } from 'react-router';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { fetchPurchaseList } from '../features/orders/api.ts';
import {
  money,
  orderPath,
  schemeLabel,
  StatusBadge,
  subscriptionLine,
} from '../features/orders/components.tsx';
import { formatDate } from '../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Loading } from '../components/screen.tsx';
import { NothingYet } from '../components/nothing-yet.tsx';

export const meta = () => pageMeta('Your orders');

function OrdersPage() {
  const dispatch = useAppDispatch();
  const list = useAppSelector((s) => s.order.list);
  useEffect(() => {
    void dispatch(fetchPurchaseList());
  }, [dispatch]);

  const data = list.data;
  const loadingFirst = list.status === 'loading' && !data;
  const loadingMore = list.status === 'loading' && Boolean(data);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">Your orders</h1>
      {list.status === 'failure' && list.error && (
        <Alert>
          {list.error.error}{' '}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() =>
              void dispatch(
                fetchPurchaseList(data?.nextCursor ? { cursor: data.nextCursor } : undefined),
              )
            }
          >
            Try again
          </button>
        </Alert>
      )}
      {(loadingFirst || (list.status === 'idle' && !data)) && (
        <Loading label="Loading your orders…" size="row" rows={4} />
      )}
      {data && data.purchases.length === 0 && (
        <NothingYet
          title="No orders yet"
          note="When you buy an indicator, community or course, it shows up here with its receipt."
          to="/search"
          action="Browse the marketplace"
        />
      )}
      {data && data.purchases.length > 0 && (
        <ul aria-label="Orders" className="flex flex-col gap-3">
          {data.purchases.map((p) => (
            <li key={p.id}>
              <article className="flex flex-col gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <h2 className="truncate font-semibold text-white">
                    <Link to={orderPath(p)} className="hover:text-brand-300">
                      {p.item.title}
                    </Link>
                  </h2>
                  <p className="text-xs text-slate-400">
                    <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time> ·{' '}
                    {p.item.vendor.displayName} · {schemeLabel(p)}
                    {p.status === 'paid' && p.refunded.amount > 0 && (
                      <> · {money(p.refunded)} refunded</>
                    )}
                    {p.subscription && <> · {subscriptionLine(p.subscription)}</>}
                    {p.refundReason === 'duplicate' && <> · refunded: you already owned it</>}
                    {p.disputedAt && <> · disputed</>}
                    {p.revoked && <> · access ended by the vendor</>}
                  </p>
                </div>
                <div className="flex items-center gap-3 sm:justify-end">
                  <StatusBadge status={p.status} />
                  <span className="font-semibold text-white tabular-nums">
                    {money(p.status === 'paid' || p.status === 'refunded' ? p.paid : p.total)}
                  </span>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {data?.nextCursor && (
        <Button
          type="button"
          variant="ghost"
          className="self-center"
          loading={loadingMore}
          onClick={() => void dispatch(fetchPurchaseList({ cursor: data.nextCursor! }))}
        >
          Load more
        </Button>
      )}
    </div>
  );
}

export default function Orders() {
  return (
    <RequireAuth>
      <OrdersPage />
    </RequireAuth>
  );
}
