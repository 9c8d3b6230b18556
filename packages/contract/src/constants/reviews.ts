/** Review limits, sorts and messages: plain values, no zod. */
import { UNREADABLE_TEXT } from '../rules/text.ts';

export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
export const REVIEW_TEXT_MIN = 10;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_REPLY_MAX = 1500;
export const REVIEWS_PAGE_DEFAULT = 10;
export const REVIEWS_PAGE_MAX = 50;

/** Newest first, or by rating (highest or lowest first; newest first within a rating). */
export const reviewSorts = ['newest', 'highest', 'lowest'] as const;
export type ReviewSort = (typeof reviewSorts)[number];

export const reviewSortLabels: Record<ReviewSort, string> = {
  newest: 'Newest first',
  highest: 'Highest rated',
  lowest: 'Lowest rated',
};

/** Why a review was taken off the product: the purchase it stood on was undone (ADR 036). */
export const reviewHiddenReasons = ['refunded', 'disputed', 'revoked'] as const;
export type ReviewHiddenReason = (typeof reviewHiddenReasons)[number];

export const reviewMessages = {
  ratingRequired: `Choose a rating from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX} stars.`,
  textRequired: 'Write a few words about it.',
  textTooShort: `Tell other traders a little more: at least ${REVIEW_TEXT_MIN} characters.`,
  textTooLong: `Keep the review to ${REVIEW_TEXT_MAX} characters.`,
  replyRequired: 'Write your reply.',
  replyTooLong: `Keep the reply to ${REVIEW_REPLY_MAX} characters.`,
  unreadable: UNREADABLE_TEXT,
  notOwned: 'Only buyers who own this product can review it.',
  refunded: 'Your purchase of this product was refunded, so you cannot review it.',
  disputed: 'Your payment for this product was disputed, so you cannot review it.',
  revoked: 'The vendor ended your access to this product, so you cannot review it.',
  ownProduct: 'Vendors cannot review their own products.',
  productNotFound: 'Product not found.',
  vendorNotFound: 'Vendor not found.',
  reviewNotFound: 'Review not found.',
  vendorsOnly: 'Only vendors can reply to reviews.',
  alreadyReplied: 'You already replied to this review.',
  noReplyYet: 'This review has no reply to edit yet.',
  ratingFilter: `Choose a rating from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX} stars.`,
  unrepliedFilter: 'Choose true or false.',
  scopeRequired: 'Name a vendor (vendorUrl) or a product (productId).',
  badCursor: 'That page of reviews has expired. Reload the list.',
  saved: 'Your review is published.',
  hidden: {
    refunded: 'Your review is hidden: the purchase was refunded.',
    disputed: 'Your review is hidden: the payment was disputed.',
    revoked: 'Your review is hidden: the vendor ended your access.',
  },
} as const;
