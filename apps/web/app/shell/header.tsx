import { lazy, Suspense, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { endpoints } from '@tradeshelf/contract/client';
import { reset } from '../features/auth/slice.ts';
import { clearUser } from '../features/users/slice.ts';
import { clearVendorCookies } from '../lib/cookies.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import type { ApiClient } from '../lib/http.ts';
import type { SessionStore } from '../lib/session.ts';

const MemberNav = lazy(() => import('./member-nav.tsx'));

/** Ends the session here and revokes its refresh token on the server (best effort). */
export function useLogout(session: SessionStore, api: ApiClient) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return () => {
    const record = session.peek();
    if (record)
      void api
        .call(endpoints.logout, { body: { refresh_token: record.refreshToken } })
        .catch(() => undefined);
    session.clear();
    clearVendorCookies();
    dispatch(reset());
    dispatch(clearUser());
    void navigate('/');
  };
}

function SearchIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5">
      <circle cx="8.5" cy="8.5" r="5.75" stroke="currentColor" strokeWidth="2" />
      <path d="m13 13 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

const searchPlaceholder = 'Search indicators, scanners, communities…';
const searchInput =
  'w-full rounded-lg border border-ink-700 bg-ink-900 px-3 py-2 text-sm placeholder:text-slate-400';

/**
 * Phones: a search button that opens the search box under the header (a native disclosure, so it
 * works before the page's script runs and with the keyboard); Escape closes it again.
 */
function PhoneSearch() {
  const details = useRef<HTMLDetailsElement>(null);
  const input = useRef<HTMLInputElement>(null);
  return (
    <details
      ref={details}
      className="sm:hidden"
      onToggle={(e) => {
        if (e.currentTarget.open) input.current?.focus();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !details.current?.open) return;
        details.current.open = false;
        details.current.querySelector('summary')?.focus();
      }}
    >
      <summary className="flex h-9 w-9 cursor-pointer list-none items-center justify-center rounded-lg text-slate-200 hover:bg-ink-800 [&::-webkit-details-marker]:hidden">
        <SearchIcon />
        <span className="sr-only">Search</span>
      </summary>
      <form
        action="/search"
        method="get"
        role="search"
        className="absolute inset-x-0 top-full z-20 flex gap-2 border-b border-ink-800 bg-ink-950 px-4 py-3"
      >
        <label htmlFor="header-q-phone" className="sr-only">
          Search Tradeshelf
        </label>
        <input
          ref={input}
          id="header-q-phone"
          name="q"
          type="search"
          enterKeyHint="search"
          placeholder={searchPlaceholder}
          className={searchInput}
        />
        <button
          type="submit"
          className="rounded-lg bg-brand-500 px-3 py-2 text-sm font-semibold text-ink-950"
        >
          Search
        </button>
      </form>
    </details>
  );
}

export function Header({ session, api }: { session: SessionStore; api: ApiClient }) {
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const checked = useAppSelector((s) => s.auth.sessionChecked);
  const signingIn = useAppSelector((s) => s.auth.signingIn);
  const profile = useAppSelector((s) => s.user.profile.data);
  const isVendor = profile?.roles.includes('vendor') ?? false;
  const logout = useLogout(session, api);
  return (
    <header className="relative z-40 border-b border-ink-800 bg-ink-950/90 backdrop-blur print:hidden">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3 sm:gap-4"
      >
        <Link to="/" className="text-base font-extrabold tracking-tight text-white sm:text-lg">
          Trade<span className="text-brand-400">shelf</span>
        </Link>
        <form
          action="/search"
          method="get"
          role="search"
          className="hidden flex-1 sm:block sm:max-w-sm"
        >
          <label htmlFor="header-q" className="sr-only">
            Search
          </label>
          <input
            id="header-q"
            name="q"
            type="search"
            placeholder={searchPlaceholder}
            className={searchInput}
          />
        </form>
        <div
          className="ml-auto flex items-center gap-1 text-sm whitespace-nowrap max-[359px]:gap-0 sm:ml-0 sm:gap-2"
          aria-busy={!checked}
        >
          <PhoneSearch />
          {isLoggedIn ? (
            // Signed-in links load with a session: a first visit from search does not pay for them.
            <Suspense fallback={<span aria-hidden className="h-8 w-24" />}>
              <MemberNav isVendor={isVendor} profile={profile} onLogout={logout} />
            </Suspense>
          ) : signingIn ? (
            // A login answered and its session is being stored (docs/product.md#sessions: the delay): shown as done.
            <span
              role="status"
              className="flex items-center gap-2 rounded-lg px-2 py-2 font-medium text-brand-200 sm:px-3"
            >
              <span aria-hidden className="h-2 w-2 animate-pulse rounded-full bg-brand-400" />
              Signing you in…
              <span className="sr-only"> as {signingIn}</span>
            </span>
          ) : (
            <>
              <Link
                to="/login"
                className="rounded-lg px-2 py-2 font-medium text-slate-200 hover:bg-ink-800 sm:px-3"
              >
                Log in
              </Link>
              <Link
                to="/signup"
                className="rounded-lg bg-brand-500 px-3 py-2 font-semibold text-ink-950 hover:bg-brand-400"
              >
                Sign up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
