import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import type { Entitlement, Purchase } from '@tradeshelf/contract';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { CommunityList, DiscordAccountPanel } from '../features/discord/components.tsx';
import { coursePath } from '../features/courses/index.ts';
import { ProductDelivery } from '../features/deliverables/index.ts';
import { APPS_PATH } from '../features/licences/index.ts';
import { fetchPurchaseList } from '../features/orders/api.ts';
import { TradingViewSection } from '../features/tradingview/index.ts';
import { HeldAlertFeeds } from '../features/alerts/index.ts';
import { orderPath, schemeLabel } from '../features/orders/components.tsx';
import { formatDate } from '../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Loading } from '../components/screen.tsx';
import { NothingYet } from '../components/nothing-yet.tsx';

export const meta = () => [
  ...pageMeta('Your library', 'Everything you own on Tradeshelf: communities, tools and courses.'),
  { name: 'robots', content: 'noindex' },
];

/** Orders read per page here: the library lists what is owned, so it reads more at once. */
const PAGE = 50;

/** What a paid purchase still gives, other than Discord roles (those are the community cards). */
function ownedProducts(p: Purchase) {
  if (p.status !== 'paid') return [];
  const community = new Set(
    p.entitlements.filter((e) => e.kind === 'discord_role').map((e) => e.productId),
  );
  return p.entitlements.filter(
    (e) => e.kind === 'access' && e.status === 'active' && !community.has(e.productId),
  );
}

/** An app's licence came with it: its key and devices are on the apps page. */
const hasLicence = (p: Purchase) =>
  p.entitlements.some((e) => e.kind === 'licence' && e.status === 'active');

/** The courses a purchase enrols its buyer in (a course, or a bundle's courses): each opens in the player. */
const coursesOf = (p: Purchase) =>
  p.entitlements.filter((e) => e.kind === 'course_enrolment' && e.status === 'active');

/** One purchase in the library; "Open downloads" reads its files and guides (few are opened often). */
function PurchaseCard({ purchase: p, products }: { purchase: Purchase; products: Entitlement[] }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <article className="flex flex-col gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <div className="min-w-0">
        <h3 className="font-semibold text-white">{p.item.title}</h3>
        <p className="text-xs text-slate-400">
          {p.item.vendor.displayName} · {schemeLabel(p)} · bought{' '}
          <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time>
        </p>
        {p.item.type === 'bundle' && (
          <p className="mt-1 text-sm text-slate-300">
            {products.map((e) => e.productTitle).join(', ')}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-x-4 gap-y-1">
        {coursesOf(p).map((e) => (
          <Link
            key={e.productId}
            to={coursePath(e.productId)}
            className="text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            data-testid="library-course-link"
          >
            Open course <span className="sr-only">{e.productTitle}</span>
          </Link>
        ))}
        {hasLicence(p) && (
          <Link
            to={APPS_PATH}
            className="text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            data-testid="library-licence-link"
          >
            Manage licence <span className="sr-only">for {p.item.title}</span>
          </Link>
        )}
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          className="text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide downloads' : 'Open downloads'}{' '}
          <span className="sr-only">for {p.item.title}</span>
        </button>
        <Link
          to={orderPath(p)}
          className="text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          View order<span className="sr-only"> for {p.item.title}</span>
        </Link>
      </div>
      {open && (
        <div id={panelId} className="flex w-full flex-col gap-4 border-t border-ink-700 pt-3">
          {products.map((e) => (
            <ProductDelivery
              key={e.productId}
              productId={e.productId}
              {...(products.length > 1 ? { title: e.productTitle } : {})}
              empty={
                <p className="text-sm text-slate-400">
                  {e.productTitle} has no files or guide to download.
                </p>
              }
            />
          ))}
        </div>
      )}
    </article>
  );
}

function OtherPurchases() {
  const dispatch = useAppDispatch();
  const list = useAppSelector((s) => s.order.list);
  const data = list.data;
  const owned = (data?.purchases ?? [])
    .map((p) => ({ purchase: p, products: ownedProducts(p) }))
    .filter((x) => x.products.length > 0);

  if (!data && list.status === 'failure')
    return (
      <Alert>
        {list.error?.error ?? 'We could not load your purchases.'}{' '}
        <button
          type="button"
          className="font-semibold underline"
          onClick={() => void dispatch(fetchPurchaseList({ limit: PAGE }))}
        >
          Try again
        </button>
      </Alert>
    );
  if (!data) return <Loading label="Loading your purchases…" size="row" rows={2} />;
  return (
    <>
      {owned.length > 0 ? (
        <ul aria-label="Other purchases" className="flex flex-col gap-3">
          {owned.map(({ purchase: p, products }) => (
            <li key={p.id}>
              <PurchaseCard purchase={p} products={products} />
            </li>
          ))}
        </ul>
      ) : (
        !data.nextCursor && <p className="text-sm text-slate-400">No other purchases yet.</p>
      )}
      {list.status === 'failure' && list.error && <Alert>{list.error.error}</Alert>}
      {data.nextCursor && (
        <Button
          type="button"
          variant="ghost"
          className="self-center"
          loading={list.status === 'loading'}
          onClick={() =>
            void dispatch(fetchPurchaseList({ limit: PAGE, cursor: data.nextCursor! }))
          }
        >
          Load more purchases
        </Button>
      )}
    </>
  );
}

function LibraryPage() {
  const dispatch = useAppDispatch();
  const communities = useAppSelector((s) => s.discord.communities);
  const purchases = useAppSelector((s) => s.order.list);
  useEffect(() => {
    void dispatch(fetchPurchaseList({ limit: PAGE }));
  }, [dispatch]);

  const noCommunities = communities.status !== 'idle' && communities.data?.length === 0;
  const nothingOwned =
    noCommunities &&
    purchases.data !== null &&
    !purchases.data.nextCursor &&
    purchases.data.purchases.every((p) => ownedProducts(p).length === 0);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold text-white">Your library</h1>
        <p className="text-sm text-slate-400">
          Licence keys, devices and downloads of the apps you bought are on{' '}
          <Link
            to={APPS_PATH}
            className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Apps and licences
          </Link>
          .
        </p>
      </div>
      <DiscordAccountPanel />
      {nothingOwned && (
        <NothingYet
          testId="library-empty"
          title="Nothing here yet"
          note="Communities, indicators, scanners and courses you buy show up here."
          to="/search"
          action="Browse the marketplace"
        />
      )}
      <section
        aria-labelledby="communities-title"
        // Kept mounted while hidden: the list inside reads (and polls) the communities.
        hidden={noCommunities}
        className="flex flex-col gap-3"
      >
        <h2 id="communities-title" className="text-lg font-semibold text-white">
          Communities
        </h2>
        <CommunityList />
      </section>
      <TradingViewSection />
      <HeldAlertFeeds />
      {!nothingOwned && (
        <section aria-labelledby="purchases-title" className="flex flex-col gap-3">
          <h2 id="purchases-title" className="text-lg font-semibold text-white">
            {noCommunities ? 'Your purchases' : 'Your other purchases'}
          </h2>
          <OtherPurchases />
        </section>
      )}
    </div>
  );
}

export default function Library() {
  return (
    <RequireAuth>
      <LibraryPage />
    </RequireAuth>
  );
}
