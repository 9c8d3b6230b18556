import { useCallback, useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchAffiliateVendors, fetchInvites, fetchReferrals } from './api.ts';
// Registers the slice this file reads (ADR 038).
import './slice.ts';

/** Loads the dashboard's three reads once the page shows; `reload` fetches them again. */
export function useAffiliateDashboard() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.affiliate);
  const reload = useCallback(() => {
    void dispatch(fetchReferrals());
    void dispatch(fetchAffiliateVendors());
    void dispatch(fetchInvites());
  }, [dispatch]);
  useEffect(reload, [reload]);
  return { ...state, reload };
}

/** Copies text to the clipboard; `copied` names what was copied last, for a moment. */
export function useCopy() {
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = useCallback(async (key: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(key);
      return true;
    } catch {
      return false;
    }
  }, []);
  return { copied, copy };
}
