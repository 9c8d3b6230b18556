import { useState } from 'react';
import { Link } from 'react-router';
import { tradingViewStatusText, type TradingViewAccessStatus } from '@tradeshelf/contract/client';
import type { TradingViewAccessItem, TradingViewAccount } from '@tradeshelf/contract';
import { Alert, Button } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { formatDate } from '../../lib/format.ts';
import { productPath } from '../../lib/paths.ts';
import { ScriptList, USERNAME_HINT, UsernameField } from './checkout.tsx';
import { useTradingViewAccess, useUsernameForm } from './hooks.ts';

/** A status in one or two words, with its colour (dark theme, AA contrast on ink-900). */
const statusLabels: Record<TradingViewAccessStatus, [string, string]> = {
  needs_username: ['Username needed', 'bg-amber-500/20 text-amber-200'],
  waiting: ['Waiting', 'bg-sky-500/20 text-sky-200'],
  active: ['Active', 'bg-brand-500/20 text-brand-200'],
  ended: ['Ended', 'bg-slate-500/20 text-slate-300'],
};

/** The username form (the library's, and the change form). */
export function UsernameForm({
  initial,
  onSaved,
  onCancel,
}: {
  initial: string | null;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const form = useUsernameForm(initial, onSaved);
  return (
    <form
      noValidate
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        void form.submit();
      }}
    >
      <div className="min-w-0 flex-1">
        <UsernameField label="TradingView username" form={form} hint={USERNAME_HINT} />
      </div>
      <div className="flex gap-2 sm:mt-7">
        <Button type="submit" loading={form.saving} disabled={!form.value.trim()}>
          Save
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

function UsernamePanel({ account }: { account: TradingViewAccount }) {
  const [editing, setEditing] = useState(false);
  const toast = useToast();
  const saved = () => {
    setEditing(false);
    toast('TradingView username saved. Vendors are asked to update your access.');
  };
  if (!account.username)
    return (
      <div className="flex flex-col gap-2 rounded-xl border border-amber-500/40 bg-ink-900 p-4">
        <p className="text-sm text-slate-200">
          Add your TradingView username: vendors add it to the invite-only scripts you bought.
        </p>
        <UsernameForm initial={null} onSaved={saved} />
      </div>
    );
  return (
    <div
      data-testid="tradingview-account"
      className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4"
    >
      {editing ? (
        <UsernameForm
          initial={account.username}
          onSaved={saved}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-300">
            Your TradingView username:{' '}
            <strong data-testid="tradingview-username" className="text-white">
              {account.username}
            </strong>
          </p>
          <Button type="button" variant="ghost" onClick={() => setEditing(true)}>
            Change<span className="sr-only"> your TradingView username</span>
          </Button>
        </div>
      )}
    </div>
  );
}

export function TradingViewCard({ item }: { item: TradingViewAccessItem }) {
  const [label, style] = statusLabels[item.status];
  const message = tradingViewStatusText(
    {
      status: item.status,
      vendorName: item.vendor.displayName,
      endsAt: item.endsAt,
      endedReason: item.endedReason,
    },
    formatDate,
  );
  return (
    <article
      data-testid="tradingview-card"
      data-status={item.status}
      className="flex flex-col gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-white">
          <Link to={productPath(item.product)} className="hover:underline">
            {item.product.title}
          </Link>
        </h3>
        <p className="text-xs text-slate-400">{item.vendor.displayName}</p>
      </div>
      <p data-testid="tradingview-status" className="text-sm text-slate-200">
        <span
          className={`mr-2 inline-block rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap ${style}`}
        >
          {label}
        </span>
        {message}
        {item.username && item.status !== 'ended' && (
          <span className="text-slate-400"> · as {item.username}</span>
        )}
      </p>
      <ScriptList scripts={item.scripts} />
    </article>
  );
}

/** The library's TradingView section: the username, then each product's scripts and status. */
export function TradingViewSection() {
  const { access, reload } = useTradingViewAccess();
  const data = access.data;
  if (!data && access.status === 'failure')
    return (
      <Alert>
        {access.error?.error ?? 'We could not load your TradingView access.'}{' '}
        <button type="button" className="font-semibold underline" onClick={reload}>
          Try again
        </button>
      </Alert>
    );
  if (!data?.access.length) return null;
  return (
    <section aria-labelledby="tradingview-title" className="flex flex-col gap-3">
      <h2 id="tradingview-title" className="text-lg font-semibold text-white">
        TradingView scripts
      </h2>
      <UsernamePanel account={data.tradingview} />
      <ul aria-label="TradingView scripts" className="flex flex-col gap-3">
        {data.access.map((item) => (
          <li key={item.id}>
            <TradingViewCard item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}
