import { useCallback, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { authorizeDiscord, fetchUserDiscord } from './api.ts';
import { authorizeReset } from './slice.ts';

/**
 * Starts linking a Discord account: asks the API for Discord's authorise page and sends the
 * browser there (it comes back on /discord-auth-callback). `leaving` stays true once the URL is
 * known, while the browser goes.
 */
export function useConnectDiscord() {
  const dispatch = useAppDispatch();
  const authorize = useAppSelector((s) => s.discord.authorize);
  // Back from Discord's page restores this one as it was left (busy): make it usable again.
  useEffect(() => {
    const restored = (e: PageTransitionEvent) => {
      if (e.persisted) dispatch(authorizeReset());
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [dispatch]);
  const connect = useCallback(
    (vendorUrl?: string) => void dispatch(authorizeDiscord(vendorUrl ? { vendorUrl } : undefined)),
    [dispatch],
  );
  return {
    connect,
    leaving: authorize.status === 'loading' || authorize.status === 'success',
    error: authorize.status === 'failure' ? authorize.error : null,
  };
}

/** The signed-in user's linked Discord account (user.discord, docs/product.md#request-groups), read once per sign-in. */
export function useDiscordLink() {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const link = useAppSelector((s) => s.user.discord);
  useEffect(() => {
    if (isLoggedIn && link.status === 'idle') void dispatch(fetchUserDiscord());
  }, [dispatch, isLoggedIn, link.status]);
  const reload = useCallback(() => void dispatch(fetchUserDiscord()), [dispatch]);
  return { link, reload };
}
