import { z } from 'zod';
import { vendorUrlSchema } from './catalog.ts';
import { idSchema, isoDateTime, pageFields, textField } from './common.ts';
import {
  REVIEW_RATING_MAX,
  REVIEW_RATING_MIN,
  REVIEW_REPLY_MAX,
  REVIEW_TEXT_MAX,
  REVIEW_TEXT_MIN,
  reviewHiddenReasons,
  reviewMessages as m,
  REVIEWS_PAGE_DEFAULT,
  REVIEWS_PAGE_MAX,
  reviewSorts,
} from './constants/reviews.ts';
import { defineRoute } from './route.ts';

export * from './constants/reviews.ts';

/** Whole stars only: 2.5, "5" and 0 are refused with the same message. */
const starRating = z
  .number({ error: m.ratingRequired })
  .int(m.ratingRequired)
  .min(REVIEW_RATING_MIN, m.ratingRequired)
  .max(REVIEW_RATING_MAX, m.ratingRequired);

/** A published review as anyone sees it: the reviewer by username only, never an e-mail. */
export const reviewSchema = z
  .object({
    id: z.string(),
    product: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
    rating: z.number().int(),
    /** Stored exactly as written (Markdown). */
    text: z.string(),
    /** `text` rendered from Markdown and sanitised (ADR 056): clients insert it as it is. */
    textHtml: z.string(),
    /** `null`: the buyer has not chosen a username yet. */
    reviewer: z.object({ username: z.string().nullable() }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    /** Changed after it was first published. */
    edited: z.boolean(),
    /** The vendor's one reply. */
    reply: z.object({ text: z.string(), textHtml: z.string(), createdAt: isoDateTime }).nullable(),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof reviewSchema>;

/** The author's own review: also when it is hidden, with the reason. */
export const ownReviewSchema = reviewSchema
  .extend({ hidden: z.enum(reviewHiddenReasons).nullable() })
  .meta({ id: 'OwnReview' });
export type OwnReview = z.infer<typeof ownReviewSchema>;

export const reviewSummarySchema = z
  .object({
    /** Mean of the published ratings, two decimals; 0 when there are none. */
    average: z.number(),
    count: z.number().int(),
    /** Published reviews per star, 5 stars first. */
    distribution: z.array(z.object({ rating: z.number().int(), count: z.number().int() })),
  })
  .meta({ id: 'ReviewSummary' });
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;

export const postReviewBody = z.object({
  productId: idSchema,
  rating: starRating,
  text: textField({
    required: m.textRequired,
    min: REVIEW_TEXT_MIN,
    tooShort: m.textTooShort,
    max: REVIEW_TEXT_MAX,
    tooLong: m.textTooLong,
    multiline: true,
  }),
});
export type PostReviewBody = z.input<typeof postReviewBody>;

export const reviewReplyBody = z.object({
  text: textField({
    required: m.replyRequired,
    max: REVIEW_REPLY_MAX,
    tooLong: m.replyTooLong,
    multiline: true,
  }),
});
export type ReviewReplyBody = z.input<typeof reviewReplyBody>;

export const reviewListQuery = z
  .object({
    /** The storefront whose reviews these are. */
    vendorUrl: vendorUrlSchema.optional(),
    /** Only this product's reviews (the product page); enough on its own. */
    productId: idSchema.optional(),
    sort: z.enum(reviewSorts).default('newest'),
    ...pageFields(REVIEWS_PAGE_MAX, REVIEWS_PAGE_DEFAULT),
  })
  .refine((q) => q.vendorUrl !== undefined || q.productId !== undefined, {
    error: m.scopeRequired,
    path: ['vendorUrl'],
  });
export type ReviewListQuery = z.input<typeof reviewListQuery>;

/** The vendor's own list: newest first, optionally one star rating, optionally only unanswered. */
export const vendorReviewsQuery = z.object({
  rating: z.coerce
    .number({ error: m.ratingFilter })
    .int(m.ratingFilter)
    .min(REVIEW_RATING_MIN, m.ratingFilter)
    .max(REVIEW_RATING_MAX, m.ratingFilter)
    .optional(),
  unreplied: z
    .enum(['true', 'false'], { error: m.unrepliedFilter })
    .transform((v) => v === 'true')
    .optional(),
  ...pageFields(REVIEWS_PAGE_MAX, REVIEWS_PAGE_DEFAULT),
});
export type VendorReviewsQuery = z.input<typeof vendorReviewsQuery>;

/** The reply routes (write, rewrite): the review's id, the reply, the review as it now is. */
const reviewReplyIo = {
  params: z.object({ id: idSchema }),
  body: reviewReplyBody,
  response: z.object({ review: reviewSchema }),
};

export const reviewsRoutes = {
  getReview: defineRoute({
    method: 'GET',
    path: '/api/v1/review/get-review',
    auth: 'bearer',
    summary:
      "The caller's own review of a product (null if none, `hidden` when its purchase was undone) and whether they may write or edit one.",
    tags: ['reviews'],
    status: 200,
    query: z.object({ product: idSchema }),
    response: z.object({
      review: ownReviewSchema.nullable(),
      canReview: z.boolean(),
      /** Why not, when `canReview` is false. */
      reason: z.string().nullable(),
    }),
  }),
  postReview: defineRoute({
    method: 'POST',
    path: '/api/v1/review/post-review',
    auth: 'bearer',
    summary:
      "Writes or edits the caller's one review of a product they own (or owned until a subscription ended; not after a refund, dispute or revocation): 1–5 stars and text. Answers the review and the product's new rating summary.",
    tags: ['reviews'],
    status: 200,
    body: postReviewBody,
    response: z.object({ review: ownReviewSchema, summary: reviewSummarySchema }),
  }),
  allReviews: defineRoute({
    method: 'GET',
    path: '/api/v1/review/get-all-reviews',
    auth: 'none',
    summary:
      "A vendor's published reviews (`vendorUrl`), or one product's (`productId`, alone or with its vendor), paged, newest first or by rating, with the average and the 1–5 distribution of the same reviews.",
    tags: ['reviews'],
    status: 200,
    query: reviewListQuery,
    response: z.object({
      reviews: z.array(reviewSchema),
      summary: reviewSummarySchema,
      nextCursor: z.string().nullable(),
    }),
  }),
  replyToReview: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/reviews/{id}/reply',
    auth: 'bearer',
    summary:
      "The vendor answers a published review of one of its products, once (409 after that). Another vendor's review is not found.",
    tags: ['vendor'],
    status: 200,
    ...reviewReplyIo,
  }),
  vendorReviews: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/reviews',
    auth: 'bearer',
    summary:
      "The vendor's published reviews across its products, newest first, paged; `rating` keeps one star rating, `unreplied=true` those without a reply.",
    tags: ['vendor'],
    status: 200,
    query: vendorReviewsQuery,
    response: z.object({ reviews: z.array(reviewSchema), nextCursor: z.string().nullable() }),
  }),
  editReviewReply: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/reviews/{id}/reply',
    auth: 'bearer',
    summary:
      "The vendor rewrites its reply to a review (409 when there is none yet; another vendor's review is not found). The reply's date becomes the edit's.",
    tags: ['vendor'],
    status: 200,
    ...reviewReplyIo,
  }),
} as const;
