import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import { VendorLayout } from '../../features/workspace/layout.tsx';
import type { VendorPageProps } from '../../features/workspace/nav.ts';
import { pageMeta, SITE_NAME } from '../../lib/seo.ts';
import { Loading } from '../../components/screen.tsx';

export const meta = () => [...pageMeta('Vendor workspace'), { name: 'robots', content: 'noindex' }];

/**
 * The workspace's pages, routed inside this one route (ADR 039). Each is its own chunk, loaded when
 * opened; none is in the route manifest every visitor of the public pages downloads, and matching
 * them takes `matchPath`, which the router's own code already ships (`<Routes>` would add ~0.35 KB to
 * every page).
 */
const pages: Array<{ path: string; title: string; page: ComponentType<VendorPageProps> }> = [
  { path: '', title: 'Vendor workspace', page: lazy(() => import('./home.tsx')) },
  { path: 'storefront', title: 'Storefront', page: lazy(() => import('./storefront.tsx')) },
  { path: 'payouts', title: 'Payouts', page: lazy(() => import('./payouts.tsx')) },
  { path: 'products', title: 'Your products', page: lazy(() => import('./products.tsx')) },
  { path: 'products/new', title: 'New product', page: lazy(() => import('./product.tsx')) },
  { path: 'products/:id', title: 'Edit product', page: lazy(() => import('./product.tsx')) },
  { path: 'bundles', title: 'Your bundles', page: lazy(() => import('./bundles.tsx')) },
  { path: 'bundles/new', title: 'New bundle', page: lazy(() => import('./bundle.tsx')) },
  { path: 'bundles/:id', title: 'Edit bundle', page: lazy(() => import('./bundle.tsx')) },
  { path: 'delivery', title: 'Delivery', page: lazy(() => import('./delivery.tsx')) },
  {
    path: 'delivery/discord',
    title: 'Discord delivery',
    page: lazy(() => import('./discord.tsx')),
  },
  {
    path: 'delivery/tradingview',
    title: 'TradingView access',
    page: lazy(() => import('./tradingview.tsx')),
  },
  { path: 'delivery/alerts', title: 'Alerts', page: lazy(() => import('./alerts.tsx')) },
  { path: 'courses', title: 'Courses', page: lazy(() => import('./courses.tsx')) },
  { path: 'courses/:productId', title: 'Course builder', page: lazy(() => import('./course.tsx')) },
  { path: 'licences', title: 'Licences', page: lazy(() => import('./licences.tsx')) },
  {
    path: 'licences/:productId',
    title: 'Licence terms',
    page: lazy(() => import('./licence.tsx')),
  },
  { path: 'coupons', title: 'Coupons', page: lazy(() => import('./coupons.tsx')) },
  { path: 'affiliates', title: 'Affiliates', page: lazy(() => import('./affiliates.tsx')) },
  { path: 'sales', title: 'Sales', page: lazy(() => import('./sales.tsx')) },
  { path: 'sales/:id', title: 'Sale', page: lazy(() => import('./sale.tsx')) },
  { path: 'reviews', title: 'Reviews', page: lazy(() => import('./reviews.tsx')) },
  { path: 'analytics', title: 'Analytics', page: lazy(() => import('./analytics.tsx')) },
  {
    path: 'developers',
    title: 'API keys & webhooks',
    page: lazy(() => import('./developers.tsx')),
  },
];

function Page({
  title,
  page: Screen,
  params,
}: VendorPageProps & { title: string; page: ComponentType<VendorPageProps> }) {
  // The route's own meta names the workspace; each page names itself once it shows.
  useEffect(() => {
    document.title = `${title} · ${SITE_NAME}`;
  }, [title]);
  return (
    <Suspense fallback={<Loading label="Loading…" />}>
      <Screen params={params} />
    </Suspense>
  );
}

function NoSuchPage() {
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-2xl font-bold text-white">No such page in your workspace</h1>
      <Link to="/vendor" className="self-start font-semibold text-brand-400 underline">
        Back to the overview
      </Link>
    </div>
  );
}

export default function VendorArea() {
  const { pathname } = useLocation();
  let shown = <Page title="Not found" page={NoSuchPage} params={{}} />;
  for (const { path, title, page } of pages) {
    const match = matchPath({ path: path ? `/vendor/${path}` : '/vendor', end: true }, pathname);
    if (match) {
      // A new key per path: moving from one sale or product to another starts the screen afresh.
      shown = <Page key={match.pathname} title={title} page={page} params={match.params} />;
      break;
    }
  }
  return <VendorLayout>{shown}</VendorLayout>;
}
