import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { entitlements } from '../access/tables.ts';
import { productColumn } from '../catalog/tables.ts';
import { userColumn } from '../users/tables.ts';
import { idColumn, refColumn, ts } from '../../db/columns.ts';

/** A course product's content (catalogue kind `course`): one course per product. */
export const courses = pgTable(
  'courses',
  {
    id: idColumn(),
    productId: productColumn(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('courses_product_key').on(t.productId)],
);

export const courseModules = pgTable(
  'course_modules',
  {
    id: idColumn(),
    courseId: refColumn('course_id', () => courses.id),
    title: text('title').notNull(),
    position: integer('position').notNull(),
    /** Deleted by the vendor (ADR 044): hidden everywhere, kept so the delete can be undone. */
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('course_modules_course_idx').on(t.courseId, t.position)],
);

/**
 * A lesson: a video (`video_id` is its public id, `video_key` its storage key) or text, with notes in
 * `body`. `preview` lessons are open to anyone; others open `drip_days` after enrolment (0: at once).
 */
export const courseLessons = pgTable(
  'course_lessons',
  {
    id: idColumn(),
    courseId: refColumn('course_id', () => courses.id),
    moduleId: refColumn('module_id', () => courseModules.id),
    title: text('title').notNull(),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['video', 'text'] }).notNull(),
    body: text('body').notNull().default(''),
    videoId: text('video_id'),
    videoKey: text('video_key'),
    videoType: text('video_type'),
    /** The uploaded file's name and size, for the vendor's builder. */
    videoName: text('video_name'),
    videoBytes: bigint('video_bytes', { mode: 'number' }),
    durationSeconds: integer('duration_seconds'),
    preview: boolean('preview').notNull().default(false),
    dripDays: integer('drip_days').notNull().default(0),
    /** Deleted by the vendor (ADR 044): hidden, media no longer served; buyers' progress stays. */
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('course_lessons_course_idx').on(t.courseId, t.position),
    uniqueIndex('course_lessons_video_key').on(t.videoId),
  ],
);

/** A lesson's attachments (downloads) and caption tracks (WebVTT). */
export const courseFiles = pgTable(
  'course_files',
  {
    id: idColumn(),
    lessonId: refColumn('lesson_id', () => courseLessons.id),
    kind: text('kind', { enum: ['attachment', 'caption'] }).notNull(),
    name: text('name').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    language: text('language'),
    label: text('label'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('course_files_lesson_idx').on(t.lessonId, t.position)],
);

/** When a drip lesson first opened for an enrolment: an open lesson never closes again (ADR 033). */
export const courseLessonOpens = pgTable(
  'course_lesson_opens',
  {
    entitlementId: refColumn('entitlement_id', () => entitlements.id),
    lessonId: refColumn('lesson_id', () => courseLessons.id),
    openedAt: ts('opened_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entitlementId, t.lessonId], name: 'course_lesson_opens_pk' })],
);

/** Where a buyer is in a lesson, and whether they completed it (completion only moves forward). */
export const courseProgress = pgTable(
  'course_progress',
  {
    userId: userColumn(),
    lessonId: refColumn('lesson_id', () => courseLessons.id),
    courseId: refColumn('course_id', () => courses.id),
    positionSeconds: integer('position_seconds').notNull().default(0),
    completedAt: ts('completed_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.lessonId], name: 'course_progress_pk' }),
    index('course_progress_user_course_idx').on(t.userId, t.courseId, t.updatedAt),
  ],
);
