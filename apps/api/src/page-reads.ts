import { catalogReads } from './modules/catalog/reads.ts';
import { reviewsReads } from './modules/reviews/reads.ts';
import { supportReads } from './modules/support/reads.ts';
import type { PageRead } from './platform/routes.ts';

/**
 * Every read SSR loaders answer in process (ADR 013). Each is the same definition its HTTP route is
 * registered from; a route missing here still works from a loader, through `app.inject`.
 */
export const pageReads: readonly PageRead[] = [...catalogReads, ...supportReads, ...reviewsReads];
