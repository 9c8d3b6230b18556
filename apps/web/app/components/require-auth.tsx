import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../lib/hooks.ts';
import { Spinner } from './ui.tsx';

/** Signed-in pages render on the client; signed-out visitors go to the login page and come back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoggedIn, sessionChecked } = useAppSelector((s) => s.auth);
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    if (sessionChecked && !isLoggedIn)
      void navigate(`/login?next=${encodeURIComponent(location.pathname)}`, { replace: true });
  }, [sessionChecked, isLoggedIn, navigate, location.pathname]);
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
