import { UserAvatar } from '../components/avatar.tsx';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { endpoints } from '@tradeshelf/contract/client';
import { AFFILIATE_PATH } from '../features/affiliates/index.ts';
import { VENDOR_HOME_PATH } from '../features/workspace/nav.ts';
import { reset } from '../features/auth/slice.ts';
import { clearUser } from '../features/users/slice.ts';
import { clearVendorCookies } from '../lib/cookies.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import type { ApiClient } from '../lib/http.ts';
import type { SessionStore } from '../lib/session.ts';

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

function OrdersIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M5 2.75h10v14.5l-2.5-1.5-2.5 1.5-2.5-1.5-2.5 1.5V2.75Z"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
      />
      <path
        d="M7.5 7h5M7.5 10.5h5"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
      />
    </svg>
  );
}

function LibraryIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M3.5 3v14M7.5 3v14M11 3.75l3.75 13"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
      />
    </svg>
  );
}

function WorkspaceIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M3.5 8.25 4.75 3.5h10.5l1.25 4.75M3.5 8.25h13M3.5 8.25V16.5h13V8.25M8 16.5v-4.25h4v4.25"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function LogoutIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M8 3.5H4.75v13H8M12.5 6.5 16 10l-3.5 3.5M16 10H8"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
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
            <>
              {/* Phones: icons with their names for assistive tech, so the row fits 360 px (320 px: tighter). */}
              <Link
                to="/library"
                title="Library"
                className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
              >
                <LibraryIcon />
                <span className="max-sm:sr-only">Library</span>
              </Link>
              {isVendor && (
                // Vendors reach their workspace from every page, phones included (issue 27).
                <Link
                  to={VENDOR_HOME_PATH}
                  title="Vendor workspace"
                  data-testid="header-workspace"
                  className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
                >
                  <WorkspaceIcon />
                  <span className="max-sm:sr-only">Workspace</span>
                </Link>
              )}
              <Link
                to="/orders"
                title="Orders"
                className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
              >
                <OrdersIcon />
                <span className="max-sm:sr-only">Orders</span>
              </Link>
              <Link
                to="/courses"
                title="Courses"
                className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 sm:flex sm:px-3"
              >
                Courses
              </Link>
              {/* Wide screens only: below, the row would squeeze the search box (the library links here). */}
              <Link
                to="/apps"
                title="Apps and licences"
                className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 sm:px-3 lg:flex"
              >
                Apps
              </Link>
              <Link
                to={AFFILIATE_PATH}
                title="Affiliate"
                className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 lg:flex lg:px-3"
              >
                Affiliate
              </Link>
              <Link
                to="/account"
                className="flex items-center gap-2 rounded-lg px-2 py-1.5 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:px-1 sm:px-3"
                data-testid="header-account"
              >
                {profile ? (
                  <UserAvatar user={profile} size={32} />
                ) : (
                  <span aria-hidden="true" className="h-8 w-8 rounded-full bg-ink-800 sm:hidden" />
                )}
                {/* Phones show the picture alone (named for assistive tech), so the row fits 320 px;
                    its place is kept while the profile loads. */}
                <span className="truncate align-bottom max-sm:sr-only sm:inline-block sm:max-w-none">
                  {profile?.username || 'Account'}
                </span>
              </Link>
              <button
                type="button"
                onClick={logout}
                title="Log out"
                className="flex items-center rounded-lg border border-ink-600 p-2 font-medium hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
              >
                <LogoutIcon />
                <span className="max-sm:sr-only">Log out</span>
              </button>
            </>
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
