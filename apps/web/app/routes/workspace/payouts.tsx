import type { VendorPayouts } from '@tradeshelf/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TwoFactorCodeField } from '../../components/two-factor-field.tsx';
import { Alert } from '../../components/ui.tsx';
import { AccountPanel, BalancesPanel } from '../../features/workspace/payouts/components.tsx';
import { useAction, useRead } from '../../features/workspace/request.ts';
import { fetchPayouts, startPayoutOnboarding } from '../../features/workspace/storefront/api.ts';
import { Loading } from '../../components/screen.tsx';

export default function PayoutsPage() {
  const read = useRead<void, VendorPayouts>(fetchPayouts, undefined);
  const start = useAction<string, string>(startPayoutOnboarding);
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const [params] = useSearchParams();
  const back = params.get('onboarding');
  const go = async () => {
    const url = await start.run(twoFactorCode.trim());
    // The provider's onboarding (the sandbox's page locally) comes back to this page.
    if (url) window.location.assign(url);
  };
  const noStorefront = read.error?.code === 'forbidden';
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Payouts</h1>
        <p className="mt-1 text-sm text-slate-400">
          Sales pay out through the payment provider to the account you set up here.
        </p>
      </div>
      {back === 'done' && read.data && (
        <Alert tone="info">Welcome back. This is where your payout account now stands.</Alert>
      )}
      {back === 'later' && (
        <Alert tone="info">You can continue onboarding whenever you are ready.</Alert>
      )}
      {read.status === 'failure' && read.error && (
        <Alert>
          {read.error.error}{' '}
          {noStorefront ? (
            <Link to="/vendor/storefront" className="font-semibold underline">
              Set up your storefront
            </Link>
          ) : (
            <button type="button" className="font-semibold underline" onClick={read.reload}>
              Try again
            </button>
          )}
        </Alert>
      )}
      {start.error && <Alert>{start.error.error}</Alert>}
      {!read.data && read.status !== 'failure' && (
        <Loading label="Loading your payouts…" rows={2} />
      )}
      {read.data && (
        <>
          <TwoFactorCodeField value={twoFactorCode} onChange={setTwoFactorCode} />
          <AccountPanel payouts={read.data} onStart={() => void go()} starting={start.busy} />
          <BalancesPanel payouts={read.data} />
        </>
      )}
    </div>
  );
}
