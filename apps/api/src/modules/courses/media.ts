// Use cases: short-lived signed URLs of a lesson's video (with its caption tracks) and of its
// attachments, through the storage port. Only for lessons open to the caller (ADR 033).
import { courseMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { filesOf, type FileRow, type LessonRow } from './repository.ts';
import { accessTo, type LessonState } from './state.ts';

type LessonWithProduct = LessonRow & { product_id: string };

async function lessonWhere(deps: AppDeps, where: ReturnType<typeof sql>) {
  const found = await deps.database.db.execute<LessonWithProduct & Record<string, unknown>>(
    sql`select l.id, l.course_id, l.module_id, l.title, l.position, l.kind, l.body, l.video_id,
          l.video_key, l.video_type, l.duration_seconds, l.preview, l.drip_days, c.product_id
        from course_lessons l join courses c on c.id = l.course_id
        join course_modules m on m.id = l.module_id
        where ${where} and l.deleted_at is null and m.deleted_at is null limit 1`,
  );
  return found.rows[0] ?? null;
}

/** The caller's state in a lesson; 404 when the lesson is not theirs to know of. */
async function stateIn(
  deps: AppDeps,
  userId: string | null,
  lesson: LessonWithProduct,
  missing: string,
  opts: { previewForAnyone: boolean },
): Promise<LessonState> {
  const access = (
    await accessTo(
      deps.database.db,
      userId,
      [{ id: lesson.course_id, product_id: lesson.product_id }],
      [lesson],
    )
  ).get(lesson.course_id)!;
  const state = access.states.get(lesson.id)!;
  if (!access.enrolment) {
    if (opts.previewForAnyone && lesson.preview) return state;
    throw new AppError('not_found', missing);
  }
  if (!state.open) {
    const when = state.opensAt ? ` It opens on ${state.opensAt.toISOString().slice(0, 10)}.` : '';
    throw new AppError('forbidden', `${m.lockedUntil}${when}`);
  }
  return state;
}

const ttl = (deps: AppDeps) => deps.config.COURSE_MEDIA_TTL_SECONDS;

export async function videoUrl(deps: AppDeps, userId: string | null, videoId: string) {
  const lesson = await lessonWhere(deps, sql`l.video_id = ${videoId}`);
  if (!lesson?.video_key) throw new AppError('not_found', m.videoNotFound);
  await stateIn(deps, userId, lesson, m.videoNotFound, { previewForAnyone: true });
  const contentType = lesson.video_type ?? 'video/mp4';
  const video = await deps.storage.signedUrl(lesson.video_key, ttl(deps), { contentType });
  const captions = (await filesOf(deps.database.db, [lesson.id])).filter(
    (f) => f.kind === 'caption',
  );
  return {
    url: video.url,
    expiresAt: video.expiresAt.toISOString(),
    contentType,
    lessonId: lesson.id,
    captions: await Promise.all(
      captions.map(async (f) => {
        const signed = await deps.storage.signedUrl(f.storage_key, ttl(deps), {
          contentType: f.content_type,
        });
        return {
          language: f.language ?? 'en',
          label: f.label ?? f.name,
          url: signed.url,
          expiresAt: signed.expiresAt.toISOString(),
          contentType: f.content_type,
        };
      }),
    ),
  };
}

export async function attachmentUrl(deps: AppDeps, userId: string, fileId: string) {
  const found = await deps.database.db.execute<FileRow & Record<string, unknown>>(
    sql`select id, lesson_id, kind, name, storage_key, content_type, size_bytes, language, label
        from course_files where id = ${fileId} and kind = 'attachment'`,
  );
  const file = found.rows[0];
  const lesson = file ? await lessonWhere(deps, sql`l.id = ${file.lesson_id}`) : null;
  if (!file || !lesson) throw new AppError('not_found', m.attachmentNotFound);
  await stateIn(deps, userId, lesson, m.attachmentNotFound, { previewForAnyone: false });
  const signed = await deps.storage.signedUrl(file.storage_key, ttl(deps), {
    downloadName: file.name,
    contentType: file.content_type,
  });
  return {
    url: signed.url,
    expiresAt: signed.expiresAt.toISOString(),
    name: file.name,
    sizeBytes: file.size_bytes,
    contentType: file.content_type,
  };
}
