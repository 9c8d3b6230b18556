import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { categoryLabels, planFeatures, plans, platformLabels } from '@tradeshelf/contract/client';
import type { SavedSearch, SearchQuery } from '@tradeshelf/contract';
import { ConfirmStep, useConfirm } from '../../components/confirm-step.tsx';
import { useToast } from '../../components/toasts.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { openCustomerPortal } from '../users/index.ts';
import {
  deleteSavedSearch,
  fetchMembership,
  fetchSavedSearches,
  saveSearch,
  updateSavedSearch,
} from './api.ts';
import { useMembership } from './hooks.ts';
import { resetSave } from './slice.ts';
import { Loading } from '../../components/screen.tsx';

const card = 'flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6';
const linkClass =
  'font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2 focus-visible:outline-2';

/** The /search URL a saved search runs. */
export function savedSearchUrl(s: SavedSearch): string {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.category) p.set('category', s.category);
  if (s.kind) p.set('kind', s.kind);
  if (s.platform) p.set('platform', s.platform);
  if (s.minPrice !== null) p.set('min', String(s.minPrice / 100));
  if (s.maxPrice !== null) p.set('max', String(s.maxPrice / 100));
  return `/search?${p.toString()}`;
}

function filtersOf(s: SavedSearch): string {
  return [
    s.q ? `“${s.q}”` : null,
    s.category ? categoryLabels[s.category] : null,
    s.kind ?? null,
    s.platform ? platformLabels[s.platform] : null,
    s.minPrice !== null ? `from ${formatMoney(s.minPrice, 'usd')}` : null,
    s.maxPrice !== null ? `up to ${formatMoney(s.maxPrice, 'usd')}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * On /search: members save the search shown (and are e-mailed new matches); everyone else sees
 * what the plans offer instead of the button.
 */
export function SaveSearch({ query }: { query: SearchQuery }) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const save = useAppSelector((s) => s.membership.save);
  const { membership, loaded } = useMembership();
  const key = JSON.stringify([query.q, query.category, query.kind, query.platform]);
  // Another search: the last one's outcome does not belong to it.
  useEffect(() => {
    dispatch(resetSave());
  }, [dispatch, key, query.minPrice, query.maxPrice]);

  const hasSearch = Boolean(query.q || query.category || query.kind || query.platform);
  if (!hasSearch || !loaded) return null;
  if (!membership) {
    return (
      <p className="text-sm text-slate-300">
        Want an e-mail when a new product matches this search?{' '}
        <Link to="/premium" className={linkClass}>
          Save searches with Premium
        </Link>
        {isLoggedIn ? '' : ' (sign in first if you are a member)'}.
      </p>
    );
  }
  if (save.status === 'success' && save.data) {
    return (
      <p role="status" className="text-sm text-brand-200">
        Saved as “{save.data.name}”. We e-mail you when a new product matches.{' '}
        <Link to="/account#saved-searches" className={linkClass}>
          Manage saved searches
        </Link>
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="ghost"
        loading={save.status === 'loading'}
        className="self-start"
        onClick={() =>
          void dispatch(
            saveSearch({
              q: query.q ?? '',
              ...(query.category ? { category: query.category } : {}),
              ...(query.kind ? { kind: query.kind } : {}),
              ...(query.platform ? { platform: query.platform } : {}),
              ...(query.minPrice !== undefined ? { minPrice: Number(query.minPrice) } : {}),
              ...(query.maxPrice !== undefined ? { maxPrice: Number(query.maxPrice) } : {}),
            }),
          ).then(() => dispatch(fetchMembership()))
        }
      >
        Save this search
      </Button>
      {save.status === 'failure' && save.error && <Alert>{save.error.error}</Alert>}
    </div>
  );
}

const statusText: Record<string, string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment failed: update your card',
  cancelling: 'Cancelled: ends at the end of the period',
};

/** The account page's plan card: plan, dates, what it grants, and billing in the customer portal. */
export function MembershipSection() {
  const dispatch = useAppDispatch();
  const status = useAppSelector((s) => s.membership.status);
  const portal = useAppSelector((s) => s.user.portal);
  const { membership, loaded } = useMembership();

  if (status.status === 'failure')
    return (
      <section className={card} aria-labelledby="plan-heading">
        <h2 id="plan-heading" className="font-semibold text-white">
          Your plan
        </h2>
        <Alert>{status.error?.error ?? 'We could not load your plan.'}</Alert>
      </section>
    );
  if (!loaded) return <Loading label="Loading your plan…" />;
  if (!membership)
    return (
      <section className={card} aria-labelledby="plan-heading">
        <h2 id="plan-heading" className="font-semibold text-white">
          Your plan
        </h2>
        <p className="text-sm text-slate-300">
          You have no Tradeshelf plan. Members pay less on other vendors' products, save searches
          with new-listing e-mails and get priority support.
        </p>
        <p className="flex gap-4 text-sm">
          <Link to="/premium" className={linkClass}>
            {plans.premium.name}
          </Link>
          <Link to="/pro-plus" className={linkClass}>
            {plans.pro_plus.name}
          </Link>
        </p>
      </section>
    );

  const manage = async () => {
    const result = await dispatch(openCustomerPortal(membership.vendorUrl));
    if (openCustomerPortal.fulfilled.match(result)) window.location.assign(result.payload.url);
  };
  return (
    <section className={card} aria-labelledby="plan-heading">
      <h2 id="plan-heading" className="font-semibold text-white">
        Your plan: Tradeshelf {membership.name}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-400">Status</dt>
        <dd>
          {membership.status ? (statusText[membership.status] ?? membership.status) : 'Active'}
        </dd>
        {membership.renewsAt && (
          <>
            <dt className="text-slate-400">Renews</dt>
            <dd>{formatDate(membership.renewsAt)}</dd>
          </>
        )}
        {membership.endsAt && (
          <>
            <dt className="text-slate-400">Ends</dt>
            <dd>{formatDate(membership.endsAt)}</dd>
          </>
        )}
        <dt className="text-slate-400">Saved searches</dt>
        <dd>
          {membership.savedSearchCount} of {membership.grants.savedSearches}
        </dd>
      </dl>
      <ul className="flex flex-col gap-1 text-sm text-slate-300">
        {planFeatures(membership.grants).map((f) => (
          <li key={f} className="flex gap-2">
            <span aria-hidden className="text-brand-400">
              ✓
            </span>
            {f}
          </li>
        ))}
      </ul>
      {portal.status === 'failure' && portal.error && <Alert>{portal.error.error}</Alert>}
      <div className="flex flex-wrap items-center gap-4">
        <Button
          type="button"
          variant="ghost"
          loading={portal.status === 'loading'}
          onClick={() => void manage()}
        >
          Manage billing
        </Button>
        <Link to={`/orders/${membership.purchaseId}`} className={`text-sm ${linkClass}`}>
          View the order
        </Link>
      </div>
    </section>
  );
}

function SavedSearchRow({ item }: { item: SavedSearch }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const edit = useAppSelector((s) => s.membership.edit);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(item.name);
  const inputId = useId();
  const busy = edit.status === 'loading' && edit.data === item.id;
  const deleting = useConfirm();

  const rename = async () => {
    const result = await dispatch(updateSavedSearch({ id: item.id, body: { name } }));
    if (updateSavedSearch.fulfilled.match(result)) {
      setRenaming(false);
      toast('Saved search renamed');
    }
  };
  return (
    <li className="flex flex-col gap-2 border-t border-ink-700 py-3 first:border-t-0">
      {renaming ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={inputId} className="text-xs text-slate-400">
              Name
            </label>
            <input
              id={inputId}
              value={name}
              maxLength={60}
              required
              onChange={(e) => setName(e.target.value)}
              className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-slate-100 focus:border-brand-400"
            />
          </div>
          <Button type="submit" loading={busy}>
            Save
          </Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setName(item.name);
              setRenaming(false);
            }}
          >
            Cancel
          </Button>
        </form>
      ) : (
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <Link to={savedSearchUrl(item)} className={linkClass}>
            {item.name}
          </Link>
          <span className="text-xs text-slate-400">{filtersOf(item)}</span>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-2 text-slate-300">
          <input
            type="checkbox"
            checked={item.alerts}
            disabled={busy}
            onChange={(e) =>
              void dispatch(updateSavedSearch({ id: item.id, body: { alerts: e.target.checked } }))
            }
          />
          E-mail me new matches
        </label>
        {!renaming && (
          <button
            type="button"
            onClick={() => setRenaming(true)}
            className="text-slate-300 underline underline-offset-2 hover:text-white"
          >
            Rename<span className="sr-only"> {item.name}</span>
          </button>
        )}
        {!deleting.open && (
          <button
            id={deleting.triggerId}
            type="button"
            disabled={busy}
            onClick={deleting.show}
            className="text-rose-300 underline underline-offset-2 hover:text-rose-200"
          >
            Delete<span className="sr-only"> {item.name}</span>
          </button>
        )}
      </div>
      {deleting.open && (
        <ConfirmStep
          compact
          title={`Delete the saved search “${item.name}”?`}
          confirmLabel="Delete"
          busy={busy}
          error={null}
          returnFocusTo={deleting.triggerId}
          onCancel={deleting.close}
          onConfirm={() =>
            void dispatch(deleteSavedSearch(item.id)).then(() => dispatch(fetchMembership()))
          }
        />
      )}
    </li>
  );
}

/** The account page's saved searches: a page at a time, renamed, muted or deleted in place. */
export function SavedSearchesSection() {
  const dispatch = useAppDispatch();
  const list = useAppSelector((s) => s.membership.savedSearches);
  const edit = useAppSelector((s) => s.membership.edit);
  useEffect(() => {
    void dispatch(fetchSavedSearches());
  }, [dispatch]);
  const page = list.data;

  return (
    <section id="saved-searches" className={card} aria-labelledby="saved-heading">
      <h2 id="saved-heading" className="font-semibold text-white">
        Saved searches
        {page && page.limit > 0 && (
          <span className="ml-2 text-sm font-normal text-slate-400">
            {page.count} of {page.limit}
          </span>
        )}
      </h2>
      {list.status === 'failure' && (
        <Alert>{list.error?.error ?? 'We could not load your saved searches.'}</Alert>
      )}
      {edit.status === 'failure' && edit.error && <Alert>{edit.error.error}</Alert>}
      {!page && list.status !== 'failure' && (
        <Loading label="Loading your saved searches…" size="row" />
      )}
      {page && page.savedSearches.length === 0 && (
        <p className="text-sm text-slate-300">
          {page.limit > 0 ? (
            <>
              None yet. Run a{' '}
              <Link to="/search" className={linkClass}>
                search
              </Link>{' '}
              and choose “Save this search”.
            </>
          ) : (
            <>
              Saved searches with new-listing e-mails come with{' '}
              <Link to="/premium" className={linkClass}>
                Premium
              </Link>{' '}
              and{' '}
              <Link to="/pro-plus" className={linkClass}>
                Pro Plus
              </Link>
              .
            </>
          )}
        </p>
      )}
      {page && page.savedSearches.length > 0 && (
        <ul className="flex flex-col">
          {page.savedSearches.map((s) => (
            <SavedSearchRow key={s.id} item={s} />
          ))}
        </ul>
      )}
      {page?.nextCursor && (
        <Button
          type="button"
          variant="ghost"
          className="self-start"
          loading={list.status === 'loading'}
          onClick={() => void dispatch(fetchSavedSearches({ cursor: page.nextCursor! }))}
        >
          Show more
        </Button>
      )}
    </section>
  );
}
