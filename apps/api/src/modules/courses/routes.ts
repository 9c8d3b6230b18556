import { coursesRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import { courseDetails } from './details.ts';
import { userCourses } from './list.ts';
import { attachmentUrl, videoUrl } from './media.ts';
import { recordProgress } from './progress.ts';

export async function coursesModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  registerRoute(app, coursesRoutes.userCourses, ({ query, auth }) =>
    userCourses(deps, auth.sub, query),
  );
  registerRoute(app, coursesRoutes.courseDetails, async ({ params, auth }) => ({
    course: await courseDetails(deps, auth?.sub ?? null, params.id),
  }));
  registerRoute(app, coursesRoutes.lessonProgress, ({ params, body, auth }) =>
    recordProgress(deps, auth.sub, params.id, params.lessonId, body),
  );
  registerRoute(app, coursesRoutes.videoUrl, ({ query, auth }) =>
    videoUrl(deps, auth?.sub ?? null, query.id),
  );
  registerRoute(app, coursesRoutes.attachmentUrl, ({ query, auth }) =>
    attachmentUrl(deps, auth.sub, query.id),
  );
}
