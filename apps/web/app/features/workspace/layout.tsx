import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { RequireAuth } from '../../components/require-auth.tsx';
import { useToast } from '../../components/toasts.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { addVendorRole } from '../users/index.ts';
import { vendorNav } from './nav.ts';
import { Loading } from '../../components/screen.tsx';

/** Asks a signed-in buyer to become a vendor before the workspace shows. */
function BecomeVendor() {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const state = useAppSelector((s) => s.user.addVendorRole);
  const become = async () => {
    const result = await dispatch(addVendorRole());
    if (addVendorRole.fulfilled.match(result))
      toast('You are now a vendor. Set up your storefront.');
  };
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">Sell on Tradeshelf</h1>
      <p className="text-sm text-slate-300">
        Your vendor workspace is where you list products, set up delivery, and see your sales and
        payouts. Becoming a vendor is free; you pay a fee only when you sell.
      </p>
      {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
      <Button
        type="button"
        className="self-start"
        loading={state.status === 'loading'}
        onClick={() => void become()}
      >
        Become a vendor
      </Button>
    </section>
  );
}

function Workspace({ children }: { children: ReactNode }) {
  const profile = useAppSelector((s) => s.user.profile);
  if (profile.status === 'failure')
    return <Alert>{profile.error?.error ?? 'We could not load your account.'}</Alert>;
  if (!profile.data) return <Loading label="Loading your workspace…" />;
  if (!profile.data.roles.includes('vendor')) return <BecomeVendor />;
  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label="Vendor workspace" className="lg:w-48 lg:shrink-0">
        <ul className="flex gap-1 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible">
          {vendorNav.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={'end' in item}
                className={({ isActive }) =>
                  `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${
                    isActive
                      ? 'bg-ink-800 text-white'
                      : 'text-slate-400 hover:bg-ink-900 hover:text-white'
                  }`
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

/** The `/vendor/...` area: signed in, a vendor, with the workspace's navigation around each page. */
export function VendorLayout({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <Workspace>{children}</Workspace>
    </RequireAuth>
  );
}
