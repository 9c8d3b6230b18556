import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import {
  COURSE_TITLE_MAX,
  DRIP_DAYS_MAX,
  LESSON_BODY_MAX,
  LESSON_DURATION_MAX_SECONDS,
  vendorCourseMessages as m,
} from './constants/vendor-courses.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters, UNREADABLE_TEXT } from './rules/text.ts';

export * from './constants/vendor-courses.ts';

// The vendor's course builder (issue 19, ADR 044): outline, lessons, drip, video and attachments.

export const courseTitleSchema = z
  .string({ error: m.titleMissing })
  .trim()
  .min(1, m.titleMissing)
  .max(COURSE_TITLE_MAX, m.titleTooLong)
  .refine((v) => !hasUnreadableCharacters(v), UNREADABLE_TEXT);

export const lessonBodySchema = z
  .string()
  .max(LESSON_BODY_MAX, m.bodyTooLong)
  .refine((v) => !hasUnreadableCharacters(v, true), UNREADABLE_TEXT);

export const dripDaysSchema = z
  .number({ error: m.dripDays })
  .int(m.dripDays)
  .min(0, m.dripDays)
  .max(DRIP_DAYS_MAX, m.dripDays);

export const lessonDurationSchema = z
  .number({ error: m.duration })
  .int(m.duration)
  .min(0, m.duration)
  .max(LESSON_DURATION_MAX_SECONDS, m.duration);

export const vendorCourseFile = z.object({
  id: z.string(),
  name: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.string(),
});
export type VendorCourseFile = z.infer<typeof vendorCourseFile>;

export const vendorLesson = z
  .object({
    id: z.string(),
    moduleId: z.string(),
    title: z.string(),
    position: z.number().int(),
    kind: z.enum(['video', 'text']),
    /** Markdown notes. */
    body: z.string(),
    dripDays: z.number().int(),
    /** Open to anyone, as a free sample. */
    preview: z.boolean(),
    durationSeconds: z.number().int().nullable(),
    video: z
      .object({
        id: z.string(),
        name: z.string().nullable(),
        sizeBytes: z.number().int().nullable(),
        contentType: z.string(),
      })
      .nullable(),
    attachments: z.array(vendorCourseFile),
    /** Buyers who have progress on it (deleting keeps it, ADR 044). */
    learners: z.number().int(),
  })
  .meta({ id: 'VendorLesson' });
export type VendorLesson = z.infer<typeof vendorLesson>;

export const vendorModule = z.object({
  id: z.string(),
  title: z.string(),
  position: z.number().int(),
  lessons: z.array(vendorLesson),
});
export type VendorModule = z.infer<typeof vendorModule>;

export const vendorCourse = z
  .object({
    productId: z.string(),
    /** Null until the first module is added. */
    courseId: z.string().nullable(),
    title: z.string(),
    slug: z.string(),
    isActive: z.boolean(),
    modules: z.array(vendorModule),
    /** Deleted lessons, newest first, to undo a delete. */
    deleted: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        moduleTitle: z.string(),
        deletedAt: isoDateTime,
      }),
    ),
  })
  .meta({ id: 'VendorCourse' });
export type VendorCourse = z.infer<typeof vendorCourse>;

export const vendorCourseSummary = z.object({
  productId: z.string(),
  courseId: z.string().nullable(),
  title: z.string(),
  slug: z.string(),
  isActive: z.boolean(),
  moduleCount: z.number().int(),
  lessonCount: z.number().int(),
  videoCount: z.number().int(),
  learners: z.number().int(),
});
export type VendorCourseSummary = z.infer<typeof vendorCourseSummary>;

export const vendorCourseParams = z.object({ productId: idSchema });
export const vendorModuleParams = z.object({ productId: idSchema, moduleId: idSchema });
export const vendorLessonParams = z.object({ productId: idSchema, lessonId: idSchema });
export const vendorFileParams = z.object({
  productId: idSchema,
  lessonId: idSchema,
  fileId: idSchema,
});

export const moduleBody = z.object({ title: courseTitleSchema });
export type ModuleBody = z.infer<typeof moduleBody>;

export const newLessonBody = z.object({ moduleId: idSchema, title: courseTitleSchema });
export type NewLessonBody = z.infer<typeof newLessonBody>;

export const lessonPatchBody = z.object({
  title: courseTitleSchema.optional(),
  body: lessonBodySchema.optional(),
  dripDays: dripDaysSchema.optional(),
  preview: z.boolean().optional(),
  durationSeconds: lessonDurationSchema.nullable().optional(),
  /** Removes the lesson's video (it becomes a text lesson). */
  removeVideo: z.literal(true).optional(),
});
export type LessonPatchBody = z.infer<typeof lessonPatchBody>;

