import { payoutStatusLabels, type PayoutAccountStatus } from '@tradeshelf/contract/client';
import type { VendorPayouts } from '@tradeshelf/contract';
import { Button } from '../../../components/ui.tsx';
import { TitledSection } from '../../../components/titled-section.tsx';
import { formatMoney } from '../../../lib/format.ts';

const tones: Record<PayoutAccountStatus, string> = {
  not_started: 'bg-ink-700 text-slate-200',
  incomplete: 'bg-amber-500/15 text-amber-200',
  pending_verification: 'bg-sky-500/15 text-sky-200',
  active: 'bg-brand-500/15 text-brand-200',
  restricted: 'bg-rose-500/15 text-rose-200',
};

export function StatusBadge({ status }: { status: PayoutAccountStatus }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${tones[status]}`}>
      {payoutStatusLabels[status]}
    </span>
  );
}

/** The label of the button that sends the vendor to the provider, by where they stand. */
export function onboardingLabel(status: PayoutAccountStatus): string | null {
  if (status === 'not_started') return 'Set up payouts';
  if (status === 'active') return null;
  if (status === 'pending_verification') return 'Check verification';
  return 'Continue onboarding';
}

export function AccountPanel({
  payouts,
  onStart,
  starting,
}: {
  payouts: VendorPayouts;
  onStart: () => void;
  starting: boolean;
}) {
  const label = onboardingLabel(payouts.status);
  return (
    <TitledSection
      look="settings"
      headingId="payout-account"
      title="Payout account"
      aside={<StatusBadge status={payouts.status} />}
    >
      <p className="text-sm text-slate-300">{payouts.message}</p>
      {payouts.disabledReason && <p className="text-sm text-slate-400">{payouts.disabledReason}</p>}
      <p className="text-sm text-slate-400" data-testid="payout-sales-note">
        {payouts.salesNote}
      </p>
      {payouts.requirements.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-200">Still needed</h3>
          <ul className="mt-1 list-disc pl-5 text-sm text-slate-300">
            {payouts.requirements.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      )}
      {label && (
        <Button type="button" className="self-start" loading={starting} onClick={onStart}>
          {label}
        </Button>
      )}
    </TitledSection>
  );
}

export function BalancesPanel({ payouts }: { payouts: VendorPayouts }) {
  const cell = 'rounded-xl border border-ink-700 bg-ink-900 p-4';
  return (
    <section aria-labelledby="balances" className="flex flex-col gap-3">
      <h2 id="balances" className="text-lg font-bold text-white">
        Your share of sales
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className={cell}>
          <dt className="text-sm text-slate-400">Available</dt>
          <dd className="text-2xl font-bold text-white">
            {formatMoney(payouts.available.amount, payouts.available.currency)}
          </dd>
        </div>
        <div className={cell}>
          <dt className="text-sm text-slate-400">Pending (last {payouts.pendingDays} days)</dt>
          <dd className="text-2xl font-bold text-white">
            {formatMoney(payouts.pending.amount, payouts.pending.currency)}
          </dd>
        </div>
      </dl>
      {payouts.balances.length > 1 && (
        <table className="w-full text-left text-sm text-slate-300">
          <caption className="sr-only">Your share of sales by currency</caption>
          <thead className="text-slate-400">
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Available</th>
              <th scope="col">Pending</th>
              <th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {payouts.balances.map((b) => (
              <tr key={b.currency} className="border-t border-ink-700">
                <td>{b.currency.toUpperCase()}</td>
                <td>{formatMoney(b.available, b.currency)}</td>
                <td>{formatMoney(b.pending, b.currency)}</td>
                <td>{formatMoney(b.refunded, b.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {payouts.balances.length === 1 && payouts.balances[0]!.refunded > 0 && (
        <p className="text-sm text-slate-400">
          Refunded so far:{' '}
          {formatMoney(payouts.balances[0]!.refunded, payouts.balances[0]!.currency)}
        </p>
      )}
      <p className="text-sm text-slate-400">{payouts.payoutNote}</p>
    </section>
  );
}
