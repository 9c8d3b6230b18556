// Who may build a course: the vendor of the product (ADR 039). No storefront: 403; a product of
// another vendor, or not a course: 404, as if it did not exist.
import { vendorCourseMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorProductOfKind, type VendorProductRow } from '../catalog/index.ts';

export const courseMissing = () => new AppError('not_found', m.courseNotFound);
export const moduleMissing = () => new AppError('not_found', m.moduleNotFound);
export const lessonMissing = () => new AppError('not_found', m.lessonNotFound);

/** The caller's course product, or 404. */
export async function ownCourseProduct(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<VendorProductRow> {
  return (await ownCourse(deps, vendorId, productId)).product;
}

/** The caller's course product and their vendor id, or 404. */
export async function ownCourse(deps: AppDeps, vendorId: string, productId: string) {
  const product = await vendorProductOfKind(deps.database.db, vendorId, productId, 'course');
  if (!product) throw courseMissing();
  return { vendorId, product };
}

/**
 * The product's course row, made on the first edit, and locked: edits of one course take turns, so
 * positions and limits are decided on what the previous edit left.
 */
export async function lockCourse(tx: Tx, productId: string): Promise<string> {
  await tx.execute(sql`insert into courses (id, product_id) values (${newId('crs')}, ${productId})
    on conflict (product_id) do nothing`);
  const found = await tx.execute<{ id: string }>(
    sql`select id from courses where product_id = ${productId} for update`,
  );
  return found.rows[0]!.id;
}

export interface OwnLesson extends Record<string, unknown> {
  id: string;
  module_id: string;
  video_key: string | null;
  video_bytes: string | number | null;
  deleted_at: Date | string | null;
}

/** A lesson of the course (live only unless `deleted` says otherwise), or 404. */
export async function lessonIn(
  tx: Tx,
  courseId: string,
  lessonId: string,
  deleted: 'live' | 'deleted' = 'live',
): Promise<OwnLesson> {
  const found =
    await tx.execute<OwnLesson>(sql`select l.id, l.module_id, l.video_key, l.video_bytes,
      l.deleted_at
    from course_lessons l join course_modules m on m.id = l.module_id
    where l.id = ${lessonId} and l.course_id = ${courseId}
      and ${deleted === 'live' ? sql`l.deleted_at is null and m.deleted_at is null` : sql`l.deleted_at is not null`}`);
  const lesson = found.rows[0];
  if (!lesson) throw lessonMissing();
  return lesson;
}

/** Removes a stored object unless a lesson or file still points at it (demo media are shared). */
export async function dropUnusedObject(deps: AppDeps, key: string | null): Promise<void> {
  if (!key) return;
  const used = await deps.database.db.execute(sql`
    select 1 from course_lessons where video_key = ${key}
    union all select 1 from course_files where storage_key = ${key} limit 1`);
  if (!used.rows.length) await deps.storage.delete(key);
}

/** What the vendor's course videos and files take in storage (their budget, ADR 048). */
export async function storedCourseBytes(db: Tx, vendorId: string): Promise<number> {
  const found = await db.execute<{ bytes: string }>(sql`select
      (select coalesce(sum(l.video_bytes), 0) from course_lessons l
        join courses c on c.id = l.course_id join products p on p.id = c.product_id
        where p.vendor_id = ${vendorId} and l.video_key is not null)
    + (select coalesce(sum(f.size_bytes), 0) from course_files f
        join course_lessons l on l.id = f.lesson_id join courses c on c.id = l.course_id
        join products p on p.id = c.product_id where p.vendor_id = ${vendorId}) as bytes`);
  return Number(found.rows[0]!.bytes);
}
