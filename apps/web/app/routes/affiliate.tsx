import { useSearchParams } from 'react-router';
import { RequireAuth } from '../components/require-auth.tsx';
import {
  EarningsPanel,
  PayoutPanel,
  PendingInvites,
  ReferralsTable,
  ShareLinks,
  StatsGrid,
  VendorsToJoin,
  WithdrawalsTable,
} from '../features/affiliates/components.tsx';
import { useAffiliateDashboard } from '../features/affiliates/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Loading, ReadError } from '../components/screen.tsx';

export const meta = () => [
  ...pageMeta('Affiliate dashboard'),
  { name: 'robots', content: 'noindex' },
];

function AffiliatePage() {
  const { referrals, vendors, invites, reload } = useAffiliateDashboard();
  const [params] = useSearchParams();
  const page = referrals.data;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Affiliate dashboard</h1>
        <p className="mt-1 text-sm text-slate-400">
          Share a vendor’s link; every payment a buyer you referred makes earns you commission.
        </p>
      </div>
      {referrals.status === 'failure' && referrals.error && (
        <ReadError error={referrals.error} onRetry={reload} />
      )}
      {invites.data && <PendingInvites invites={invites.data} highlight={params.get('invite')} />}
      {!page && referrals.status !== 'failure' && (
        <Loading label="Loading your affiliate dashboard…" size="row" rows={2} />
      )}
      {page && (
        <>
          <StatsGrid stats={page.stats} />
          <PayoutPanel stats={page.stats} />
          <EarningsPanel stats={page.stats} />
          {vendors.data && <ShareLinks vendors={vendors.data} stats={page.stats} />}
          <ReferralsTable referrals={page.referrals} />
          <WithdrawalsTable withdrawals={page.withdrawals} />
        </>
      )}
      {vendors.data && <VendorsToJoin vendors={vendors.data} />}
    </div>
  );
}

export default function Affiliate() {
  return (
    <RequireAuth>
      <AffiliatePage />
    </RequireAuth>
  );
}
