// Use cases: the vendor edits a course's outline — modules, lessons, order, notes, drip, preview —
// and deletes or restores lessons. Deletes are soft (ADR 044): buyers stop seeing the lesson and its
// media at once, their progress stays, and the vendor can undo. Every edit answers the new outline,
// which is also what buyers' course pages read from then on.
import {
  COURSE_MODULES_MAX,
  MODULE_LESSONS_MAX,
  vendorCourseMessages as m,
  type CourseOrderBody,
  type LessonPatchBody,
  type VendorCourse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { setDripDays } from './drip.ts';
import {
  dropUnusedObject,
  lessonIn,
  lockCourse,
  moduleMissing,
  ownCourseProduct,
} from './vendor-access.ts';
import { vendorCourseView } from './vendor-read.ts';

/** Runs `edit` on the caller's course (locked, made if missing) and answers the outline after it. */
async function editCourse(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  edit: (tx: Tx, courseId: string) => Promise<void>,
): Promise<VendorCourse> {
  const product = await ownCourseProduct(deps, vendorId, productId);
  await deps.database.db.transaction(async (tx) => edit(tx, await lockCourse(tx, product.id)));
  return vendorCourseView(deps, product);
}

export async function vendorCourse(deps: AppDeps, vendorId: string, productId: string) {
  return vendorCourseView(deps, await ownCourseProduct(deps, vendorId, productId));
}

async function liveModule(tx: Tx, courseId: string, moduleId: string): Promise<void> {
  const found = await tx.execute(sql`select 1 from course_modules
    where id = ${moduleId} and course_id = ${courseId} and deleted_at is null`);
  if (!found.rows.length) throw moduleMissing();
}

const nextModulePosition = (tx: Tx, courseId: string) =>
  tx.execute<{ n: number; count: number }>(sql`select coalesce(max(position) + 1, 0)::int as n,
    count(*)::int as count from course_modules where course_id = ${courseId} and deleted_at is null`);

const nextLessonPosition = (tx: Tx, moduleId: string) =>
  tx.execute<{ n: number; count: number }>(sql`select coalesce(max(position) + 1, 0)::int as n,
    count(*)::int as count from course_lessons where module_id = ${moduleId} and deleted_at is null`);

export function addModule(deps: AppDeps, vendorId: string, productId: string, title: string) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    const next = (await nextModulePosition(tx, courseId)).rows[0]!;
    if (next.count >= COURSE_MODULES_MAX)
      throw new AppError('business_rule', m.tooManyModules, { title: m.tooManyModules });
    await tx.execute(sql`insert into course_modules (id, course_id, title, position)
      values (${newId('cmod')}, ${courseId}, ${title}, ${next.n})`);
  });
}

export function renameModule(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  moduleId: string,
  title: string,
) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    await liveModule(tx, courseId, moduleId);
    await tx.execute(sql`update course_modules set title = ${title} where id = ${moduleId}`);
  });
}

/** A module and its lessons go together, with one time, so restoring a lesson can bring it back. */
export function deleteModule(deps: AppDeps, vendorId: string, productId: string, moduleId: string) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    await liveModule(tx, courseId, moduleId);
    await tx.execute(sql`update course_lessons set deleted_at = now()
      where module_id = ${moduleId} and deleted_at is null`);
    await tx.execute(sql`update course_modules set deleted_at = now() where id = ${moduleId}`);
  });
}

/** The new order must name exactly the live modules, and every live lesson once. */
export function reorderCourse(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  order: CourseOrderBody,
) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    const modules = (
      await tx.execute<{ id: string }>(sql`select id from course_modules
        where course_id = ${courseId} and deleted_at is null`)
    ).rows.map((r) => r.id);
    const lessons = (
      await tx.execute<{ id: string }>(sql`select l.id from course_lessons l
        join course_modules m on m.id = l.module_id
        where l.course_id = ${courseId} and l.deleted_at is null and m.deleted_at is null`)
    ).rows.map((r) => r.id);
    const sameSet = (a: readonly string[], b: readonly string[]) =>
      a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id));
    const named = order.modules.flatMap((mod) => mod.lessons);
    if (
      !sameSet(
        order.modules.map((mod) => mod.id),
        modules,
      ) ||
      !sameSet(named, lessons)
    )
      throw new AppError('conflict', m.orderMismatch);
    if (order.modules.some((mod) => mod.lessons.length > MODULE_LESSONS_MAX))
      throw new AppError('business_rule', m.tooManyLessons);
    for (const [i, mod] of order.modules.entries()) {
      await tx.execute(sql`update course_modules set position = ${i} where id = ${mod.id}`);
      if (mod.lessons.length)
        await tx.execute(sql`update course_lessons l set module_id = ${mod.id}, position = o.pos
          from unnest(${sql.param(mod.lessons)}::text[]) with ordinality as o(id, pos)
          where l.id = o.id`);
    }
  });
}

