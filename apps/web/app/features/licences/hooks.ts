import { useCallback, useEffect, useState, type RefObject } from 'react';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchApps } from './api.ts';

/** The buyer's licences (user.apps, docs/product.md#request-groups), read when the page opens. */
export function useApps() {
  const dispatch = useAppDispatch();
  const apps = useAppSelector((s) => s.user.apps);
  useEffect(() => {
    void dispatch(fetchApps());
  }, [dispatch]);
  const reload = useCallback(() => void dispatch(fetchApps()), [dispatch]);
  return { apps, reload };
}

/** How long "Copied" stays on screen. */
export const COPIED_FOR_MS = 4000;

/**
 * `copied`: on the clipboard. `manual`: the browser refused the clipboard (no permission, an
 * insecure page, an old browser), so the text is selected in its field for the buyer to copy.
 */
export type CopyState = 'idle' | 'copied' | 'manual';

/** Copies a read-only field's text to the clipboard, or selects it when the clipboard says no. */
export function useCopyField(field: RefObject<HTMLInputElement | null>) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = useCallback(async () => {
    const input = field.current;
    if (!input) return;
    try {
      if (!navigator.clipboard?.writeText) throw new Error('No clipboard');
      await navigator.clipboard.writeText(input.value);
      setState('copied');
    } catch {
      input.focus();
      input.select();
      setState('manual');
    }
  }, [field]);
  return { state, copy };
}
