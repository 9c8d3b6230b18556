import '@fontsource/montserrat/400.css';
import '@fontsource/montserrat/500.css';
import '@fontsource/montserrat/600.css';
import '@fontsource/montserrat/700.css';
import '@fontsource/montserrat/800.css';
import { useEffect, useState, type ReactNode } from 'react';
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
import './app.css';
import { Header, useLogout } from './components/header.tsx';
import { ReferralCapture } from './components/referral-capture.tsx';
import { SessionBridge } from './components/session-bridge.tsx';
import { ToastProvider } from './components/toasts.tsx';
import {
  ProfileUpdateNotifier,
  UsernamePrompt,
  useUsernameRequired,
} from './components/username-prompt.tsx';
import { currentConfig } from './lib/config.ts';
import { hydrate } from './lib/hydrate.ts';
import { jsonLdString, pageMeta, siteJsonLd } from './lib/seo.ts';
import { ServicesContext, useServices } from './lib/services.tsx';
import { makeStore } from './store.ts';

export function loader({ request }: Route.LoaderArgs) {
  // Server-side state for the hydrate action; public pages add their data here in later slices.
  return { origin: new URL(request.url).origin, state: {} as Record<string, unknown> };
}

export const meta: Route.MetaFunction = () => pageMeta('');

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

function Shell() {
  const { session, api } = useServices();
  const blocked = useUsernameRequired();
  const logout = useLogout(session, api);
  return (
    <>
      {/* While the username prompt shows, nothing behind it can be reached (SPEC §6). */}
      <div inert={blocked} className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-ink-800 focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Header session={session} api={api} />
        <main id="main" className="flex-1 px-4 py-10">
          <Outlet />
        </main>
        <footer className="border-t border-ink-800 px-4 py-6 text-center text-xs text-slate-400 print:hidden">
          © {new Date().getFullYear()} Tradeshelf. Trading involves risk; tools do not guarantee
          profits.
        </footer>
      </div>
      <SessionBridge session={session} api={api} />
      <ReferralCapture />
      <ProfileUpdateNotifier />
      {blocked && <UsernamePrompt onLogout={logout} />}
    </>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const [services] = useState(() => makeStore({ baseUrl: currentConfig().apiBase }));
  useEffect(() => {
    services.store.dispatch(hydrate(loaderData.state));
  }, [services, loaderData.state]);
  return (
    <Provider store={services.store}>
      <ServicesContext.Provider value={{ api: services.api, session: services.session }}>
        <ToastProvider>
          <Shell />
        </ToastProvider>
      </ServicesContext.Provider>
    </Provider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <title>
        {notFound ? 'Page not found · Tradeshelf' : 'Something went wrong · Tradeshelf'}
      </title>
      <h1 className="text-3xl font-bold text-white">
        {notFound ? 'Page not found' : 'Something went wrong'}
      </h1>
      <p className="mt-3 text-slate-400">
        {notFound
          ? 'The page you asked for does not exist or has moved.'
          : 'Please reload the page. If it keeps happening, contact support.'}
      </p>
      <a
        href="/"
        className="mt-8 inline-block rounded-lg bg-brand-500 px-4 py-2.5 font-semibold text-ink-950"
      >
        Back to the marketplace
      </a>
    </main>
  );
}
