// What the product page shows of reviews before its reviews section loads (ADR 070): the rating in
// the buy box, the buyer's own details, and the prompt to write a review. The section's views load
// as it nears the screen; these load with the page.
import { useEffect } from 'react';
import type { ProductCard } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchReviewDetails } from './api.ts';
import { ownReviewDetails, reviewClicked } from './slice.ts';

/**
 * Fetches the signed-in buyer's own review of the product and whether they may write one. The
 * product page calls it once; the buy box and the reviews section read the answer from the store
 * (`ownReviewDetails`).
 */
export function useFetchReviewDetails(productId: string): void {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  useEffect(() => {
    if (isLoggedIn) void dispatch(fetchReviewDetails(productId));
  }, [dispatch, isLoggedIn, productId]);
}

/** The product's rating, as of the review the buyer just saved if they did. */
export function useProductRating(productId: string, rating: ProductCard['rating']) {
  const saved = useAppSelector((s) => s.review.update.data);
  return saved?.review.product.id === productId
    ? { average: saved.summary.average, count: saved.summary.count }
    : rating;
}

/**
 * In the buy box of a product the buyer owns: straight to the review form (reviewClicked, which
 * opens it in the reviews section). `onOpen` starts loading that section if it has not loaded.
 */
export function ReviewPrompt({ productId, onOpen }: { productId: string; onOpen?: () => void }) {
  const dispatch = useAppDispatch();
  const details = useAppSelector(ownReviewDetails(productId));
  if (!details?.canReview) return null;
  return (
    <button
      type="button"
      onClick={() => {
        onOpen?.();
        dispatch(reviewClicked(true));
      }}
      className="self-start font-semibold text-brand-300 underline underline-offset-2 hover:decoration-2"
    >
      {details.review ? 'Edit your review' : 'Write a review'}
    </button>
  );
}
