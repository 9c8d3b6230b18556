// Use case: the buyer's courses (live enrolments), with progress and where to pick up.
import type { CourseSummary } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind } from '../../platform/cursor.ts';
import { liveEnrolments } from '../access/index.ts';
import { itemSummaries } from '../catalog/index.ts';
import { coursesOfProducts, outlinesOf, progressOf } from './repository.ts';
import { accessTo, resumeOf, summaryOf } from './state.ts';

/** How many courses the pages before showed. */
const COURSES_CURSOR = cursorKind('courses', [cursorField.count(999_999)]);

export async function userCourses(
  deps: AppDeps,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ courses: CourseSummary[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const enrolments = await liveEnrolments(db, userId);
  // Newest enrolment first; one entry per course however many purchases enrol in it.
  const startedAt = new Map<string, Date>();
  for (const e of enrolments)
    if (!startedAt.has(e.productId)) startedAt.set(e.productId, e.startedAt);
  const all = (await coursesOfProducts(db, [...startedAt.keys()])).sort(
    (a, b) =>
      startedAt.get(b.product_id)!.getTime() - startedAt.get(a.product_id)!.getTime() ||
      a.id.localeCompare(b.id),
  );
  const [offset] = page.cursor ? deps.cursors.decode(COURSES_CURSOR, page.cursor) : [0];
  const courses = all.slice(offset, offset + page.limit);
  const nextCursor =
    offset + page.limit < all.length
      ? deps.cursors.encode(COURSES_CURSOR, [offset + page.limit])
      : null;
  if (!courses.length) return { courses: [], nextCursor: null };

  const ids = courses.map((c) => c.id);
  const { lessons } = await outlinesOf(db, ids);
  const access = await accessTo(db, userId, courses, lessons);
  const progress = await progressOf(db, userId, ids);
  const names = await itemSummaries(
    db,
    courses.map((c) => ({ type: 'product' as const, id: c.product_id })),
  );
  return {
    courses: courses.flatMap((c) => {
      const name = names.get(`product:${c.product_id}`);
      if (!name) return [];
      const own = lessons.filter((l) => l.course_id === c.id);
      return [
        {
          id: c.id,
          title: name.title,
          product: { id: c.product_id, slug: name.slug, title: name.title, vendor: name.vendor },
          enrolledAt: startedAt.get(c.product_id)!.toISOString(),
          lessonCount: own.length,
          progress: summaryOf(own, progress),
          resume: resumeOf(own, access.get(c.id)!.states, progress),
        },
      ];
    }),
    nextCursor,
  };
}
