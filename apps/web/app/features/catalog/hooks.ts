import { useEffect } from 'react';
import type { BundleCard, BundleDetails, ProductCard, ProductDetails } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchBundleDetails, fetchProductDetails, fetchProductList } from './slice.ts';

/**
 * Server-rendered pages are anonymous (the session lives in the browser), so once a buyer is known the
 * page re-reads its data with the bearer token to show what they already own.
 */
export function useOwnedDetails(initial: ProductDetails): ProductDetails {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const details = useAppSelector((s) => s.product.details);
  useEffect(() => {
    if (isLoggedIn) void dispatch(fetchProductDetails(initial.id));
  }, [dispatch, isLoggedIn, initial.id]);
  return isLoggedIn && details.status === 'success' && details.data?.id === initial.id
    ? details.data
    : initial;
}

/** The bundle page's counterpart of `useOwnedDetails`. */
export function useOwnedBundle(initial: BundleDetails): BundleDetails {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const details = useAppSelector((s) => s.product.bundleDetails);
  useEffect(() => {
    if (isLoggedIn) void dispatch(fetchBundleDetails(initial.id));
  }, [dispatch, isLoggedIn, initial.id]);
  return isLoggedIn && details.status === 'success' && details.data?.id === initial.id
    ? details.data
    : initial;
}

export function useOwnedList(
  vendorId: string,
  vendorUrl: string,
  initial: { products: ProductCard[]; bundles: BundleCard[] },
) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const products = useAppSelector((s) => s.product.productList);
  const bundles = useAppSelector((s) => s.product.bundleList);
  useEffect(() => {
    if (isLoggedIn) void dispatch(fetchProductList(vendorUrl));
  }, [dispatch, isLoggedIn, vendorUrl]);
  const fresh =
    isLoggedIn && products.status === 'success' && products.data?.[0]?.vendor.id === vendorId;
  return fresh ? { products: products.data ?? [], bundles: bundles.data ?? [] } : initial;
}
