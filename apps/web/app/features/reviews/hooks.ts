import { useCallback, useEffect, useState } from 'react';
import type { ReviewSort } from '@tradeshelf/contract/client';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchReviews, scopeKey, type ReviewPage } from './api.ts';
import { listShown } from './slice.ts';

/**
 * A list of reviews: the server-rendered page first, then the store's once it holds this list
 * (later pages, another sort, a review just saved). Render it with a `key` per product or vendor:
 * the sort and the page on screen belong to one list.
 */
export function useReviewList(
  where: { vendorUrl: string; productId?: string },
  initial: ReviewPage,
  initialSort: ReviewSort,
) {
  const dispatch = useAppDispatch();
  const list = useAppSelector((s) => s.review.list);
  const [sort, setSort] = useState(initialSort);
  const { vendorUrl, productId } = where;
  const key = scopeKey({ vendorUrl, sort, ...(productId ? { productId } : {}) });

  useEffect(() => {
    const scope = { vendorUrl, sort: initialSort, ...(productId ? { productId } : {}) };
    dispatch(listShown({ scope, page: initial }));
  }, [dispatch, vendorUrl, productId, initialSort, initial]);

  // This list in any sort: while another sort loads, the one on screen stays (marked busy).
  const same = list.data?.key.startsWith(key.slice(0, key.lastIndexOf('|') + 1)) ? list.data : null;
  const page: ReviewPage = same ?? initial;

  const changeSort = useCallback(
    (next: ReviewSort) => {
      setSort(next);
      void dispatch(fetchReviews({ vendorUrl, sort: next, ...(productId ? { productId } : {}) }));
    },
    [dispatch, vendorUrl, productId],
  );
  const more = useCallback(() => {
    if (!page.nextCursor) return;
    void dispatch(
      fetchReviews({
        vendorUrl,
        sort,
        cursor: page.nextCursor,
        ...(productId ? { productId } : {}),
      }),
    );
  }, [dispatch, vendorUrl, productId, sort, page.nextCursor]);

  return {
    page,
    sort,
    changeSort,
    more,
    loading: list.status === 'loading',
    error: list.status === 'failure' ? list.error : null,
  };
}
