// What several course use cases read: a course's outline, files, opens and progress (courses' own
// tables only; enrolments come from access, product names from catalog).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface LessonRow {
  id: string;
  course_id: string;
  module_id: string;
  title: string;
  position: number;
  kind: 'video' | 'text';
  body: string;
  video_id: string | null;
  video_key: string | null;
  video_type: string | null;
  duration_seconds: number | null;
  preview: boolean;
  drip_days: number;
}

export interface ModuleRow {
  id: string;
  course_id: string;
  title: string;
  position: number;
}

export interface FileRow {
  id: string;
  lesson_id: string;
  kind: 'attachment' | 'caption';
  name: string;
  storage_key: string;
  content_type: string;
  size_bytes: number;
  language: string | null;
  label: string | null;
}

export interface ProgressRow {
  lesson_id: string;
  position_seconds: number;
  completed_at: Date | string | null;
  updated_at: Date | string;
}

export interface CourseRow {
  id: string;
  product_id: string;
}

/** A course by its id or its product's id. */
export async function courseByIdOrProduct(db: Tx, id: string): Promise<CourseRow | null> {
  const found = await db.execute<CourseRow & Record<string, unknown>>(
    sql`select id, product_id from courses where id = ${id} or product_id = ${id} limit 1`,
  );
  return found.rows[0] ?? null;
}

export async function coursesOfProducts(
  db: Tx,
  productIds: readonly string[],
): Promise<CourseRow[]> {
  if (!productIds.length) return [];
  const found = await db.execute<CourseRow & Record<string, unknown>>(
    sql`select id, product_id from courses where product_id = any(${sql.param([...productIds])}::text[])`,
  );
  return found.rows;
}

/** The live (not deleted) modules and lessons of courses, in course order. */
export async function outlinesOf(
  db: Tx,
  courseIds: readonly string[],
): Promise<{ modules: ModuleRow[]; lessons: LessonRow[] }> {
  if (!courseIds.length) return { modules: [], lessons: [] };
  const ids = sql.param([...courseIds]);
  const modules = await db.execute<ModuleRow & Record<string, unknown>>(
    sql`select id, course_id, title, position from course_modules
        where course_id = any(${ids}::text[]) and deleted_at is null
        order by course_id, position, id`,
  );
  const lessons = await db.execute<LessonRow & Record<string, unknown>>(
    sql`select l.id, l.course_id, l.module_id, l.title, l.position, l.kind, l.body, l.video_id,
          l.video_key, l.video_type, l.duration_seconds, l.preview, l.drip_days
        from course_lessons l join course_modules m on m.id = l.module_id
        where l.course_id = any(${ids}::text[]) and l.deleted_at is null and m.deleted_at is null
        order by l.course_id, m.position, l.position, l.id`,
  );
  return { modules: modules.rows, lessons: lessons.rows };
}

export async function filesOf(db: Tx, lessonIds: readonly string[]): Promise<FileRow[]> {
  if (!lessonIds.length) return [];
  const found = await db.execute<FileRow & Record<string, unknown>>(
    sql`select id, lesson_id, kind, name, storage_key, content_type, size_bytes, language, label
        from course_files where lesson_id = any(${sql.param([...lessonIds])}::text[])
        order by lesson_id, position, id`,
  );
  return found.rows;
}

/** When each lesson first opened for any of these enrolments. */
export async function opensOf(
  db: Tx,
  entitlementIds: readonly string[],
): Promise<Map<string, Date>> {
  if (!entitlementIds.length) return new Map();
  const found = await db.execute<{ lesson_id: string; opened_at: Date | string }>(
    sql`select lesson_id, min(opened_at) as opened_at from course_lesson_opens
        where entitlement_id = any(${sql.param([...entitlementIds])}::text[]) group by lesson_id`,
  );
  return new Map(found.rows.map((r) => [r.lesson_id, new Date(r.opened_at)]));
}

/** Records lessons that opened (first time only): an open lesson never closes again. */
export async function recordOpens(
  db: Tx,
  opens: ReadonlyArray<{ entitlementId: string; lessonId: string; openedAt: Date }>,
): Promise<void> {
  if (!opens.length) return;
  await db.execute(sql`insert into course_lesson_opens (entitlement_id, lesson_id, opened_at)
    values ${sql.join(
      opens.map((o) => sql`(${o.entitlementId}, ${o.lessonId}, ${o.openedAt})`),
      sql`, `,
    )}
    on conflict do nothing`);
}

export async function progressOf(
  db: Tx,
  userId: string,
  courseIds: readonly string[],
): Promise<Map<string, ProgressRow>> {
  if (!courseIds.length) return new Map();
  const found = await db.execute<ProgressRow & Record<string, unknown>>(
    sql`select lesson_id, position_seconds, completed_at, updated_at from course_progress
        where user_id = ${userId} and course_id = any(${sql.param([...courseIds])}::text[])`,
  );
  return new Map(found.rows.map((r) => [r.lesson_id, r]));
}
