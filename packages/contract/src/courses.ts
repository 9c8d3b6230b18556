import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import { productCard } from './catalog.ts';
import {
  courseMessages,
  LESSON_POSITION_MAX_SECONDS,
  lessonKinds,
  lessonLockReasons,
} from './constants/courses.ts';
import { defineRoute } from './route.ts';

export * from './constants/courses.ts';

/** Completed lessons out of all lessons, and the rounded percentage. */
export const courseProgressSummary = z.object({
  completed: z.number().int(),
  total: z.number().int(),
  percent: z.number().int(),
});
export type CourseProgressSummary = z.infer<typeof courseProgressSummary>;

/** The buyer's place in one lesson (null when they never opened it). */
export const lessonProgress = z.object({
  positionSeconds: z.number().int(),
  completed: z.boolean(),
  completedAt: isoDateTime.nullable(),
  updatedAt: isoDateTime,
});
export type LessonProgress = z.infer<typeof lessonProgress>;

/**
 * A download of a lesson: its name and size always; `id` (what the signed-URL call takes) only when
 * the lesson is open to the caller.
 */
export const courseAttachment = z.object({
  id: z.string().nullable(),
  name: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.string(),
});
export type CourseAttachment = z.infer<typeof courseAttachment>;

/** A WebVTT caption track (signed URLs come with the video's). */
export const captionTrack = z.object({ language: z.string(), label: z.string() });

/**
 * A lesson as the caller may see it. `video` and `text` are present only when the lesson is open to
 * the caller (a preview, or an enrolled buyer's opened lesson); locked lessons show the outline.
 */
export const courseLesson = z.object({
  id: z.string(),
  moduleId: z.string(),
  title: z.string(),
  position: z.number().int(),
  kind: z.enum(lessonKinds),
  preview: z.boolean(),
  durationSeconds: z.number().int().nullable(),
  /** Days after enrolment the lesson opens (0: at once). */
  dripDays: z.number().int(),
  locked: z.boolean(),
  lockReason: z.enum(lessonLockReasons).nullable(),
  /** When a drip-locked lesson opens for this buyer, or when an open one opened. */
  opensAt: isoDateTime.nullable(),
  video: z.object({ id: z.string(), captions: z.array(captionTrack) }).nullable(),
  text: z.string().nullable(),
  /** `text` rendered from Markdown and sanitised (ADR 056); null with `text`. */
  textHtml: z.string().nullable(),
  attachments: z.array(courseAttachment),
  progress: lessonProgress.nullable(),
});
export type CourseLesson = z.infer<typeof courseLesson>;

export const courseModule = z.object({
  id: z.string(),
  title: z.string(),
  position: z.number().int(),
  lessons: z.array(courseLesson),
  progress: courseProgressSummary,
});
export type CourseModule = z.infer<typeof courseModule>;

/** Where to pick up: the lesson last watched that is not done, else the first open one not done. */
export const courseResume = z.object({
  lessonId: z.string(),
  moduleId: z.string(),
  title: z.string(),
  positionSeconds: z.number().int(),
});
export type CourseResume = z.infer<typeof courseResume>;

/** The product behind a course: title and link always; `offer` (what to buy) while it is for sale. */
export const courseProduct = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  vendor: z.object({ vendorUrl: z.string(), displayName: z.string() }),
});

export const course = z.object({
  id: z.string(),
  title: z.string(),
  product: courseProduct,
  /** The product card to buy from (price, plans), while the product is on sale; null when enrolled. */
  offer: productCard.nullable(),
  enrolled: z.boolean(),
  enrolledAt: isoDateTime.nullable(),
  lessonCount: z.number().int(),
  modules: z.array(courseModule),
  progress: courseProgressSummary,
  resume: courseResume.nullable(),
});
export type Course = z.infer<typeof course>;

/** One course in the buyer's list. */
export const courseSummary = z.object({
  id: z.string(),
  title: z.string(),
  product: courseProduct,
  enrolledAt: isoDateTime,
  lessonCount: z.number().int(),
  progress: courseProgressSummary,
  resume: courseResume.nullable(),
});
export type CourseSummary = z.infer<typeof courseSummary>;

export const courseParams = z.object({ id: idSchema });
export const lessonParams = z.object({ id: idSchema, lessonId: idSchema });
export const mediaQuery = z.object({ id: idSchema });

export const userCoursesQuery = pageQuery;

export const lessonProgressBody = z.object({
  positionSeconds: z
    .number({ error: courseMessages.positionRange })
    .int(courseMessages.positionRange)
    .min(0, courseMessages.positionRange)
    .max(LESSON_POSITION_MAX_SECONDS, courseMessages.positionRange),
  /** True marks the lesson completed; false leaves a completed lesson completed. */
  completed: z.boolean().optional(),
  /** Marks a completed lesson not completed again (the only way back). */
  reset: z.boolean().optional(),
});

export const signedMedia = z.object({ url: z.string(), expiresAt: isoDateTime });

export const videoUrlResponse = z.object({
  url: z.string(),
  expiresAt: isoDateTime,
  contentType: z.string(),
  lessonId: z.string(),
  captions: z.array(
    captionTrack.extend({ url: z.string(), expiresAt: isoDateTime, contentType: z.string() }),
  ),
});

export const attachmentUrlResponse = z.object({
  url: z.string(),
  expiresAt: isoDateTime,
  name: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.string(),
});

export const coursesRoutes = {
  userCourses: defineRoute({
    method: 'GET',
    path: '/api/v1/user/courses',
    auth: 'bearer',
    summary:
      'The courses the buyer is enrolled in (a live enrolment), with progress and the lesson to resume.',
    tags: ['courses'],
    status: 200,
    query: userCoursesQuery,
    response: z.object({ courses: z.array(courseSummary), nextCursor: z.string().nullable() }),
  }),
  courseDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/courses/{id}',
    auth: 'optional',
    summary:
      'A course by its id (or its product id): modules, lessons and attachments, what is locked and when it opens, and progress. Without an enrolment: the outline, previews and what to buy, never paid content.',
    tags: ['courses'],
    status: 200,
    params: courseParams,
    response: z.object({ course }),
  }),
  lessonProgress: defineRoute({
    method: 'PUT',
    path: '/api/v1/courses/{id}/lessons/{lessonId}/progress',
    auth: 'bearer',
    summary:
      'Records where the buyer is in an opened lesson and whether they completed it (completion stays unless reset).',
    tags: ['courses'],
    status: 200,
    params: lessonParams,
    body: lessonProgressBody,
    response: z.object({
      lessonId: z.string(),
      progress: lessonProgress,
      course: courseProgressSummary,
    }),
  }),
  videoUrl: defineRoute({
    method: 'GET',
    path: '/api/v1/videos/url',
    auth: 'optional',
    summary:
      "A short-lived signed URL of a lesson's video (and its caption tracks): for an enrolled buyer's opened lesson, or anyone's preview.",
    tags: ['courses'],
    status: 200,
    query: mediaQuery,
    response: videoUrlResponse,
  }),
  attachmentUrl: defineRoute({
    method: 'GET',
    path: '/api/v1/attachments/generate-url',
    auth: 'bearer',
    summary:
      "A short-lived signed URL that downloads an attachment under its file name, for an enrolled buyer's opened lesson.",
    tags: ['courses'],
    status: 200,
    query: mediaQuery,
    response: attachmentUrlResponse,
  }),
} as const;