export async function addLesson(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  input: { moduleId: string; title: string },
) {
  const lessonId = newId('les');
  const course = await editCourse(deps, vendorId, productId, async (tx, courseId) => {
    await liveModule(tx, courseId, input.moduleId);
    const next = (await nextLessonPosition(tx, input.moduleId)).rows[0]!;
    if (next.count >= MODULE_LESSONS_MAX)
      throw new AppError('business_rule', m.tooManyLessons, { title: m.tooManyLessons });
    await tx.execute(sql`insert into course_lessons (id, course_id, module_id, title, position, kind)
      values (${lessonId}, ${courseId}, ${input.moduleId}, ${input.title}, ${next.n}, 'text')`);
  });
  return { course, lessonId };
}

export async function updateLesson(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  lessonId: string,
  patch: LessonPatchBody,
) {
  let removed: string | null = null;
  const course = await editCourse(deps, vendorId, productId, async (tx, courseId) => {
    const lesson = await lessonIn(tx, courseId, lessonId);
    const sets = [
      patch.title !== undefined ? sql`title = ${patch.title}` : null,
      patch.body !== undefined ? sql`body = ${patch.body}` : null,
      patch.preview !== undefined ? sql`preview = ${patch.preview}` : null,
      patch.durationSeconds !== undefined ? sql`duration_seconds = ${patch.durationSeconds}` : null,
      patch.removeVideo
        ? sql`kind = 'text', video_id = null, video_key = null, video_type = null,
            video_name = null, video_bytes = null`
        : null,
    ].filter((s) => s !== null);
    if (sets.length)
      await tx.execute(
        sql`update course_lessons set ${sql.join(sets, sql`, `)} where id = ${lessonId}`,
      );
    if (patch.removeVideo) removed = lesson.video_key;
  });
  // Drip goes through its own use case: lessons already open for a buyer stay open (ADR 033).
  if (patch.dripDays !== undefined) {
    await setDripDays(deps.database.db, lessonId, patch.dripDays);
    const product = await ownCourseProduct(deps, vendorId, productId);
    await dropUnusedObject(deps, removed);
    return vendorCourseView(deps, product);
  }
  await dropUnusedObject(deps, removed);
  return course;
}

export function deleteLesson(deps: AppDeps, vendorId: string, productId: string, lessonId: string) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    await lessonIn(tx, courseId, lessonId);
    await tx.execute(sql`update course_lessons set deleted_at = now() where id = ${lessonId}`);
  });
}

/** Back at the end of its module; a deleted module comes back (at the end) with it. */
export function restoreLesson(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  lessonId: string,
) {
  return editCourse(deps, vendorId, productId, async (tx, courseId) => {
    const lesson = await lessonIn(tx, courseId, lessonId, 'deleted');
    const mod = (
      await tx.execute<{ deleted: boolean }>(sql`select deleted_at is not null as deleted
        from course_modules where id = ${lesson.module_id}`)
    ).rows[0]!;
    if (mod.deleted) {
      const next = (await nextModulePosition(tx, courseId)).rows[0]!;
      if (next.count >= COURSE_MODULES_MAX) throw new AppError('business_rule', m.tooManyModules);
      await tx.execute(sql`update course_modules set deleted_at = null, position = ${next.n}
        where id = ${lesson.module_id}`);
    }
    const next = (await nextLessonPosition(tx, lesson.module_id)).rows[0]!;
    if (next.count >= MODULE_LESSONS_MAX) throw new AppError('business_rule', m.tooManyLessons);
    await tx.execute(sql`update course_lessons set deleted_at = null, position = ${next.n}
      where id = ${lessonId}`);
  });
}
