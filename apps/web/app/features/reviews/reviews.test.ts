import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { hydrate } from '../../lib/hydrate.ts';
import { fetchReviewDetails, fetchReviews, postReview } from './api.ts';
import {
  initialReviewState,
  listShown,
  reviewClicked,
  reviewSlice,
  type ReviewState,
} from './slice.ts';
import { own, page, PRODUCT, review, summary } from './test-fixtures.ts';

const reduce = (s: ReviewState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => reviewSlice.reducer(x, a), s);

const scope = { vendorUrl: 'alpha-edge', productId: PRODUCT.id, sort: 'newest' as const };
const body = { productId: PRODUCT.id, rating: 5, text: 'Clean signals, no repaint.' };

describe('review group', () => {
  it('each request goes idle → loading → success or failure with the server’s error', () => {
    let s = reduce(initialReviewState, fetchReviewDetails.pending('r', PRODUCT.id));
    expect(s.details.status).toBe('loading');
    const details = { productId: PRODUCT.id, review: null, canReview: true, reason: null };
    s = reduce(s, fetchReviewDetails.fulfilled(details, 'r', PRODUCT.id));
    expect(s.details).toEqual({ status: 'success', data: details, error: null });
    const error = { error: 'Only buyers who own this product can review it.', code: 'forbidden' };
    s = reduce(
      s,
      postReview.pending('r2', body),
      postReview.rejected(null, 'r2', body, error as never),
    );
    expect(s.update).toMatchObject({ status: 'failure', error: { code: 'forbidden' } });
  });

  it('docs/product.md#review-group: a saved review merges into the details and into its product’s list, with the new summary', () => {
    const old = own(1, { rating: 2, text: 'Repaints.' });
    let s = reduce(
      initialReviewState,
      fetchReviewDetails.fulfilled(
        { productId: PRODUCT.id, review: old, canReview: true, reason: null },
        'r',
        PRODUCT.id,
      ),
      listShown({ scope, page: page([review(3), review(1, { rating: 2 })]) }),
      reviewClicked(true),
    );
    expect(s.reviewClicked).toBe(true);
    const saved = own(1, { rating: 5, text: 'Fixed in 2.4.', edited: true });
    s = reduce(s, postReview.fulfilled({ review: saved, summary: summary([4, 5]) }, 'r2', body));
    expect(s.details.data).toMatchObject({ canReview: true, review: saved });
    expect(s.list.data!.reviews.map((r) => [r.id, r.rating])).toEqual([
      ['rev_3', 4],
      ['rev_1', 5],
    ]);
    expect(s.list.data!.reviews[1]).not.toHaveProperty('hidden');
    expect(s.list.data!.summary).toEqual(summary([4, 5]));
    expect(s.reviewClicked).toBe(false);

    // A first review goes to the top of the list.
    const first = own(9, { text: 'First one.' });
    s = reduce(s, postReview.fulfilled({ review: first, summary: summary([4, 5, 4]) }, 'r3', body));
    expect(s.list.data!.reviews[0]!.id).toBe('rev_9');
    expect(s.list.data!.summary.count).toBe(3);
  });

  it('a storefront list is not changed by a product’s save', () => {
    const storefront = { vendorUrl: 'alpha-edge', sort: 'newest' as const };
    let s = reduce(initialReviewState, listShown({ scope: storefront, page: page([review(3)]) }));
    s = reduce(s, postReview.fulfilled({ review: own(9), summary: summary([4]) }, 'r', body));
    expect(s.list.data!.reviews.map((r) => r.id)).toEqual(['rev_3']);
    expect(s.details.data).toMatchObject({ productId: PRODUCT.id, review: { id: 'rev_9' } });
  });

  it('appends the next page to the list shown, and a new sort replaces it', () => {
    let s = reduce(
      initialReviewState,
      listShown({ scope, page: page([review(5), review(4)], 'cursor-1') }),
    );
    // The server-rendered page again (a re-render) changes nothing.
    s = reduce(s, listShown({ scope, page: page([]) }));
    expect(s.list.data!.reviews).toHaveLength(2);
    const more = { ...scope, cursor: 'cursor-1' };
    s = reduce(
      s,
      fetchReviews.pending('r', more),
      fetchReviews.fulfilled(page([review(4), review(3)], null), 'r', more),
    );
    expect(s.list.data!.reviews.map((r) => r.id)).toEqual(['rev_5', 'rev_4', 'rev_3']);
    expect(s.list.data!.nextCursor).toBeNull();

    const highest = { ...scope, sort: 'highest' as const };
    s = reduce(s, fetchReviews.pending('r2', highest));
    // While it loads, the list on screen stays.
    expect(s.list.data!.reviews).toHaveLength(3);
    s = reduce(s, fetchReviews.fulfilled(page([review(7, { rating: 5 })]), 'r2', highest));
    expect(s.list.data!.reviews.map((r) => r.id)).toEqual(['rev_7']);
    expect(s.list.data!.key).toBe('alpha-edge|prd_1|highest');
  });

  it('the session ending forgets the buyer’s own review and keeps the public list; hydrate merges', () => {
    let s = reduce(
      initialReviewState,
      listShown({ scope, page: page([review(1)]) }),
      fetchReviewDetails.fulfilled(
        { productId: PRODUCT.id, review: own(1), canReview: true, reason: null },
        'r',
        PRODUCT.id,
      ),
      reviewClicked(true),
      sessionEnded(),
    );
    expect(s.details.data).toBeNull();
    expect(s.reviewClicked).toBe(false);
    expect(s.list.data!.reviews).toHaveLength(1);
    s = reduce(s, hydrate({ review: { reviewClicked: true } }));
    expect(s.reviewClicked).toBe(true);
    expect(s.list.data!.reviews).toHaveLength(1);
  });
});
