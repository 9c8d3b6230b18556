import { useEffect } from 'react';
import type {
  BundleCard,
  BundleDetails,
  ProductCard,
  ProductDetails,
  SearchQuery,
} from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import {
  fetchBundleDetails,
  fetchProductDetails,
  fetchProductList,
  searchCatalog,
  searchKey,
  validatePrerequisite,
} from './slice.ts';

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

/**
 * The search page's counterpart: results are rendered anonymously, so a signed-in buyer's page asks
 * again with the token (the same query, cursor included) to mark what they own. Suggestions and
 * corrections come from the first answer, which the second repeats.
 */
export function useOwnedSearch<R extends { products: ProductCard[]; bundles: BundleCard[] }>(
  query: SearchQuery,
  initial: R,
): R {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const search = useAppSelector((s) => s.product.search);
  const answered = useAppSelector((s) => s.product.searchKey);
  const key = searchKey(query);
  useEffect(() => {
    if (isLoggedIn) void dispatch(searchCatalog(JSON.parse(key) as SearchQuery));
  }, [dispatch, isLoggedIn, key]);
  return isLoggedIn && answered === key && search.status === 'success' && search.data
    ? { ...initial, products: search.data.products, bundles: search.data.bundles }
    : initial;
}

/**
 * The prerequisites a buyer still lacks. Anonymous pages know only what the product requires; once
 * signed in, the server says which are missing for this buyer (docs/product.md#product-group).
 */
export function useMissingPrerequisites(product: ProductDetails) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const answer = useAppSelector((s) => s.product.prerequisite);
  const answeredFor = useAppSelector((s) => s.product.prerequisiteFor);
  const needsCheck = isLoggedIn && product.prerequisites.length > 0;
  useEffect(() => {
    if (needsCheck) void dispatch(validatePrerequisite(product.id));
  }, [dispatch, needsCheck, product.id]);
  if (needsCheck && answeredFor === product.id && answer.status === 'success' && answer.data) {
    const missing = new Set(answer.data.missing.map((m) => m.id));
    return product.prerequisites.filter((p) => missing.has(p.id));
  }
  return product.prerequisites.filter((p) => !p.purchased);
}
