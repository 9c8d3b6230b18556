import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type {
  AffiliateStats,
  AffiliateVendor,
  Invitation,
  Payout,
  ReferralSale,
} from '@tradeshelf/contract';
import { ConfirmStep, useConfirm } from '../../components/confirm-step.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { TwoFactorCodeField } from '../../components/two-factor-field.tsx';
import { useToast } from '../../components/toasts.tsx';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import {
  acceptInvite,
  fetchReferrals,
  generateReferral,
  requestPayout,
  startPayoutOnboarding,
} from './api.ts';
import { formatBps as percent } from '@tradeshelf/contract/client';
import { monthLabel } from './format.ts';
import { useCopy } from './hooks.ts';
// Registers the slice this file reads (ADR 038).
import './slice.ts';
import { Loading } from '../../components/screen.tsx';
import { cell, ListTable } from '../../components/list-table.tsx';

const EarningsChart = lazy(() => import('./chart.tsx'));

const panel = 'flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5 sm:p-6';
const money = (m: { amount: number; currency: string }) => formatMoney(m.amount, m.currency);

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl border border-ink-700 bg-ink-900 p-4">
      <dt className="text-xs font-medium tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-xl font-bold text-white tabular-nums">{value}</dd>
      {hint && <dd className="mt-1 text-xs text-slate-400">{hint}</dd>}
    </div>
  );
}

export function StatsGrid({ stats }: { stats: AffiliateStats }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="affiliate-stats">
      <Stat label="Available" value={money(stats.availableBalance)} />
      <Stat
        label="On hold"
        value={money(stats.pendingBalance)}
        hint={`${stats.holdDays}-day hold`}
      />
      <Stat label="Withdrawn" value={money(stats.totalWithdrawn)} />
      <Stat label="Clicks" value={String(stats.clicks)} />
      <Stat label="Sales" value={String(stats.sales)} />
    </dl>
  );
}

/** "Request payout", disabled with the reason when it cannot be; or "Connect payout account". */
export function PayoutPanel({ stats }: { stats: AffiliateStats }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const payout = useAppSelector((s) => s.affiliate.payout);
  const connect = useAppSelector((s) => s.affiliate.connect);
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const reasonId = useId();
  // A payout sends the whole balance: asked first, with the amount and the account (issue 27).
  const confirm = useConfirm();
  const onPayout = async () => {
    const done = await dispatch(requestPayout());
    confirm.close();
    if (requestPayout.fulfilled.match(done)) {
      const p = done.payload;
      toast(
        p.status === 'failed'
          ? `The payout failed: ${p.failureReason ?? 'the provider refused it.'}`
          : `Payout of ${money(p.amount)} requested.`,
        p.status === 'failed' ? 'error' : 'success',
      );
      // The ledger's word on what is left (and why a payout is not possible now).
      void dispatch(fetchReferrals());
    }
  };
  const onConnect = async () => {
    const done = await dispatch(startPayoutOnboarding(twoFactorCode.trim()));
    if (startPayoutOnboarding.fulfilled.match(done)) window.location.assign(done.payload);
  };
  const needsAccount = stats.payoutAccount !== 'ready';
  return (
    <section className={panel} aria-labelledby="payout-heading">
      <h2 id="payout-heading" className="font-semibold text-white">
        Payout
      </h2>
      <p className="text-sm text-slate-300">
        Commission becomes available {stats.holdDays} days after a sale; a refund in that time takes
        it back. Payouts start at {money(stats.minimumPayout)} and pay the whole available balance.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {needsAccount && <TwoFactorCodeField value={twoFactorCode} onChange={setTwoFactorCode} />}
        {needsAccount && (
          <Button
            type="button"
            loading={connect.status === 'loading'}
            onClick={() => void onConnect()}
          >
            {stats.payoutAccount === 'pending'
              ? 'Finish payout account setup'
              : 'Connect payout account'}
          </Button>
        )}
        {!confirm.open && (
          <Button
            id={confirm.triggerId}
            type="button"
            variant={needsAccount ? 'ghost' : 'primary'}
            disabled={!stats.canRequestPayout}
            loading={payout.status === 'loading'}
            aria-describedby={stats.payoutBlockedReason ? reasonId : undefined}
            onClick={confirm.show}
          >
            Request payout
          </Button>
        )}
      </div>
      {confirm.open && (
        <ConfirmStep
          tone="primary"
          returnFocusTo={confirm.triggerId}
          title={`Pay out ${money(stats.availableBalance)}?`}
          confirmLabel={`Pay out ${money(stats.availableBalance)}`}
          busy={payout.status === 'loading'}
          error={null}
          onConfirm={() => void onPayout()}
          onCancel={confirm.close}
        >
          <p data-testid="payout-confirm-text">
            Your whole available balance, {money(stats.availableBalance)}, goes to{' '}
            {stats.payoutAccountName ?? 'your payout account'}. It cannot be taken back once sent.
          </p>
        </ConfirmStep>
      )}
      {stats.payoutBlockedReason && (
        <p id={reasonId} className="text-sm text-slate-400">
          {stats.payoutBlockedReason}
        </p>
      )}
      {payout.status === 'failure' && payout.error && <Alert>{payout.error.error}</Alert>}
      {connect.status === 'failure' && connect.error && <Alert>{connect.error.error}</Alert>}
    </section>
  );
}

