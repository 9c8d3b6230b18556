import { reviewMessages, reviewsRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { ownReview } from './own-review.ts';
import { postReview } from './post-review.ts';
import { reviewsReads } from './reads.ts';
import { editReply, replyToReview } from './reply.ts';
import { vendorReviews } from './vendor-reviews.ts';

export async function reviewsModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, reviewMessages.vendorsOnly);
  for (const read of reviewsReads) registerRead(app, read);
  registerRoute(app, reviewsRoutes.getReview, ({ auth, query }) =>
    ownReview(deps, auth.sub, query.product),
  );
  registerRoute(app, reviewsRoutes.postReview, ({ auth, body }) =>
    postReview(deps, auth.sub, body),
  );
  vendorRoute(reviewsRoutes.replyToReview, async ({ auth, vendorId, params, body }) => ({
    review: await replyToReview(deps, auth.sub, vendorId, params.id, body.text),
  }));
  vendorRoute(reviewsRoutes.vendorReviews, ({ vendorId, query }) =>
    vendorReviews(deps, vendorId, query),
  );
  vendorRoute(reviewsRoutes.editReviewReply, async ({ auth, vendorId, params, body }) => ({
    review: await editReply(deps, auth.sub, vendorId, params.id, body.text),
  }));
}
