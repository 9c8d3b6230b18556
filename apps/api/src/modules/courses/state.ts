// Which lessons are open to a caller, and progress over them: the rules every course use case shares
// (ADR 033). Drip counts from the earliest live enrolment; a lesson that opened stays open.
import type {
  CourseProgressSummary,
  CourseResume,
  LessonLockReason,
  LessonProgress,
} from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import { days } from '../../lib.ts';
import { liveEnrolments, type Enrolment } from '../access/index.ts';
import {
  opensOf,
  recordOpens,
  type LessonRow,
  type ModuleRow,
  type ProgressRow,
} from './repository.ts';

export interface LessonState {
  open: boolean;
  lockReason: LessonLockReason | null;
  /** When it opened (open drip lessons) or will open (locked drip lessons). */
  opensAt: Date | null;
}

export interface Access {
  /** The earliest live enrolment in the course, or null. */
  enrolment: Enrolment | null;
  states: Map<string, LessonState>;
}

/**
 * Works out what is open for `userId` (null: signed out) in each course, records drip lessons that
 * opened since last time, and returns the states per lesson id.
 */
export async function accessTo(
  db: Tx,
  userId: string | null,
  courses: ReadonlyArray<{ id: string; product_id: string }>,
  lessons: readonly LessonRow[],
  now = new Date(),
): Promise<Map<string, Access>> {
  const enrolments = userId
    ? await liveEnrolments(
        db,
        userId,
        courses.map((c) => c.product_id),
      )
    : [];
  const opens = await opensOf(
    db,
    enrolments.map((e) => e.entitlementId),
  );
  const out = new Map<string, Access>();
  const newlyOpen: Array<{ entitlementId: string; lessonId: string; openedAt: Date }> = [];
  for (const course of courses) {
    const enrolment = enrolments.find((e) => e.productId === course.product_id) ?? null;
    const states = new Map<string, LessonState>();
    for (const lesson of lessons) {
      if (lesson.course_id !== course.id) continue;
      if (!enrolment) {
        states.set(lesson.id, {
          open: lesson.preview,
          lockReason: lesson.preview ? null : 'not_enrolled',
          opensAt: null,
        });
        continue;
      }
      const dueAt = new Date(enrolment.startedAt.getTime() + days(lesson.drip_days));
      const recorded = opens.get(lesson.id) ?? null;
      const openedAt = recorded ?? (dueAt <= now ? dueAt : null);
      if (openedAt && !recorded && lesson.drip_days > 0)
        newlyOpen.push({ entitlementId: enrolment.entitlementId, lessonId: lesson.id, openedAt });
      const open = lesson.preview || openedAt !== null;
      states.set(lesson.id, {
        open,
        lockReason: open ? null : 'drip',
        opensAt: lesson.drip_days > 0 ? (openedAt ?? dueAt) : null,
      });
    }
    out.set(course.id, { enrolment, states });
  }
  await recordOpens(db, newlyOpen);
  return out;
}

export const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function progressView(row: ProgressRow | undefined): LessonProgress | null {
  if (!row) return null;
  return {
    positionSeconds: row.position_seconds,
    completed: row.completed_at !== null,
    completedAt: iso(row.completed_at),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function summaryOf(
  lessons: readonly LessonRow[],
  progress: Map<string, ProgressRow>,
): CourseProgressSummary {
  const total = lessons.length;
  const completed = lessons.filter((l) => progress.get(l.id)?.completed_at).length;
  return { completed, total, percent: total ? Math.round((completed / total) * 100) : 0 };
}

/**
 * Where to pick up: the open, unfinished lesson watched most recently; else the first open lesson not
 * completed; null when every open lesson is done.
 */
export function resumeOf(
  lessons: readonly LessonRow[],
  states: Map<string, LessonState>,
  progress: Map<string, ProgressRow>,
): CourseResume | null {
  const candidates = lessons.filter(
    (l) => states.get(l.id)?.open && !progress.get(l.id)?.completed_at,
  );
  const started = candidates
    .filter((l) => progress.has(l.id))
    .sort(
      (a, b) =>
        new Date(progress.get(b.id)!.updated_at).getTime() -
        new Date(progress.get(a.id)!.updated_at).getTime(),
    );
  const lesson = started[0] ?? candidates[0];
  if (!lesson) return null;
  return {
    lessonId: lesson.id,
    moduleId: lesson.module_id,
    title: lesson.title,
    positionSeconds: progress.get(lesson.id)?.position_seconds ?? 0,
  };
}

export function modulesOf(modules: readonly ModuleRow[], courseId: string): ModuleRow[] {
  return modules.filter((m) => m.course_id === courseId);
}
