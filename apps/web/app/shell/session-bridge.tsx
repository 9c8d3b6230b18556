import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { sessionEnded, sessionStarted } from '../features/auth/slice.ts';
import { fetchProfile } from '../features/users/api.ts';
import { browserAnalytics, type Analytics } from '../lib/analytics.ts';
import { currentConfig } from '../lib/config.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import type { ApiClient } from '../lib/http.ts';
import type { SessionStore } from '../lib/session.ts';

/** Connects the stored session, the profile fetch and analytics to the store. Client only. */
export function SessionBridge({ session, api }: { session: SessionStore; api: ApiClient }) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const sessionUserId = useAppSelector((s) => s.auth.userId);
  const userId = useAppSelector((s) => s.auth.userId ?? s.user.profile.data?.id ?? null);
  const location = useLocation();
  const analytics = useRef<Analytics | null>(null);

  // App start: a stored session counts only while valid; current() refreshes or clears it. Later
  // changes (login after its delay, logout, failed refresh) reach the store through makeStore.
  useEffect(() => {
    void session
      .current()
      .then((record) => dispatch(record ? sessionStarted(record.userId) : sessionEnded()));
  }, [dispatch, session]);

  // docs/product.md#username-prompt: the profile is fetched whenever a token is present: on start and after each login.
  useEffect(() => {
    if (isLoggedIn) void dispatch(fetchProfile());
  }, [dispatch, isLoggedIn, sessionUserId]);

  useEffect(() => {
    analytics.current ??= browserAnalytics(api, currentConfig().apiBase);
  }, [api]);
  useEffect(() => {
    analytics.current?.pageView(
      location.pathname + location.search,
      document.title,
      document.referrer,
    );
  }, [location.pathname, location.search]);
  useEffect(() => {
    if (userId) analytics.current?.identify(userId);
  }, [userId]);

  return null;
}
