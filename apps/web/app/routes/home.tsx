import { Link } from 'react-router';
import { catalogCategories, categoryLabels } from '@tradeshelf/contract/client';
import { ProductGrid, VendorTile } from '../features/catalog/components.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/home';

export async function loader({ context, request }: Route.LoaderArgs) {
  const [featured, fresh, top] = await Promise.all([
    loadFrom(context, request, routes.search, { query: { sort: 'best_selling', limit: 8 } }),
    loadFrom(context, request, routes.search, { query: { sort: 'newest', limit: 8 } }),
    loadFrom(context, request, routes.topVendors, { query: { limit: 8 } }),
  ]);
  return {
    featured: featured.products,
    bundles: featured.bundles.slice(0, 4),
    fresh: fresh.products,
    vendors: top.vendors,
  };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: '',
    description:
      'Buy trading indicators, scanners, alerts, Discord communities, courses and apps from independent vendors.',
    path: '/',
    origin: originOf(matches),
  });

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-10 sm:gap-14">
      <section className="text-center sm:pt-14">
        <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
          Tools traders <span className="text-brand-400">actually use</span>
        </h1>
        <p className="mx-auto mt-3 max-w-2xl text-slate-300 sm:mt-4 sm:text-lg">
          Indicators, scanners, alerts, paid Discord communities, courses and licensed apps from
          independent vendors.
        </p>
        <form
          action="/search"
          method="get"
          role="search"
          className="mx-auto mt-6 flex max-w-xl gap-2 sm:mt-8"
        >
          <label htmlFor="hero-q" className="sr-only">
            Search the marketplace
          </label>
          <input
            id="hero-q"
            name="q"
            type="search"
            placeholder="Try “RSI divergence” or “options flow”"
            className="min-w-0 flex-1 rounded-lg border border-ink-600 bg-ink-900 px-4 py-3 placeholder:text-slate-400"
          />
          <button
            type="submit"
            className="rounded-lg bg-brand-500 px-5 py-3 font-semibold text-ink-950 hover:bg-brand-400"
          >
            Search
          </button>
        </form>
      </section>
      <section aria-labelledby="cats">
        <h2 id="cats" className="text-xl font-bold text-white">
          Browse by category
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3 lg:grid-cols-7">
          {catalogCategories.map((c) => (
            <li key={c}>
              <Link
                to={`/search?category=${c}`}
                className="block rounded-xl border border-ink-700 bg-ink-900 px-3 py-3 text-center text-sm font-semibold hover:border-brand-500 sm:px-4 sm:py-5 sm:text-base"
              >
                {categoryLabels[c]}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="featured">
        <div className="flex items-baseline justify-between">
          <h2 id="featured" className="text-xl font-bold text-white">
            Best sellers
          </h2>
          <Link
            to="/search?sort=best_selling"
            className="text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            See all
          </Link>
        </div>
        <div className="mt-4">
          <ProductGrid products={loaderData.featured} layout="rail" eager={4} />
        </div>
      </section>
      {loaderData.bundles.length > 0 && (
        <section aria-labelledby="bundles">
          <h2 id="bundles" className="text-xl font-bold text-white">
            Bundles
          </h2>
          <div className="mt-4">
            <ProductGrid products={[]} bundles={loaderData.bundles} layout="rail" />
          </div>
        </section>
      )}
      <section aria-labelledby="new">
        <div className="flex items-baseline justify-between">
          <h2 id="new" className="text-xl font-bold text-white">
            New this week
          </h2>
          <Link
            to="/search?sort=newest"
            className="text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            See all
          </Link>
        </div>
        <div className="mt-4">
          <ProductGrid products={loaderData.fresh} layout="rail" />
        </div>
      </section>
      <section aria-labelledby="vendors">
        <h2 id="vendors" className="text-xl font-bold text-white">
          Top vendors
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-4">
          {loaderData.vendors.map((v) => (
            <li key={v.id}>
              <VendorTile vendor={v} />
            </li>
          ))}
        </ul>
      </section>
      <section className="rounded-2xl border border-ink-700 bg-gradient-to-r from-ink-800 to-ink-900 p-6 text-center sm:p-8">
        <h2 className="text-2xl font-bold text-white">Sell your trading tools</h2>
        <p className="mt-2 text-slate-300">
          Indicators, communities, courses or apps: a fee per payment, no monthly fee.
        </p>
        <Link
          to="/vendor/login"
          className="mt-5 inline-block rounded-lg bg-brand-500 px-5 py-3 font-semibold text-ink-950"
        >
          Start selling
        </Link>
      </section>
    </div>
  );
}
