import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionEnded } from '../auth/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { fail, idle, start, succeed, type RequestState } from '../../lib/request-state.ts';
import {
  fetchReviewDetails,
  fetchReviews,
  postReview,
  scopeKey,
  type ReviewDetails,
  type ReviewPage,
  type ReviewScope,
  type SavedReview,
} from './api.ts';

export type ReviewList = ReviewPage & { key: string; productId: string | null };

/** The review group (docs/product.md#request-groups): details, update, list, reviewClicked. */
export interface ReviewState {
  details: RequestState<ReviewDetails>;
  update: RequestState<SavedReview>;
  list: RequestState<ReviewList>;
  /** The buyer asked to write or edit their review: the form opens where they are. */
  reviewClicked: boolean;
}

export const initialReviewState: ReviewState = {
  details: idle<ReviewDetails>(),
  update: idle<SavedReview>(),
  list: idle<ReviewList>(),
  reviewClicked: false,
};

/** The signed-in buyer's own review of a product and whether they may write one, else null. */
export const ownReviewDetails =
  (productId: string) =>
  (s: { auth: { isLoggedIn: boolean }; review: ReviewState }): ReviewDetails | null =>
    s.auth.isLoggedIn && s.review.details.data?.productId === productId
      ? s.review.details.data
      : null;

const listOf = (scope: ReviewScope, page: ReviewPage): ReviewList => ({
  ...page,
  key: scopeKey(scope),
  productId: scope.productId ?? null,
});

export const reviewSlice = createSlice({
  name: 'review',
  initialState: initialReviewState,
  reducers: {
    /** The page a list was server-rendered with: later pages and saves build on it. */
    listShown(s, a: PayloadAction<{ scope: ReviewScope; page: ReviewPage }>) {
      if (s.list.data?.key === scopeKey(a.payload.scope)) return;
      succeed(s.list, listOf(a.payload.scope, a.payload.page));
    },
    reviewClicked(s, a: PayloadAction<boolean>) {
      s.reviewClicked = a.payload;
      if (a.payload) s.update = idle<SavedReview>();
    },
  },
  extraReducers: (b) => {
    b.addCase(fetchReviewDetails.pending, (s, a) => {
      if (s.details.data?.productId !== a.meta.arg) s.details.data = null;
      start(s.details);
    })
      .addCase(fetchReviewDetails.fulfilled, (s, a) => succeed(s.details, a.payload))
      .addCase(fetchReviewDetails.rejected, (s, a) => fail(s.details, a.payload))
      .addCase(postReview.pending, (s) => start(s.update))
      .addCase(postReview.fulfilled, (s, a) => {
        succeed(s.update, a.payload);
        s.reviewClicked = false;
        const { review, summary } = a.payload;
        // docs/product.md#review-group: updating a review merges into review details.
        if (s.details.data?.productId === review.product.id)
          s.details.data = { ...s.details.data, review: { ...s.details.data.review, ...review } };
        else
          s.details.data = { productId: review.product.id, review, canReview: true, reason: null };
        // And into the list that shows this product: replaced where it is, else first.
        const list = s.list.data;
        if (list?.productId === review.product.id) {
          const { hidden: _hidden, ...shown } = review;
          const at = list.reviews.findIndex((r) => r.id === review.id);
          if (at >= 0) list.reviews[at] = shown;
          else list.reviews.unshift(shown);
          list.summary = summary;
        }
      })
      .addCase(postReview.rejected, (s, a) => fail(s.update, a.payload))
      .addCase(fetchReviews.pending, (s) => start(s.list))
      .addCase(fetchReviews.fulfilled, (s, a) => {
        const { cursor, ...scope } = a.meta.arg;
        const key = scopeKey(scope);
        if (!cursor || s.list.data?.key !== key) return succeed(s.list, listOf(scope, a.payload));
        const shown = s.list.data.reviews;
        const seen = new Set(shown.map((r) => r.id));
        succeed(
          s.list,
          listOf(scope, {
            ...a.payload,
            reviews: [...shown, ...a.payload.reviews.filter((r) => !seen.has(r.id))],
          }),
        );
      })
      .addCase(fetchReviews.rejected, (s, a) => fail(s.list, a.payload))
      // A buyer's own review and eligibility are theirs: nothing of it outlives the session.
      .addCase(sessionEnded, (s) => ({ ...initialReviewState, list: s.list }))
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.review));
  },
});

export const { listShown, reviewClicked } = reviewSlice.actions;
