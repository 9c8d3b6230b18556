import {
  COURSE_ATTACHMENT_MAX_BYTES,
  coursesRoutes,
  vendorCourseMessages,
  vendorCoursesRoutes as vr,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRoute } from '../../platform/routes.ts';
import { courseDetails } from './details.ts';
import { userCourses } from './list.ts';
import { attachmentUrl, videoUrl } from './media.ts';
import { recordProgress } from './progress.ts';
import * as edit from './vendor-edit.ts';
import {
  deleteLessonAttachment,
  uploadLessonAttachment,
  uploadLessonVideo,
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
  registerRoute(app, vr.vendorCourses, ({ query, auth }) => vendorCourses(deps, auth.sub, query));
  registerRoute(app, vr.vendorCourse, async ({ params, auth }) => ({
    course: await edit.vendorCourse(deps, auth.sub, params.productId),
  }));
  registerRoute(app, vr.addCourseModule, async ({ params, body, auth }) => ({
    course: await edit.addModule(deps, auth.sub, params.productId, body.title),
  }));
  registerRoute(app, vr.renameCourseModule, async ({ params, body, auth }) => ({
    course: await edit.renameModule(deps, auth.sub, params.productId, params.moduleId, body.title),
  }));
  registerRoute(app, vr.deleteCourseModule, async ({ params, auth }) => ({
    course: await edit.deleteModule(deps, auth.sub, params.productId, params.moduleId),
  }));
  registerRoute(app, vr.reorderCourse, async ({ params, body, auth }) => ({
    course: await edit.reorderCourse(deps, auth.sub, params.productId, body),
  }));
  registerRoute(app, vr.addCourseLesson, ({ params, body, auth }) =>
    edit.addLesson(deps, auth.sub, params.productId, body),
  );
  registerRoute(app, vr.updateCourseLesson, async ({ params, body, auth }) => ({
    course: await edit.updateLesson(deps, auth.sub, params.productId, params.lessonId, body),
  }));
  registerRoute(app, vr.deleteCourseLesson, async ({ params, auth }) => ({
    course: await edit.deleteLesson(deps, auth.sub, params.productId, params.lessonId),
  }));
  registerRoute(app, vr.restoreCourseLesson, async ({ params, auth }) => ({
    course: await edit.restoreLesson(deps, auth.sub, params.productId, params.lessonId),
  }));
  const videoMax = deps.config.COURSE_VIDEO_MAX_MB * 1024 * 1024;
  const videoTooLarge = `Videos can be up to ${deps.config.COURSE_VIDEO_MAX_MB} MB.`;
  registerRoute(
    app,
    vr.uploadLessonVideo,
    async ({ params, auth, req }) => ({
      course: await uploadLessonVideo(
        deps,
        auth.sub,
        params.productId,
        params.lessonId,
        fileUpload(req, {
          field: 'file',
          maxBytes: videoMax,
          tooLarge: videoTooLarge,
        }),
        { maxBytes: videoMax, message: videoTooLarge },
      ),
    }),
    { bodyLimit: videoMax + ENVELOPE, upload: true },
  );
  registerRoute(
    app,
    vr.uploadLessonAttachment,
    async ({ params, auth, req }) => ({
      course: await uploadLessonAttachment(
        deps,
        auth.sub,
        params.productId,
        params.lessonId,
        fileUpload(req, {
          field: 'file',
          maxBytes: COURSE_ATTACHMENT_MAX_BYTES,
          tooLarge: vendorCourseMessages.attachmentTooLarge,
        }),
      ),
    }),
    { bodyLimit: COURSE_ATTACHMENT_MAX_BYTES + ENVELOPE, upload: true },
  );
  registerRoute(app, vr.deleteLessonAttachment, async ({ params, auth }) => ({
    course: await deleteLessonAttachment(
      deps,
      auth.sub,
      params.productId,
      params.lessonId,
      params.fileId,
    ),
  }));
}
