// Use case: a vendor changes when a lesson opens. Lessons already open for an enrolment stay open:
// their open time is recorded before the delay changes (ADR 033).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { days } from '../../lib.ts';
import { productEnrolments } from '../access/index.ts';
import { recordOpens } from './repository.ts';

export async function setDripDays(db: Db, lessonId: string, dripDays: number): Promise<void> {
  if (!Number.isInteger(dripDays) || dripDays < 0) throw new Error('drip days must be ≥ 0');
  await db.transaction(async (tx) => {
    const found = await tx.execute<{ drip_days: number; product_id: string }>(
      sql`select l.drip_days, c.product_id from course_lessons l join courses c on c.id = l.course_id
          where l.id = ${lessonId} for update of l`,
    );
    const lesson = found.rows[0];
    if (!lesson) return;
    // Every live enrolment for which the lesson is open under the old delay keeps it open.
    const now = Date.now();
    await recordOpens(
      tx,
      (await productEnrolments(tx, lesson.product_id)).flatMap((e) => {
        const openedAt = new Date(e.startedAt.getTime() + days(lesson.drip_days));
        return openedAt.getTime() <= now
          ? [{ entitlementId: e.entitlementId, lessonId, openedAt }]
          : [];
      }),
    );
    await tx.execute(sql`update course_lessons set drip_days = ${dripDays} where id = ${lessonId}`);
  });
}
