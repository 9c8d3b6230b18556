// Use cases: the vendor uploads a lesson's video or attachments through the storage port. The type
// comes from the bytes, the size is capped while reading, the client's file name is only a
// download name (no paths), and the storage key is the server's own.
import {
  LESSON_ATTACHMENTS_MAX,
  uploadNameProblem,
  vendorCourseMessages as m,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import type { FilePart } from '../../platform/multipart.ts';
import { rules } from '../../platform/rate-limit.ts';
import { sniffAttachment, sniffVideo } from '../../platform/sniff.ts';
import { dropUnusedObject, lessonIn, lockCourse, ownCourseProduct } from './vendor-access.ts';
import { vendorCourseView } from './vendor-read.ts';

type ReadFile = () => Promise<FilePart | null>;

/** The file's bytes and a safe display name, or the 4xx that says what is wrong. */
async function readChecked(readFile: ReadFile, maxBytes: number, tooLarge: string) {
  const file = await readFile();
  if (!file || file.bytes.length === 0)
    throw new AppError('validation_failed', m.fileMissing, { file: m.fileMissing });
  if (file.truncated || file.bytes.length > maxBytes)
    throw new AppError('payload_too_large', tooLarge, { file: tooLarge });
  const problem = uploadNameProblem(file.filename);
  if (problem) throw new AppError('validation_failed', problem, { file: problem });
  return { bytes: file.bytes, name: file.filename.trim() };
}

const wrongType = (message: string) =>
  new AppError('unsupported_media_type', message, { file: message });

const extension: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };

export async function uploadLessonVideo(
  deps: AppDeps,
  userId: string,
  productId: string,
  lessonId: string,
  readFile: ReadFile,
  limit: { maxBytes: number; message: string },
) {
  await deps.limiter.consume([{ rule: rules.mediaUpload, key: userId }]);
  const product = await ownCourseProduct(deps, userId, productId);
  const db = deps.database.db;
  // Checked before the body is read: nothing is stored for a lesson that is not the caller's.
  const courseId = await db.transaction(async (tx) => {
    const id = await lockCourse(tx, product.id);
    await lessonIn(tx, id, lessonId);
    return id;
  });
  const file = await readChecked(readFile, limit.maxBytes, limit.message);
  const type = sniffVideo(file.bytes);
  if (!type) throw wrongType(m.videoType);
  const key = `courses/${courseId}/${lessonId}/${newId('vid')}.${extension[type]}`;
  await deps.storage.put(key, file.bytes, type);
  let old: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const lesson = await lessonIn(tx, await lockCourse(tx, product.id), lessonId);
      old = lesson.video_key;
      // A new public id: links to the old video stop resolving to the new one's file.
      await tx.execute(sql`update course_lessons set kind = 'video', video_id = ${newId('vid')},
          video_key = ${key}, video_type = ${type}, video_name = ${file.name},
          video_bytes = ${file.bytes.length}
        where id = ${lessonId}`);
    });
  } catch (err) {
    await deps.storage.delete(key);
    throw err;
  }
  await dropUnusedObject(deps, old);
  return vendorCourseView(deps, product);
}

export async function uploadLessonAttachment(
  deps: AppDeps,
  userId: string,
  productId: string,
  lessonId: string,
  readFile: ReadFile,
  maxBytes: number,
) {
  await deps.limiter.consume([{ rule: rules.mediaUpload, key: userId }]);
  const product = await ownCourseProduct(deps, userId, productId);
  const db = deps.database.db;
  const courseId = await db.transaction(async (tx) => {
    const id = await lockCourse(tx, product.id);
    await lessonIn(tx, id, lessonId);
    return id;
  });
  const file = await readChecked(readFile, maxBytes, m.attachmentTooLarge);
  const type = sniffAttachment(file.bytes, file.name);
  if (!type) throw wrongType(m.attachmentType);
  const key = `courses/${courseId}/${lessonId}/${newId('att')}`;
  await deps.storage.put(key, file.bytes, type);
  try {
    await db.transaction(async (tx) => {
      await lessonIn(tx, await lockCourse(tx, product.id), lessonId);
      const next = (
        await tx.execute<{ n: number; count: number }>(sql`select
          coalesce(max(position) + 1, 0)::int as n, count(*)::int as count
          from course_files where lesson_id = ${lessonId} and kind = 'attachment'`)
      ).rows[0]!;
      if (next.count >= LESSON_ATTACHMENTS_MAX)
        throw new AppError('business_rule', m.tooManyAttachments, { file: m.tooManyAttachments });
      await tx.execute(sql`insert into course_files (id, lesson_id, kind, name, storage_key,
          content_type, size_bytes, position)
        values (${newId('att')}, ${lessonId}, 'attachment', ${file.name}, ${key}, ${type},
          ${file.bytes.length}, ${next.n})`);
    });
  } catch (err) {
    await deps.storage.delete(key);
    throw err;
  }
  return vendorCourseView(deps, product);
}

export async function deleteLessonAttachment(
  deps: AppDeps,
  userId: string,
  productId: string,
  lessonId: string,
  fileId: string,
) {
  const product = await ownCourseProduct(deps, userId, productId);
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
