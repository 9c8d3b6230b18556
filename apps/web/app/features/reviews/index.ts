// The reviews feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export {
  ProductReviews,
  ReviewPrompt,
  reviewsJsonLd,
  StarRow,
  VendorReviews,
} from './components.tsx';
export { useProductRating } from './hooks.ts';
export { REVIEWS_PAGE, type ReviewPage } from './api.ts';
