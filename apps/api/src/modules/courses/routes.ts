import {
  coursesRoutes,
  vendorCourseMessages,
  vendorCoursesRoutes as vr,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { courseDetails } from './details.ts';
import { userCourses } from './list.ts';
import { attachmentUrl, videoUrl } from './media.ts';
import { recordProgress } from './progress.ts';
import * as edit from './vendor-edit.ts';
import {
  attachmentLimit,
  deleteLessonAttachment,
  uploadLessonAttachment,
  uploadLessonVideo,
  type LessonUpload,
} from './vendor-media.ts';
import { vendorCourses } from './vendor-read.ts';

/** Multipart envelope around the one file. */
const ENVELOPE = 64 * 1024;

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

  // The vendor's course builder (issue 19, ADR 044).
  const vendorRoute = vendorRoutes(app, vendorCourseMessages.vendorsOnly);
  vendorRoute(vr.vendorCourses, ({ query, vendorId }) => vendorCourses(deps, vendorId, query));
  vendorRoute(vr.vendorCourse, async ({ params, vendorId }) => ({
    course: await edit.vendorCourse(deps, vendorId, params.productId),
  }));
  vendorRoute(vr.addCourseModule, async ({ params, body, vendorId }) => ({
    course: await edit.addModule(deps, vendorId, params.productId, body.title),
  }));
  vendorRoute(vr.renameCourseModule, async ({ params, body, vendorId }) => ({
    course: await edit.renameModule(deps, vendorId, params.productId, params.moduleId, body.title),
  }));
  vendorRoute(vr.deleteCourseModule, async ({ params, vendorId }) => ({
    course: await edit.deleteModule(deps, vendorId, params.productId, params.moduleId),
  }));
  vendorRoute(vr.reorderCourse, async ({ params, body, vendorId }) => ({
    course: await edit.reorderCourse(deps, vendorId, params.productId, body),
  }));
  vendorRoute(vr.addCourseLesson, ({ params, body, vendorId }) =>
    edit.addLesson(deps, vendorId, params.productId, body),
  );
  vendorRoute(vr.updateCourseLesson, async ({ params, body, vendorId }) => ({
    course: await edit.updateLesson(deps, vendorId, params.productId, params.lessonId, body),
  }));
  vendorRoute(vr.deleteCourseLesson, async ({ params, vendorId }) => ({
    course: await edit.deleteLesson(deps, vendorId, params.productId, params.lessonId),
  }));
  vendorRoute(vr.restoreCourseLesson, async ({ params, vendorId }) => ({
    course: await edit.restoreLesson(deps, vendorId, params.productId, params.lessonId),
  }));
  const videoLimit = {
    maxBytes: deps.config.COURSE_VIDEO_MAX_MB * 1024 * 1024,
    tooLarge: `Videos can be up to ${deps.config.COURSE_VIDEO_MAX_MB} MB.`,
  };
  const lessonOf = (c: {
    params: { productId: string; lessonId: string };
    auth: { sub: string };
    vendorId: string;
  }): LessonUpload => ({
    userId: c.auth.sub,
    vendorId: c.vendorId,
    productId: c.params.productId,
    lessonId: c.params.lessonId,
  });
  vendorRoute(
    vr.uploadLessonVideo,
    async (c) => ({
      course: await uploadLessonVideo(
        deps,
        lessonOf(c),
        fileUpload(c.req, { field: 'file', ...videoLimit }),
        videoLimit,
      ),
    }),
    { bodyLimit: videoLimit.maxBytes + ENVELOPE, upload: true },
  );
  vendorRoute(
    vr.uploadLessonAttachment,
    async (c) => ({
      course: await uploadLessonAttachment(
        deps,
        lessonOf(c),
        fileUpload(c.req, { field: 'file', ...attachmentLimit }),
      ),
    }),
    { bodyLimit: attachmentLimit.maxBytes + ENVELOPE, upload: true },
  );
  vendorRoute(vr.deleteLessonAttachment, async ({ params, vendorId }) => ({
    course: await deleteLessonAttachment(
      deps,
      vendorId,
      params.productId,
      params.lessonId,
      params.fileId,
    ),
  }));
}
