import { vendorEndpoints } from '@tradeshelf/contract/client';
import type { Review } from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

export interface ReviewsFilter {
  rating?: number | undefined;
  unreplied?: boolean | undefined;
}

export type ReviewsArg = ReviewsFilter & { cursor?: string | undefined; limit?: number };

export const fetchVendorReviews = requestThunk<
  ReviewsArg,
  { items: Review[]; nextCursor: string | null }
>('vendor/reviews/list', async ({ rating, unreplied, cursor, limit = 10 }, { api }) => {
  const res = await api.call(vendorEndpoints.vendorReviews, {
    query: { limit, cursor, rating, unreplied: unreplied ? 'true' : undefined },
  });
  return { items: res.reviews, nextCursor: res.nextCursor };
});

export type ReplyArg = { id: string; text: string };

export const replyToReview = requestThunk<ReplyArg, Review>(
  'vendor/reviews/reply',
  async ({ id, text }, { api }) =>
    (await api.call(vendorEndpoints.replyToReview, { params: { id }, body: { text } })).review,
);

export const editReviewReply = requestThunk<{ id: string; text: string }, Review>(
  'vendor/reviews/editReply',
  async ({ id, text }, { api }) =>
    (await api.call(vendorEndpoints.editReviewReply, { params: { id }, body: { text } })).review,
);
