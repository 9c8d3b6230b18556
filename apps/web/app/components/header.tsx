import { Link, useNavigate } from 'react-router';
import { endpoints } from '@tradeshelf/contract/client';
import { reset } from '../features/auth/slice.ts';
import { clearUser } from '../features/user/slice.ts';
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

export function Header({ session, api }: { session: SessionStore; api: ApiClient }) {
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const checked = useAppSelector((s) => s.auth.sessionChecked);
  const profile = useAppSelector((s) => s.user.profile.data);
  const logout = useLogout(session, api);
  return (
    <header className="border-b border-ink-800 bg-ink-950/90 backdrop-blur print:hidden">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3"
      >
        <Link to="/" className="text-lg font-extrabold tracking-tight text-white">
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
            placeholder="Search indicators, scanners, communities…"
            className="w-full rounded-lg border border-ink-700 bg-ink-900 px-3 py-2 text-sm placeholder:text-slate-400"
          />
        </form>
        <div
          className="flex items-center gap-1 text-sm whitespace-nowrap sm:gap-2"
          aria-busy={!checked}
        >
          {isLoggedIn ? (
            <>
              <Link
                to="/orders"
                className="rounded-lg px-2 py-2 font-medium text-slate-200 hover:bg-ink-800 sm:px-3"
              >
                Orders
              </Link>
              <Link
                to="/account"
                className="rounded-lg px-2 py-2 font-medium text-slate-200 hover:bg-ink-800 sm:px-3"
              >
                <span className="inline-block max-w-[7rem] truncate align-bottom sm:max-w-none">
                  {profile?.username || 'Account'}
                </span>
              </Link>
              <button
                type="button"
                onClick={logout}
                className="rounded-lg border border-ink-600 px-2 py-2 font-medium hover:bg-ink-800 sm:px-3"
              >
                Log out
              </button>
            </>
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
