import { Link } from 'react-router';
import { vendorNav } from '../../features/workspace/nav.ts';
import {
  fetchOverview,
  onboardingSteps,
  type Overview,
  type StepState,
} from '../../features/workspace/overview.ts';
import { useRead } from '../../features/workspace/request.ts';
import { Loading, ReadError } from '../../components/screen.tsx';
import { TitledSection } from '../../components/titled-section.tsx';

const marks: Record<StepState, { icon: string; label: string; tone: string }> = {
  done: { icon: '✓', label: 'Done', tone: 'bg-brand-500 text-ink-950' },
  in_progress: { icon: '…', label: 'In progress', tone: 'bg-sky-500/20 text-sky-200' },
  todo: { icon: '', label: 'To do', tone: 'border border-ink-500 text-slate-300' },
  blocked: { icon: '', label: 'Not yet', tone: 'border border-ink-700 text-slate-500' },
};

/** What each section is for, on its card. */
const blurbs: Record<string, string> = {
  '/vendor/storefront': 'Address, name, bio, links and pictures.',
  '/vendor/payouts': 'Your payout account and your share of sales.',
  '/vendor/products': 'Create, edit and publish what you sell.',
  '/vendor/delivery': 'Discord roles, courses, licences and TradingView access.',
  '/vendor/coupons': 'Discounts with limits and expiry.',
  '/vendor/affiliates': 'Your affiliate programme and invitations.',
  '/vendor/sales': 'Orders, customers and refunds.',
  '/vendor/reviews': 'What buyers say, and your replies.',
  '/vendor/analytics': 'Revenue, sales and conversion over time.',
  '/vendor/developers': 'API keys and webhooks for your own tools.',
};

function Checklist() {
  const read = useRead<void, Overview>(fetchOverview, undefined);
  if (read.status === 'failure' && read.error)
    return <ReadError error={read.error} onRetry={read.reload} />;
  if (!read.data) return <Loading label="Loading your checklist…" size="page" />;
  const steps = onboardingSteps(read.data);
  const done = steps.filter((s) => s.state === 'done').length;
  const next = steps.find((s) => s.state !== 'done' && s.state !== 'blocked');
  return (
    <TitledSection
      look="settings"
      headingId="getting-started"
      title="Getting started"
      aside={
        <p className="text-sm text-slate-400">
          {done} of {steps.length} done
        </p>
      }
    >
      <ol className="flex flex-col gap-3">
        {steps.map((step, i) => {
          const mark = marks[step.state];
          return (
            <li
              key={step.id}
              data-testid={`step-${step.id}`}
              data-state={step.state}
              className="flex flex-wrap items-center gap-3 rounded-xl bg-ink-950/40 p-3"
            >
              <span
                aria-hidden
                className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${mark.tone}`}
              >
                {mark.icon || i + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-white">
                  {step.title} <span className="sr-only">({mark.label})</span>
                </p>
                <p className="text-sm text-slate-400">{step.detail}</p>
              </div>
              {step.state !== 'blocked' && (
                <Link
                  to={step.to}
                  className={`rounded-lg px-3 py-2 text-sm font-semibold ${
                    step === next
                      ? 'bg-brand-500 text-ink-950 hover:bg-brand-400'
                      : 'border border-ink-600 text-slate-200 hover:bg-ink-800'
                  }`}
                >
                  {step.action}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </TitledSection>
  );
}

export default function VendorHome() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">Vendor workspace</h1>
      <Checklist />
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {vendorNav.slice(1).map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="block h-full rounded-xl border border-ink-700 bg-ink-900 p-4 hover:border-brand-500"
            >
              <span className="font-semibold text-white">{item.label}</span>
              <span className="mt-1 block text-sm text-slate-400">{blurbs[item.to]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
