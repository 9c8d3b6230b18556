// The product page's TradingView step, as the page needs it before it knows whether the product
// delivers invite-only scripts: the list, fetched once. The username field and its checks
// (checkout-step.tsx) load only for a product whose list is not empty (ADR 070).
import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import type { TradingViewScript } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchProductScripts } from './api.ts';
import type { BeforeBuy } from './checkout-step.tsx';
// Registers the slice this file reads (ADR 038).
import './slice.ts';

const CheckoutStep = lazy(() =>
  import('./checkout-step.tsx').then((m) => ({ default: m.TradingViewCheckoutStep })),
);

const none: TradingViewScript[] = [];

/**
 * For the buy box: `field` (nothing unless the product delivers scripts) and `beforeBuy`, which
 * saves a username typed there before checkout starts. `enabled` is false for products not on
 * TradingView, or not for sale to this buyer.
 */
export function useTradingViewStep(productId: string, enabled: boolean) {
  const dispatch = useAppDispatch();
  const scripts = useAppSelector((s) => s.tradingview.scripts);
  useEffect(() => {
    if (enabled) void dispatch(fetchProductScripts(productId));
  }, [dispatch, enabled, productId]);
  const list = enabled && scripts.productId === productId ? (scripts.data ?? none) : none;
  // Until the step has loaded there is no username to save: the purchase goes on as it is.
  const bound = useRef<BeforeBuy | null>(null);
  const beforeBuy = useCallback(() => bound.current?.() ?? Promise.resolve(true), []);
  const field =
    list.length > 0 ? (
      <Suspense fallback={null}>
        <CheckoutStep scripts={list} beforeBuyRef={bound} />
      </Suspense>
    ) : null;
  return { field, beforeBuy };
}
