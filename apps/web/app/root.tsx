import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
} from 'react-router';
import type { Route } from './+types/root';
import montserrat from '@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2?url';
import stylesheet from './app.css?url';
import { Footer } from './components/footer.tsx';
import { Header, useLogout } from './shell/header.tsx';
import { ReferralCapture } from './components/referral-capture.tsx';
import { SessionBridge } from './shell/session-bridge.tsx';
import { ToastProvider } from './components/toasts.tsx';
import {
  ProfileUpdateNotifier,
  UsernamePrompt,
  useUsernameRequired,
} from './shell/username-prompt.tsx';
import { currentConfig } from './lib/config.ts';
import { hydrate } from './lib/hydrate.ts';
import { InlineStylesheet } from './lib/inline-stylesheet.tsx';
import { jsonLdString, pageMeta, siteJsonLd } from './lib/seo.ts';
import { ServicesContext, useServices } from './lib/services.tsx';
import { makeStore } from './store.ts';

export function loader({ request }: Route.LoaderArgs) {
  // Server-side state for the hydrate action; public pages add their data here in later slices.
  return { origin: new URL(request.url).origin, state: {} as Record<string, unknown> };
}

export const meta: Route.MetaFunction = () => pageMeta('');

/**
 * Every weight is in one variable font file, fetched with the HTML rather than once the inlined CSS
 * is applied; text shows in the fallback until it lands (`font-display: swap`).
 */
export const links: Route.LinksFunction = () =>
  [montserrat].map((href) => ({
    rel: 'preload',
    href,
    as: 'font',
    type: 'font/woff2',
    crossOrigin: 'anonymous' as const,
  }));

export function Layout({ children }: { children: ReactNode }) {
  const data = useLoaderData<typeof loader>() as { origin: string } | undefined;
  const origin = data?.origin ?? '';
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#070a12" />
        <Meta />
        <Links />
        <InlineStylesheet href={stylesheet} />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href="/site.webmanifest" />
        {siteJsonLd(origin).map((d, i) => (
          <script
            key={i}
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: jsonLdString(d) }}
          />
        ))}
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Header, main and footer around a page: the same for every route and for the error pages. */
function Shell({ children }: { children: ReactNode }) {
  const { session, api } = useServices();
  const blocked = useUsernameRequired();
  const logout = useLogout(session, api);
  return (
    <>
      {/* While the username prompt shows, nothing behind it can be reached (docs/product.md#username-prompt). */}
      <div inert={blocked} className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-ink-800 focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Header session={session} api={api} />
        <main id="main" className="flex-1 px-4 py-6 sm:py-10">
          {children}
        </main>
        <Footer />
      </div>
      <SessionBridge session={session} api={api} />
      <ReferralCapture />
      <ProfileUpdateNotifier />
      {blocked && (
        <Suspense fallback={null}>
          <UsernamePrompt onLogout={logout} />
        </Suspense>
      )}
    </>
  );
}

type AppServices = ReturnType<typeof makeStore>;
let browserServices: AppServices | null = null;

/**
 * One store per page load in the browser, kept when an error page replaces the app (and back); one
 * per render on the server, where requests must not share state.
 */
function useAppServices(): AppServices {
  const [services] = useState(() => {
    if (typeof window === 'undefined') return makeStore({ baseUrl: currentConfig().apiBase });
    return (browserServices ??= makeStore({ baseUrl: currentConfig().apiBase }));
  });
  return services;
}

function Providers({ services, children }: { services: AppServices; children: ReactNode }) {
  // Scripts start after the first paint (ADR 069): the page says when it answers to clicks, for
  // tests and for anyone measuring how long that took.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <Provider store={services.store}>
      <ServicesContext.Provider value={{ api: services.api, session: services.session }}>
        <ToastProvider>
          <Shell>{children}</Shell>
        </ToastProvider>
      </ServicesContext.Provider>
    </Provider>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const services = useAppServices();
  useEffect(() => {
    services.store.dispatch(hydrate(loaderData.state));
  }, [services, loaderData.state]);
  return (
    <Providers services={services}>
      <Outlet />
    </Providers>
  );
}

/** Errors, 404s included, render inside the normal header and footer, with their own status. */
export function ErrorBoundary() {
  const error = useRouteError();
  const services = useAppServices();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Providers services={services}>
      <div className="mx-auto max-w-xl py-16 text-center sm:py-24">
        <title>
          {notFound ? 'Page not found · Tradeshelf' : 'Something went wrong · Tradeshelf'}
        </title>
        <meta name="robots" content="noindex" />
        <h1 className="text-3xl font-bold text-white">
          {notFound ? 'Page not found' : 'Something went wrong'}
        </h1>
        <p className="mt-3 text-slate-400">
          {notFound
            ? 'The page you asked for does not exist or has moved.'
            : 'Please reload the page. If it keeps happening, contact support.'}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a
            href="/"
            className="inline-block rounded-lg bg-brand-500 px-4 py-2.5 font-semibold text-ink-950"
          >
            Back to the marketplace
          </a>
          <a
            href="/contact"
            className="inline-block rounded-lg border border-ink-600 px-4 py-2.5 font-semibold text-slate-200 hover:bg-ink-800"
          >
            Contact support
          </a>
        </div>
      </div>
    </Providers>
  );
}
