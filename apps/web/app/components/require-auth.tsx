import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../lib/hooks.ts';
import { Spinner } from './ui.tsx';

/** Signed-in pages render on the client; signed-out visitors go to the login page and come back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoggedIn, sessionChecked } = useAppSelector((s) => s.auth);
  const navigate = useNavigate();
  const location = useLocation();
  // The query comes back too: a Discord return (code, state) or a checkout's session id.
  useEffect(() => {
    if (sessionChecked && !isLoggedIn)
      void navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, {
        replace: true,
      });
  }, [sessionChecked, isLoggedIn, navigate, location.pathname, location.search]);
  if (!sessionChecked || !isLoggedIn) {
    return (
      <div className="flex justify-center py-20 text-slate-400" aria-busy="true">
        <Spinner />
        <span className="sr-only">Loading your account…</span>
      </div>
    );
  }
  return <>{children}</>;
}
