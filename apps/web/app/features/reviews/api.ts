import { endpoints, type ReviewSort } from '@tradeshelf/contract/client';
import type { OwnReview, PostReviewBody, Review, ReviewSummary } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

/** The buyer's own review of a product and whether they may write or edit one. */
export interface ReviewDetails {
  productId: string;
  review: OwnReview | null;
  canReview: boolean;
  reason: string | null;
}

/** Whose reviews a list shows: a storefront's, or one product's on it. */
export interface ReviewScope {
  vendorUrl: string;
  productId?: string;
  sort: ReviewSort;
}

export interface ReviewPage {
  reviews: Review[];
  summary: ReviewSummary;
  nextCursor: string | null;
}

/** A list's identity: a page answered for another scope or sort is not this list's. */
export const scopeKey = (s: ReviewScope) => `${s.vendorUrl}|${s.productId ?? ''}|${s.sort}`;

export const REVIEWS_PAGE = 5;

export const fetchReviewDetails = requestThunk<string, ReviewDetails>(
  'review/details',
  async (productId, { api }) => ({
    productId,
    ...(await api.call(endpoints.getReview, { query: { product: productId } })),
  }),
);

export interface SavedReview {
  review: OwnReview;
  /** The product's summary after the save. */
  summary: ReviewSummary;
}

/** Creates or edits the buyer's review. */
export const postReview = requestThunk<PostReviewBody, SavedReview>(
  'review/update',
  (body, { api }) => api.call(endpoints.postReview, { body }),
);

/** One page of a list; with a cursor, the next page of the list shown. */
export const fetchReviews = requestThunk<ReviewScope & { cursor?: string }, ReviewPage>(
  'review/list',
  ({ vendorUrl, productId, sort, cursor }, { api }) =>
    api.call(endpoints.allReviews, {
      query: {
        vendorUrl,
        sort,
        limit: REVIEWS_PAGE,
        ...(productId ? { productId } : {}),
        ...(cursor ? { cursor } : {}),
      },
    }),
);