/** The chart for sighted readers and the same months as a table for screen readers. */
export function EarningsPanel({ stats }: { stats: AffiliateStats }) {
  const currency = stats.availableBalance.currency;
  const total = stats.earnings.reduce((n, e) => n + e.amount, 0);
  return (
    <section className={panel} aria-labelledby="earnings-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="earnings-heading" className="font-semibold text-white">
          Earnings over the last 12 months
        </h2>
        <p className="text-sm text-slate-400">{formatMoney(total, currency)} after clawbacks</p>
      </div>
      <Suspense fallback={<Loading label="Loading the chart…" size="page" />}>
        <EarningsChart points={stats.earnings} currency={currency} />
      </Suspense>
      {/* A table is never narrower than its cells: the hidden box around it clips it instead. */}
      <div className="sr-only">
        <table>
          <caption>Commission earned per month, after clawbacks</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Earned</th>
            </tr>
          </thead>
          <tbody>
            {stats.earnings.map((e) => (
              <tr key={e.month}>
                <th scope="row">{monthLabel(e.month)}</th>
                <td>{formatMoney(e.amount, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Joined vendors' share links with a copy button, and their clicks and sales. */
export function ShareLinks({
  vendors,
  stats,
}: {
  vendors: AffiliateVendor[];
  stats: AffiliateStats;
}) {
  // One "Copied" at a time across the list.
  const copier = useCopy();
  const joined = vendors.filter((v) => v.refId && v.shareUrl);
  const counts = new Map(stats.links.map((l) => [l.refId, l]));
  return (
    <section className={panel} aria-labelledby="links-heading">
      <h2 id="links-heading" className="font-semibold text-white">
        Your referral links
      </h2>
      {joined.length === 0 ? (
        <p className="text-sm text-slate-400">Generate a link for a vendor below to start.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Referral links">
          {joined.map((v) => {
            const c = counts.get(v.refId!);
            return (
              <li key={v.vendorId} className="flex flex-col gap-2" data-testid="share-link">
                <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                  <span className="font-semibold text-white">{v.name}</span>
                  <span className="text-slate-400">
                    {percent(v.commissionBps)} commission · {v.cookieDays}-day cookie ·{' '}
                    {c?.clicks ?? 0} clicks · {c?.sales ?? 0} sales
                  </span>
                </div>
                <ReferralLink vendor={v} id={`link-${v.vendorId}`} copier={copier} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * A vendor's referral link, selected on focus, with a copy button that says "Copied" for a moment.
 * `copier` is the list's when its rows share one "Copied"; `focus` takes the keyboard's place, and
 * `announce` says "Copied" to screen readers too.
 */
function ReferralLink({
  vendor: v,
  id,
  copier,
  focus = false,
  announce = false,
  className = 'flex gap-2',
  testId,
}: {
  vendor: AffiliateVendor;
  id: string;
  copier?: ReturnType<typeof useCopy>;
  focus?: boolean;
  announce?: boolean;
  className?: string;
  testId?: string;
}) {
  const own = useCopy();
  const { copied, copy } = copier ?? own;
  const toast = useToast();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) button.current?.focus();
  }, [focus]);
  return (
    <div className={className} data-testid={testId}>
      <label className="sr-only" htmlFor={id}>
        Referral link for {v.name}
      </label>
      <input
        id={id}
        readOnly
        value={v.shareUrl!}
        onFocus={(e) => e.currentTarget.select()}
        className="min-w-0 flex-1 rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 text-sm text-slate-100"
      />
      <Button
        ref={button}
        type="button"
        variant="ghost"
        aria-label={`Copy the referral link for ${v.name}`}
        onClick={() =>
          void copy(v.vendorId, v.shareUrl!).then((ok) => {
            if (!ok) toast('Copy did not work: select the link and copy it.', 'error');
          })
        }
      >
        {copied === v.vendorId ? 'Copied' : 'Copy'}
      </Button>
      {announce && (
        <span role="status" className="sr-only">
          {copied === v.vendorId ? 'Copied' : ''}
        </span>
      )}
    </div>
  );
}

/** A link just made, in its row: the Generate button is gone, so the keyboard's place moves to Copy. */
function MadeLink({ vendor: v }: { vendor: AffiliateVendor }) {
  return (
    <ReferralLink
      vendor={v}
      id={`made-${v.vendorId}`}
      focus
      announce
      className="flex w-full min-w-0 gap-2 sm:w-auto sm:flex-1"
      testId="made-link"
    />
  );
}

/** Open programmes the affiliate has not joined yet (and those joined here, with their new link). */
export function VendorsToJoin({ vendors }: { vendors: AffiliateVendor[] }) {
  const dispatch = useAppDispatch();
  const generate = useAppSelector((s) => s.affiliate.generate);
  // Links made here stay in their row with a copy button, not moved up the page (issue 27).
  const [made, setMade] = useState<readonly string[]>([]);
  const [pending, setPending] = useState<string | null>(null);
  const open = vendors.filter((v) => v.open && (!v.refId || made.includes(v.vendorId)));
  const onGenerate = async (vendorId: string) => {
    setPending(vendorId);
    const done = await dispatch(generateReferral(vendorId));
    setPending(null);
    if (generateReferral.fulfilled.match(done)) setMade((m) => [...m, vendorId]);
  };
  if (!open.length) return null;
  return (
    <section className={panel} aria-labelledby="vendors-heading">
      <h2 id="vendors-heading" className="font-semibold text-white">
        Programmes you can join
      </h2>
      {generate.status === 'failure' && generate.error && <Alert>{generate.error.error}</Alert>}
      <ul className="flex flex-col divide-y divide-ink-800" aria-label="Open programmes">
        {open.map((v) => (
          <li key={v.vendorId} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <Link
                to={`/v/${encodeURIComponent(v.vendorUrl)}`}
                className="font-semibold text-white hover:text-brand-300"
              >
                {v.name}
              </Link>
              <p className="text-sm text-slate-400">
                {percent(v.commissionBps)} of every payment · remembered {v.cookieDays} days
              </p>
            </div>
            {v.refId && v.shareUrl ? (
              <MadeLink vendor={v} />
            ) : (
              <Button
                type="button"
                variant="ghost"
                aria-label={`Generate a referral link for ${v.name}`}
                loading={generate.status === 'loading' && pending === v.vendorId}
                disabled={generate.status === 'loading'}
                onClick={() => void onGenerate(v.vendorId)}
              >
                Generate link
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PendingInvites({
  invites,
  highlight,
}: {
  invites: Invitation[];
  highlight: string | null;
}) {
  const dispatch = useAppDispatch();
  const accept = useAppSelector((s) => s.affiliate.acceptInvite);
  const toast = useToast();
  if (!invites.length) return null;
  const onAccept = async (invite: Invitation) => {
    const done = await dispatch(acceptInvite({ id: invite.id, vendorId: invite.vendorId }));
    if (acceptInvite.fulfilled.match(done))
      toast(`You joined ${invite.vendorName}'s programme.`, 'success');
  };
  return (
    <section className={panel} aria-labelledby="invites-heading">
      <h2 id="invites-heading" className="font-semibold text-white">
        Invitations
      </h2>
      {accept.status === 'failure' && accept.error && <Alert>{accept.error.error}</Alert>}
      <ul className="flex flex-col gap-3" aria-label="Invitations">
        {invites.map((i) => (
          <li
            key={i.id}
            className={`flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4 ${
              i.id === highlight ? 'border-brand-500' : 'border-ink-700'
            }`}
          >
            <div>
              <p className="font-semibold text-white">{i.vendorName}</p>
              <p className="text-sm text-slate-400">
                {percent(i.commissionBps)} commission · {i.cookieDays}-day cookie · open until{' '}
                {formatDate(i.expiresAt)}
              </p>
            </div>
            <Button
              type="button"
              loading={accept.status === 'loading'}
              aria-label={`Accept the invitation from ${i.vendorName}`}
              onClick={() => void onAccept(i)}
            >
              Accept
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

const stateLabel = (r: ReferralSale) =>
  r.state === 'pending'
    ? `On hold until ${formatDate(r.availableAt)}`
    : r.state === 'available'
      ? 'Available'
      : 'Clawed back (refunded)';

const stateTone: Record<ReferralSale['state'], string> = {
  pending: 'bg-amber-400/10 text-amber-200',
  available: 'bg-brand-500/10 text-brand-200',
  clawed_back: 'bg-rose-500/10 text-rose-200',
};

const badge = 'inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const td = `${cell} align-top`;
const referralColumns = ['Date', 'Sale', 'Commission', 'State'].map((label) => ({ label }));
const withdrawalColumns = ['Requested', 'Amount', 'State'].map((label) => ({ label }));

export function ReferralsTable({ referrals }: { referrals: ReferralSale[] }) {
  return (
    <section className={panel} aria-labelledby="referrals-heading">
      <h2 id="referrals-heading" className="font-semibold text-white">
        Referred sales
      </h2>
      {referrals.length === 0 ? (
        <p className="text-sm text-slate-400">No referred sales yet: share a link.</p>
      ) : (
        <ListTable columns={referralColumns} testId="referrals-table">
          {referrals.map((r) => (
            <tr key={r.id}>
              <td className={`${td} whitespace-nowrap text-slate-300`}>
                {formatDate(r.createdAt)}
              </td>
              <td className={td}>
                <span className="text-white">{r.itemTitle}</span>
                <span className="block text-xs text-slate-400">
                  {r.vendorName} · {money(r.sale)}
                </span>
              </td>
              <td className={`${td} text-white tabular-nums`}>
                {money(r.commission)}
                {r.clawedBack.amount > 0 && (
                  <span className="block text-xs text-rose-300">
                    −{money(r.clawedBack)} clawed back
                  </span>
                )}
              </td>
              <td className={td}>
                <span className={`${badge} ${stateTone[r.state]}`}>{stateLabel(r)}</span>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}

const payoutLabel: Record<Payout['status'], string> = {
  requested: 'On its way',
  paid: 'Paid',
  failed: 'Failed',
  returned: 'Returned to your balance',
};
const payoutTone: Record<Payout['status'], string> = {
  requested: 'bg-amber-400/10 text-amber-200',
  paid: 'bg-brand-500/10 text-brand-200',
  failed: 'bg-rose-500/10 text-rose-200',
  returned: 'bg-rose-500/10 text-rose-200',
};

export function WithdrawalsTable({ withdrawals }: { withdrawals: Payout[] }) {
  return (
    <section className={panel} aria-labelledby="withdrawals-heading">
      <h2 id="withdrawals-heading" className="font-semibold text-white">
        Withdrawals
      </h2>
      {withdrawals.length === 0 ? (
        <p className="text-sm text-slate-400">No payouts yet.</p>
      ) : (
        <ListTable columns={withdrawalColumns} testId="withdrawals-table">
          {withdrawals.map((w) => (
            <tr key={w.id}>
              <td className={`${td} whitespace-nowrap text-slate-300`}>
                {formatDate(w.createdAt)}
              </td>
              <td className={`${td} text-white tabular-nums`}>{money(w.amount)}</td>
              <td className={td}>
                <span className={`${badge} ${payoutTone[w.status]}`}>{payoutLabel[w.status]}</span>
                {w.failureReason && (
                  <span className="mt-1 block text-xs text-slate-400">{w.failureReason}</span>
                )}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
