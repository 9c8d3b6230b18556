// Use cases: the vendor uploads a lesson's video or attachments, streamed to the storage port
// (platform/uploads.ts, ADR 048). The type comes from the first bytes, the size is capped while
// streaming, the client's file name is only a download name (no paths), and the storage key is the
// server's own.
import {
  COURSE_ATTACHMENT_MAX_BYTES,
  LESSON_ATTACHMENTS_MAX,
  vendorCourseMessages as m,
  type CourseVideoType,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import type { FileReader } from '../../platform/multipart.ts';
import { rules } from '../../platform/rate-limit.ts';
import {
  sniffAttachment,
  sniffVideo,
  TextCheck,
  type AttachmentType,
} from '../../platform/sniff.ts';
import { uploadFile, type FileRules } from '../../platform/uploads.ts';
import {
  dropUnusedObject,
  lessonIn,
  lockCourse,
  ownCourse,
  ownCourseProduct,
} from './vendor-access.ts';
import { vendorCourseView } from './vendor-read.ts';

const videoRules = (limit: { maxBytes: number; tooLarge: string }): FileRules<CourseVideoType> => ({
  ...limit,
  missing: m.fileMissing,
  wrongType: m.videoType,
  sniff: (head) => sniffVideo(head),
  keepsName: true,
});

/** How large an attachment may be: checked on the declared length and again while streaming. */
export const attachmentLimit = {
  maxBytes: COURSE_ATTACHMENT_MAX_BYTES,
  tooLarge: m.attachmentTooLarge,
};

const attachmentRules: FileRules<AttachmentType> = {
  ...attachmentLimit,
  missing: m.fileMissing,
  wrongType: m.attachmentType,
  sniff: (head, name, whole) => sniffAttachment(head, name, whole),
  // Text is taken as text only if it stays text to the end.
  follow: (type) => (type.startsWith('text/') ? new TextCheck() : null),
  keepsName: true,
};

const extension: Record<CourseVideoType, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };

/** The lesson a file is uploaded to, and the signed-in user uploading it (the upload limit's key). */
export interface LessonUpload {
  userId: string;
  vendorId: string;
  productId: string;
  lessonId: string;
}

/**
 * The caller's lesson, checked before the body is read: nothing is stored for a lesson that is not
 * theirs.
 */
async function lessonUpload(
  deps: AppDeps,
  { userId, vendorId, productId, lessonId }: LessonUpload,
) {
  await deps.limiter.consume([{ rule: rules.mediaUpload, key: userId }]);
  const own = await ownCourse(deps, vendorId, productId);
  const { courseId, videoBytes } = await deps.database.db.transaction(async (tx) => {
    const id = await lockCourse(tx, own.product.id);
    const lesson = await lessonIn(tx, id, lessonId);
    return { courseId: id, videoBytes: Number(lesson.video_bytes ?? 0) };
  });
  return { ...own, courseId, videoBytes };
}

export async function uploadLessonVideo(
  deps: AppDeps,
  to: LessonUpload,
  read: FileReader,
  limit: { maxBytes: number; tooLarge: string },
) {
  const { userId, lessonId } = to;
  let own: Awaited<ReturnType<typeof lessonUpload>> | undefined;
  let old: string | null = null;
  await uploadFile(
    deps,
    userId,
    read,
    videoRules(limit),
    async () => {
      own = await lessonUpload(deps, to);
      const prefix = `courses/${own.courseId}/${lessonId}`;
      return {
        vendorId: own.vendorId,
        key: (type) => `${prefix}/${newId('vid')}.${extension[type]}`,
        replaces: own.videoBytes,
      };
    },
    (file) =>
      deps.database.db.transaction(async (tx) => {
        const lesson = await lessonIn(tx, await lockCourse(tx, own!.product.id), lessonId);
        old = lesson.video_key;
        // A new public id: links to the old video stop resolving to the new one's file.
        await tx.execute(sql`update course_lessons set kind = 'video', video_id = ${newId('vid')},
            video_key = ${file.key}, video_type = ${file.type}, video_name = ${file.name},
            video_bytes = ${file.size}
          where id = ${lessonId}`);
        await file.withinBudget(tx);
      }),
  );
  await dropUnusedObject(deps, old);
  return vendorCourseView(deps, own!.product);
}

export async function uploadLessonAttachment(deps: AppDeps, to: LessonUpload, read: FileReader) {
  const { userId, lessonId } = to;
  let own: Awaited<ReturnType<typeof lessonUpload>> | undefined;
  await uploadFile(
    deps,
    userId,
    read,
    attachmentRules,
    async () => {
      own = await lessonUpload(deps, to);
      const key = `courses/${own.courseId}/${lessonId}/${newId('att')}`;
      return { vendorId: own.vendorId, key: () => key };
    },
    (file) =>
      deps.database.db.transaction(async (tx) => {
        await lessonIn(tx, await lockCourse(tx, own!.product.id), lessonId);
        const next = (
          await tx.execute<{ n: number; count: number }>(sql`select
            coalesce(max(position) + 1, 0)::int as n, count(*)::int as count
            from course_files where lesson_id = ${lessonId} and kind = 'attachment'`)
        ).rows[0]!;
        if (next.count >= LESSON_ATTACHMENTS_MAX)
          throw new AppError('business_rule', m.tooManyAttachments, { file: m.tooManyAttachments });
        await tx.execute(sql`insert into course_files (id, lesson_id, kind, name, storage_key,
            content_type, size_bytes, position)
          values (${newId('att')}, ${lessonId}, 'attachment', ${file.name}, ${file.key}, ${file.type},
            ${file.size}, ${next.n})`);
        await file.withinBudget(tx);
      }),
  );
  return vendorCourseView(deps, own!.product);
}

export async function deleteLessonAttachment(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  lessonId: string,
  fileId: string,
) {
  const product = await ownCourseProduct(deps, vendorId, productId);
  const key = await deps.database.db.transaction(async (tx) => {
    await lessonIn(tx, await lockCourse(tx, product.id), lessonId);
    const gone = await tx.execute<{ storage_key: string }>(sql`delete from course_files
      where id = ${fileId} and lesson_id = ${lessonId} and kind = 'attachment'
      returning storage_key`);
    if (!gone.rows.length) throw new AppError('not_found', m.fileNotFound);
    return gone.rows[0]!.storage_key;
  });
  await dropUnusedObject(deps, key);
  return vendorCourseView(deps, product);
}
