import { useEffect } from 'react';
import { Link } from 'react-router';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert, Spinner } from '../components/ui.tsx';
import { stripeCallback } from '../features/affiliates/api.ts';
import { AFFILIATE_PATH } from '../features/affiliates/index.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { FALLBACK_ERROR } from '../lib/request-state.ts';
import { pageMeta } from '../lib/seo.ts';
// Registers the slice this file reads (ADR 038).
import '../features/affiliates/slice.ts';

export const meta = () => [...pageMeta('Payout account'), { name: 'robots', content: 'noindex' }];

/** Where the provider's onboarding returns: asks the callback and says what it answered. */
function ConnectedPage() {
  const dispatch = useAppDispatch();
  const callback = useAppSelector((s) => s.affiliate.stripeCallback);
  useEffect(() => {
    void dispatch(stripeCallback());
  }, [dispatch]);
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">Payout account</h1>
      {(callback.status === 'idle' || callback.status === 'loading') && (
        <p className="flex items-center gap-2 text-slate-300" role="status">
          <Spinner /> Checking with the payment provider…
        </p>
      )}
      {callback.status === 'success' && callback.data && (
        <Alert tone={callback.data.payoutsEnabled ? 'success' : 'info'}>
          {callback.data.message}
        </Alert>
      )}
      {callback.status === 'failure' && (
        <Alert>{callback.error?.error || FALLBACK_ERROR.error}</Alert>
      )}
      <Link
        to={AFFILIATE_PATH}
        className="self-start text-sm font-semibold text-brand-400 underline underline-offset-2"
      >
        Back to the affiliate dashboard
      </Link>
    </div>
  );
}

export default function AffiliateConnected() {
  return (
    <RequireAuth>
      <ConnectedPage />
    </RequireAuth>
  );
}
