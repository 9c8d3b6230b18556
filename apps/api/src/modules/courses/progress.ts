// Use case: record where the buyer is in an opened lesson. Completion only moves forward, unless
// the buyer resets it; the position is bounded by the lesson's length.
import { courseMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { courseByIdOrProduct, outlinesOf, progressOf, type ProgressRow } from './repository.ts';
import { accessTo, progressView, summaryOf } from './state.ts';

export async function recordProgress(
  deps: AppDeps,
  userId: string,
  courseId: string,
  lessonId: string,
  input: { positionSeconds: number; completed?: boolean | undefined; reset?: boolean | undefined },
) {
  const db = deps.database.db;
  const course = await courseByIdOrProduct(db, courseId);
  if (!course) throw new AppError('not_found', m.courseNotFound);
  const { lessons } = await outlinesOf(db, [course.id]);
  const lesson = lessons.find((l) => l.id === lessonId);
  if (!lesson) throw new AppError('not_found', m.lessonNotFound);
  const access = (await accessTo(db, userId, [course], lessons)).get(course.id)!;
  if (!access.enrolment) throw new AppError('forbidden', m.notEnrolled);
  if (!access.states.get(lesson.id)?.open) throw new AppError('forbidden', m.lockedUntil);

  const position = Math.min(
    input.positionSeconds,
    lesson.duration_seconds ?? input.positionSeconds,
  );
  const complete = input.completed === true;
  const reset = input.reset === true && !complete;
  const saved = await db.execute<ProgressRow & Record<string, unknown>>(sql`
    insert into course_progress (user_id, lesson_id, course_id, position_seconds, completed_at, updated_at)
    values (${userId}, ${lesson.id}, ${course.id}, ${position}, ${complete ? sql`now()` : null}, now())
    on conflict (user_id, lesson_id) do update set
      position_seconds = excluded.position_seconds,
      completed_at = ${
        reset ? sql`null` : sql`coalesce(course_progress.completed_at, excluded.completed_at)`
      },
      updated_at = now()
    returning lesson_id, position_seconds, completed_at, updated_at`);
  const progress = await progressOf(db, userId, [course.id]);
  return {
    lessonId: lesson.id,
    progress: progressView(saved.rows[0])!,
    course: summaryOf(lessons, progress),
  };
}