/** The whole outline's order: every live module once, each with every one of its lessons once. */
export const courseOrderBody = z.object({
  modules: z.array(z.object({ id: idSchema, lessons: z.array(idSchema).max(1000) })).max(1000),
});
export type CourseOrderBody = z.infer<typeof courseOrderBody>;

const courseResponse = z.object({ course: vendorCourse });

export const vendorCoursesRoutes = {
  vendorCourses: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/courses',
    auth: 'bearer',
    summary: "The vendor's course products with module, lesson and video counts.",
    tags: ['vendor'],
    status: 200,
    query: pageQuery,
    response: z.object({
      courses: z.array(vendorCourseSummary),
      nextCursor: z.string().nullable(),
    }),
  }),
  vendorCourse: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/courses/{productId}',
    auth: 'bearer',
    summary:
      "A course product's full outline for its builder: modules, lessons with notes, video, attachments, drip and preview.",
    tags: ['vendor'],
    status: 200,
    params: vendorCourseParams,
    response: courseResponse,
  }),
  addCourseModule: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/courses/{productId}/modules',
    auth: 'bearer',
    summary: 'Adds a module at the end of the course.',
    tags: ['vendor'],
    status: 201,
    params: vendorCourseParams,
    body: moduleBody,
    response: courseResponse,
  }),
  renameCourseModule: defineRoute({
    method: 'PATCH',
    path: '/api/v1/vendor/courses/{productId}/modules/{moduleId}',
    auth: 'bearer',
    summary: 'Renames a module.',
    tags: ['vendor'],
    status: 200,
    params: vendorModuleParams,
    body: moduleBody,
    response: courseResponse,
  }),
  deleteCourseModule: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/courses/{productId}/modules/{moduleId}',
    auth: 'bearer',
    summary:
      'Deletes a module and its lessons (buyers stop seeing them at once; their progress is kept and each lesson can be restored).',
    tags: ['vendor'],
    status: 200,
    params: vendorModuleParams,
    response: courseResponse,
  }),
  reorderCourse: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/courses/{productId}/order',
    auth: 'bearer',
    summary:
      'Sets the order of modules and of the lessons in each (lessons may move between modules); it must name every live module and lesson once.',
    tags: ['vendor'],
    status: 200,
    params: vendorCourseParams,
    body: courseOrderBody,
    response: courseResponse,
  }),
  addCourseLesson: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/courses/{productId}/lessons',
    auth: 'bearer',
    summary:
      'Adds a text lesson at the end of a module (upload a video to make it a video lesson).',
    tags: ['vendor'],
    status: 201,
    params: vendorCourseParams,
    body: newLessonBody,
    response: z.object({ course: vendorCourse, lessonId: z.string() }),
  }),
  updateCourseLesson: defineRoute({
    method: 'PATCH',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}',
    auth: 'bearer',
    summary:
      'Changes a lesson: title, Markdown notes, drip days (lessons already open for a buyer stay open), preview, length, or removes its video.',
    tags: ['vendor'],
    status: 200,
    params: vendorLessonParams,
    body: lessonPatchBody,
    response: courseResponse,
  }),
  deleteCourseLesson: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}',
    auth: 'bearer',
    summary:
      'Deletes a lesson: buyers stop seeing it and its media at once; their progress on it is kept, and it can be restored.',
    tags: ['vendor'],
    status: 200,
    params: vendorLessonParams,
    response: courseResponse,
  }),
  restoreCourseLesson: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}/restore',
    auth: 'bearer',
    summary:
      'Undoes a delete: the lesson returns at the end of its module (and its module returns if it was deleted too).',
    tags: ['vendor'],
    status: 200,
    params: vendorLessonParams,
    response: courseResponse,
  }),
  uploadLessonVideo: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}/video',
    auth: 'bearer',
    summary:
      "Uploads or replaces a lesson's video (multipart field `file`; MP4 or WebM recognised by its bytes, up to 200 MB). Served as uploaded.",
    tags: ['vendor'],
    status: 200,
    multipart: true,
    params: vendorLessonParams,
    response: courseResponse,
  }),
  uploadLessonAttachment: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}/attachments',
    auth: 'bearer',
    summary:
      'Adds a download to a lesson (multipart field `file`; PDF, ZIP, CSV, text or a PNG, JPEG, GIF or WebP image recognised by its bytes, up to 25 MB; a plain file name).',
    tags: ['vendor'],
    status: 201,
    multipart: true,
    params: vendorLessonParams,
    response: courseResponse,
  }),
  deleteLessonAttachment: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/courses/{productId}/lessons/{lessonId}/attachments/{fileId}',
    auth: 'bearer',
    summary: 'Removes a download from a lesson.',
    tags: ['vendor'],
    status: 200,
    params: vendorFileParams,
    response: courseResponse,
  }),
} as const;
