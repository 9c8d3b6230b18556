import { reviewsRoutes } from '@tradeshelf/contract';
import { pageRead, type PageRead } from '../../platform/routes.ts';
import { listReviews } from './list.ts';

/** Public reads SSR loaders take in process (ADR 013): the product page's and storefront's reviews. */
export const reviewsReads: readonly PageRead[] = [
  pageRead(reviewsRoutes.allReviews, (deps, { query }) => listReviews(deps, query)),
];
