// Use cases: the vendor's course products with counts, and one course's whole outline for its
// builder (live modules and lessons with notes, media and drip; deleted lessons to undo).
import type { VendorCourse, VendorCourseSummary } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { vendorProductCursor, vendorProductPage, type VendorProductRow } from '../catalog/index.ts';
import { filesOf, outlinesOf } from './repository.ts';

const VENDOR_COURSES_CURSOR = vendorProductCursor('vendor-courses');

export async function vendorCourses(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ courses: VendorCourseSummary[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { products, nextCursor } = await vendorProductPage(deps, vendorId, VENDOR_COURSES_CURSOR, {
    ...page,
    kinds: ['course'],
  });
  const ids = products.map((p) => p.id);
  const counts = new Map<string, Record<string, number | string | null>>();
  if (ids.length) {
    const found = await db.execute<Record<string, number | string | null>>(sql`
      select c.product_id, c.id as course_id,
        (select count(*) from course_modules m where m.course_id = c.id and m.deleted_at is null)::int as modules,
        (select count(*) from course_lessons l join course_modules m on m.id = l.module_id
          where l.course_id = c.id and l.deleted_at is null and m.deleted_at is null)::int as lessons,
        (select count(*) from course_lessons l join course_modules m on m.id = l.module_id
          where l.course_id = c.id and l.deleted_at is null and m.deleted_at is null
            and l.video_key is not null)::int as videos,
        (select count(distinct p.user_id) from course_progress p where p.course_id = c.id)::int as learners
      from courses c where c.product_id = any(${sql.param(ids)}::text[])`);
    for (const r of found.rows) counts.set(String(r.product_id), r);
  }
  return {
    courses: products.map((p) => {
      const c = counts.get(p.id);
      return {
        productId: p.id,
        courseId: (c?.course_id as string | undefined) ?? null,
        title: p.title,
        slug: p.slug,
        isActive: p.isActive,
        moduleCount: Number(c?.modules ?? 0),
        lessonCount: Number(c?.lessons ?? 0),
        videoCount: Number(c?.videos ?? 0),
        learners: Number(c?.learners ?? 0),
      };
    }),
    nextCursor,
  };
}

interface LessonExtra extends Record<string, unknown> {
  id: string;
  video_name: string | null;
  video_bytes: number | string | null;
}

/** The builder's view of a product's course (an empty outline before the first module). */
export async function vendorCourseView(
  deps: AppDeps,
  product: VendorProductRow,
): Promise<VendorCourse> {
  const db = deps.database.db;
  const base = {
    productId: product.id,
    title: product.title,
    slug: product.slug,
    isActive: product.isActive,
  };
  const course = (
    await db.execute<{ id: string }>(sql`select id from courses where product_id = ${product.id}`)
  ).rows[0];
  if (!course) return { ...base, courseId: null, modules: [], deleted: [] };
  const { modules, lessons } = await outlinesOf(db, [course.id]);
  const ids = lessons.map((l) => l.id);
  const [files, extras, learners, deleted] = await Promise.all([
    filesOf(db, ids),
    db.execute<LessonExtra>(sql`select id, video_name, video_bytes from course_lessons
      where course_id = ${course.id} and deleted_at is null`),
    db.execute<{ lesson_id: string; n: number }>(sql`select lesson_id, count(*)::int as n
      from course_progress where course_id = ${course.id} group by lesson_id`),
    db.execute<{ id: string; title: string; module_title: string; deleted_at: Date | string }>(sql`
      select l.id, l.title, m.title as module_title, l.deleted_at from course_lessons l
      join course_modules m on m.id = l.module_id
      where l.course_id = ${course.id} and l.deleted_at is not null
      order by l.deleted_at desc, l.id limit 50`),
  ]);
  const extra = new Map(extras.rows.map((r) => [r.id, r]));
  const learnersOf = new Map(learners.rows.map((r) => [r.lesson_id, Number(r.n)]));
  return {
    ...base,
    courseId: course.id,
    modules: modules.map((mod) => ({
      id: mod.id,
      title: mod.title,
      position: mod.position,
      lessons: lessons
        .filter((l) => l.module_id === mod.id)
        .map((l) => {
          const x = extra.get(l.id);
          return {
            id: l.id,
            moduleId: l.module_id,
            title: l.title,
            position: l.position,
            kind: l.video_key ? ('video' as const) : ('text' as const),
            body: l.body,
            dripDays: l.drip_days,
            preview: l.preview,
            durationSeconds: l.duration_seconds,
            video:
              l.video_id && l.video_key
                ? {
                    id: l.video_id,
                    name: x?.video_name ?? null,
                    sizeBytes: x?.video_bytes == null ? null : Number(x.video_bytes),
                    contentType: l.video_type ?? 'video/mp4',
                  }
                : null,
            attachments: files
              .filter((f) => f.lesson_id === l.id && f.kind === 'attachment')
              .map((f) => ({
                id: f.id,
                name: f.name,
                sizeBytes: f.size_bytes,
                contentType: f.content_type,
              })),
            learners: learnersOf.get(l.id) ?? 0,
          };
        }),
    })),
    deleted: deleted.rows.map((r) => ({
      id: r.id,
      title: r.title,
      moduleTitle: r.module_title,
      deletedAt: new Date(r.deleted_at).toISOString(),
    })),
  };
}
