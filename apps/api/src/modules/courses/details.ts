// Use case: a course's page. Enrolled buyers get their opened lessons' content and progress; anyone
// else the outline, the previews and what to buy, never a paid lesson's video, text or files.
import { courseMessages as m, type Course, type CourseLesson } from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries, productCardsById } from '../catalog/index.ts';
import { courseByIdOrProduct, filesOf, outlinesOf, progressOf } from './repository.ts';
import { accessTo, iso, modulesOf, progressView, resumeOf, summaryOf } from './state.ts';

export async function courseDetails(
  deps: AppDeps,
  userId: string | null,
  id: string,
): Promise<Course> {
  const db = deps.database.db;
  const course = await courseByIdOrProduct(db, id);
  if (!course) throw new AppError('not_found', m.courseNotFound);
  const { modules, lessons } = await outlinesOf(db, [course.id]);
  const access = (await accessTo(db, userId, [course], lessons)).get(course.id)!;
  const enrolled = access.enrolment !== null;
  const summary = (await itemSummaries(db, [{ type: 'product', id: course.product_id }])).get(
    `product:${course.product_id}`,
  );
  const offer = enrolled ? null : ((await productCardsById(deps, [course.product_id]))[0] ?? null);
  // A course whose product is off sale is shown only to its buyers.
  if (!summary || (!enrolled && !offer)) throw new AppError('not_found', m.courseNotFound);

  const files = await filesOf(
    db,
    lessons.map((l) => l.id),
  );
  const progress =
    enrolled && userId ? await progressOf(db, userId, [course.id]) : new Map<string, never>();

  const lessonView = (l: (typeof lessons)[number]): CourseLesson => {
    const state = access.states.get(l.id)!;
    const own = files.filter((f) => f.lesson_id === l.id);
    // Downloads are for enrolled buyers: a preview shows its files' names only.
    const filesOpen = state.open && enrolled;
    return {
      id: l.id,
      moduleId: l.module_id,
      title: l.title,
      position: l.position,
      kind: l.kind,
      preview: l.preview,
      durationSeconds: l.duration_seconds,
      dripDays: l.drip_days,
      locked: !state.open,
      lockReason: state.lockReason,
      opensAt: iso(state.opensAt),
      video:
        state.open && l.video_id
          ? {
              id: l.video_id,
              captions: own
                .filter((f) => f.kind === 'caption')
                .map((f) => ({ language: f.language ?? 'en', label: f.label ?? f.name })),
            }
          : null,
      text: state.open ? l.body : null,
      textHtml: state.open ? renderMarkdown(l.body) : null,
      attachments: own
        .filter((f) => f.kind === 'attachment')
        .map((f) => ({
          id: filesOpen ? f.id : null,
          name: f.name,
          sizeBytes: f.size_bytes,
          contentType: f.content_type,
        })),
      progress: progressView(progress.get(l.id)),
    };
  };

  return {
    id: course.id,
    title: summary.title,
    product: {
      id: course.product_id,
      slug: summary.slug,
      title: summary.title,
      vendor: summary.vendor,
    },
    offer,
    enrolled,
    enrolledAt: iso(access.enrolment?.startedAt ?? null),
    lessonCount: lessons.length,
    modules: modulesOf(modules, course.id).map((mod) => {
      const own = lessons.filter((l) => l.module_id === mod.id);
      return {
        id: mod.id,
        title: mod.title,
        position: mod.position,
        lessons: own.map(lessonView),
        progress: summaryOf(own, progress),
      };
    }),
    progress: summaryOf(lessons, progress),
    resume: enrolled ? resumeOf(lessons, access.states, progress) : null,
  };
}
