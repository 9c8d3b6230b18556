// The reviews feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { ProductReviews, StarRow, VendorReviews } from './components.tsx';
export { ReviewPrompt, useProductRating, useFetchReviewDetails } from './own.tsx';
export { reviewsJsonLd } from './json-ld.ts';
export { REVIEWS_PAGE, type ReviewPage } from './api.ts';
