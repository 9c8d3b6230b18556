// The product page's TradingView step, loaded only for a product that delivers invite-only scripts
// (step.tsx, ADR 070): nothing imports it but that loader.
import { useCallback, useEffect, useState, type RefObject } from 'react';
import {
  normaliseTradingViewUsername,
  validateTradingViewUsername,
} from '@tradeshelf/contract/client';
import type { TradingViewScript } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchTradingViewAccount, saveTradingViewUsername } from './api.ts';
import { ScriptList, UsernameField, USERNAME_HINT } from './checkout.tsx';
import { saveProblem } from './hooks.ts';
// Registers the slice this file reads (ADR 038).
import './slice.ts';

/** Runs when the buyer clicks buy; false stops the purchase (the step shows why). */
export type BeforeBuy = () => Promise<boolean>;

/**
 * The product page's TradingView step, for a product that delivers scripts (step.tsx loads it): the
 * list and (signed in) the username field. The `beforeBuy` it binds saves a new name before
 * checkout starts and answers false (with the words shown) when it is not valid; an empty field buys
 * as it is (the library asks later).
 */
export function TradingViewCheckoutStep({
  scripts,
  beforeBuyRef,
}: {
  scripts: TradingViewScript[];
  beforeBuyRef: RefObject<BeforeBuy | null>;
}) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const account = useAppSelector((s) => s.tradingview.account);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (isLoggedIn && account.status === 'idle') void dispatch(fetchTradingViewAccount());
  }, [dispatch, isLoggedIn, account.status]);

  const saved = account.data?.username ?? null;
  const value = draft ?? saved ?? '';
  const beforeBuy = useCallback(async (): Promise<boolean> => {
    if (!isLoggedIn) return true;
    const typed = value.trim();
    if (!typed || normaliseTradingViewUsername(typed) === saved) return true;
    const wrong = validateTradingViewUsername(typed);
    if (wrong) {
      setError(wrong);
      return false;
    }
    const result = await dispatch(saveTradingViewUsername(typed));
    if (saveTradingViewUsername.fulfilled.match(result)) {
      setDraft(null);
      return true;
    }
    setError(saveProblem(result.payload ?? null) ?? 'We could not save your TradingView username.');
    return false;
  }, [isLoggedIn, value, saved, dispatch]);
  useEffect(() => {
    beforeBuyRef.current = beforeBuy;
    return () => {
      if (beforeBuyRef.current === beforeBuy) beforeBuyRef.current = null;
    };
  }, [beforeBuyRef, beforeBuy]);

  const n = scripts.length;
  return (
    <div
      data-testid="tradingview-checkout"
      className="flex flex-col gap-2 rounded-lg border border-ink-600 bg-ink-800 p-3"
    >
      <p className="text-sm text-slate-200">
        {n === 1
          ? 'Delivers an invite-only TradingView script:'
          : `Delivers ${n} invite-only TradingView scripts:`}
      </p>
      <ScriptList scripts={scripts} />
      {isLoggedIn && (
        <UsernameField
          label="TradingView username (optional)"
          form={{
            value,
            setValue: (v: string) => {
              setDraft(v);
              setError(null);
            },
            error,
          }}
          hint={`${USERNAME_HINT} The vendor adds it to the scripts; you can also add or change it later in your library.`}
        />
      )}
    </div>
  );
}
