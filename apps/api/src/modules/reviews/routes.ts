import { reviewsRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { ownReview } from './own-review.ts';
import { postReview } from './post-review.ts';
import { reviewsReads } from './reads.ts';
import { replyToReview } from './reply.ts';
import { editReply, vendorReviews } from './vendor-reviews.ts';

export async function reviewsModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  for (const read of reviewsReads) registerRead(app, read);
  registerRoute(app, reviewsRoutes.getReview, ({ auth, query }) =>
    ownReview(deps, auth.sub, query.product),
  );
  registerRoute(app, reviewsRoutes.postReview, ({ auth, body }) =>
    postReview(deps, auth.sub, body),
  );
  registerRoute(app, reviewsRoutes.replyToReview, async ({ auth, params, body }) => ({
    review: await replyToReview(deps, auth.sub, params.id, body.text),
  }));
  registerRoute(app, reviewsRoutes.vendorReviews, ({ auth, query }) =>
    vendorReviews(deps, auth.sub, query),
  );
  registerRoute(app, reviewsRoutes.editReviewReply, async ({ auth, params, body }) => ({
    review: await editReply(deps, auth.sub, params.id, body.text),
  }));
}
