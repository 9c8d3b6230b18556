import { useCallback, useEffect, useState } from 'react';
import { validateTradingViewUsername } from '@tradeshelf/contract/client';
import type { ApiError, TradingViewAccessResponse } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { poll } from '../../lib/poll.ts';
import { fetchTradingViewAccess, saveTradingViewUsername } from './api.ts';
import { saveReset } from './slice.ts';

/** While a vendor has yet to add the buyer, the library asks again this often… */
export const TRADINGVIEW_POLL_INTERVAL_MS = 5000;
/** …for this long (vendors add people by hand; the page shows it whenever it is opened again). */
export const TRADINGVIEW_POLL_TIMEOUT_MS = 5 * 60_000;

const waiting = (data: TradingViewAccessResponse | null) =>
  (data?.access ?? []).some((i) => i.status === 'waiting');

/** The buyer's TradingView access: read when the page opens, then polled while any is waiting. */
export function useTradingViewAccess() {
  const dispatch = useAppDispatch();
  const access = useAppSelector((s) => s.tradingview.access);
  const isWaiting = waiting(access.data);
  useEffect(() => {
    void dispatch(fetchTradingViewAccess());
  }, [dispatch]);
  useEffect(() => {
    if (!isWaiting) return;
    return poll({
      check: async () => {
        const result = await dispatch(fetchTradingViewAccess());
        if (!fetchTradingViewAccess.fulfilled.match(result)) return 'pending';
        return waiting(result.payload) ? 'pending' : 'done';
      },
      onTimeout: () => undefined,
      interval: TRADINGVIEW_POLL_INTERVAL_MS,
      timeout: TRADINGVIEW_POLL_TIMEOUT_MS,
      immediate: false,
    });
  }, [dispatch, isWaiting]);
  const reload = useCallback(() => void dispatch(fetchTradingViewAccess()), [dispatch]);
  return { access, reload };
}

/** What the form shows for a failed save: the field's own words, else the error's. */
export const saveProblem = (error: ApiError | null) =>
  error?.fields?.username ?? error?.error ?? null;

/**
 * The username form: the contract's rule checks it before it is sent; the server's answer (its
 * words for the field) shows under the input. `onSaved` runs after a save.
 */
export function useUsernameForm(initial: string | null, onSaved?: () => void) {
  const dispatch = useAppDispatch();
  const save = useAppSelector((s) => s.tradingview.save);
  const [value, setValueState] = useState(initial ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const setValue = (v: string) => {
    setValueState(v);
    setProblem(null);
    if (save.status === 'failure') dispatch(saveReset());
  };
  const submit = async () => {
    const wrong = validateTradingViewUsername(value);
    if (wrong) return setProblem(wrong);
    const result = await dispatch(saveTradingViewUsername(value));
    if (saveTradingViewUsername.fulfilled.match(result)) onSaved?.();
  };
  return {
    value,
    setValue,
    submit,
    saving: save.status === 'loading',
    error: problem ?? (save.status === 'failure' ? saveProblem(save.error) : null),
  };
}
