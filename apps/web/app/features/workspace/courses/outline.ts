// The builder's state helpers: moves in the outline (buttons, so keyboard users can reorder) and
// the order the API takes, and checks of a file before it is uploaded.
import {
  COURSE_ATTACHMENT_MAX_BYTES,
  COURSE_TITLE_MAX,
  DRIP_DAYS_MAX,
  COURSE_VIDEO_MAX_BYTES,
  uploadNameProblem,
  vendorCourseMessages as m,
} from '@tradeshelf/contract/client';
import type { CourseOrderBody, VendorCourse, VendorModule } from '@tradeshelf/contract';

export type Direction = -1 | 1;

const renumber = (modules: VendorModule[]): VendorModule[] =>
  modules.map((mod, i) => ({
    ...mod,
    position: i,
    lessons: mod.lessons.map((l, j) => ({ ...l, moduleId: mod.id, position: j })),
  }));

/** The module one place up (-1) or down (1); null at an end. */
export function moveModule(
  course: VendorCourse,
  moduleId: string,
  dir: Direction,
): VendorCourse | null {
  const i = course.modules.findIndex((mod) => mod.id === moduleId);
  const j = i + dir;
  if (i < 0 || j < 0 || j >= course.modules.length) return null;
  const modules = [...course.modules];
  [modules[i], modules[j]] = [modules[j]!, modules[i]!];
  return { ...course, modules: renumber(modules) };
}

/**
 * The lesson one place up or down; past the first or last place of its module it moves to the end
 * of the module above or the start of the one below. Null when there is nowhere to go.
 */
export function moveLesson(
  course: VendorCourse,
  lessonId: string,
  dir: Direction,
): VendorCourse | null {
  const mi = course.modules.findIndex((mod) => mod.lessons.some((l) => l.id === lessonId));
  if (mi < 0) return null;
  const modules = course.modules.map((mod) => ({ ...mod, lessons: [...mod.lessons] }));
  const own = modules[mi]!.lessons;
  const li = own.findIndex((l) => l.id === lessonId);
  const lj = li + dir;
  if (lj >= 0 && lj < own.length) {
    [own[li], own[lj]] = [own[lj]!, own[li]!];
    return { ...course, modules: renumber(modules) };
  }
  const target = modules[mi + dir];
  if (!target) return null;
  const [lesson] = own.splice(li, 1);
  if (dir < 0) target.lessons.push(lesson!);
  else target.lessons.unshift(lesson!);
  return { ...course, modules: renumber(modules) };
}

/** The whole order, as `PUT …/order` takes it. */
export function orderOf(course: VendorCourse): CourseOrderBody {
  return {
    modules: course.modules.map((mod) => ({ id: mod.id, lessons: mod.lessons.map((l) => l.id) })),
  };
}

const VIDEO_NAME = /\.(mp4|m4v|webm)$/i;
const ATTACHMENT_NAME = /\.(pdf|zip|csv|txt|md|png|jpe?g|gif|webp)$/i;

/** What is wrong with a file before it is sent (the server checks its bytes again); null if fine. */
export function fileProblem(file: { name: string; size: number }, kind: 'video' | 'attachment') {
  if (file.size === 0) return m.fileMissing;
  const name = uploadNameProblem(file.name);
  if (name) return name;
  if (kind === 'video') {
    if (!VIDEO_NAME.test(file.name)) return m.videoType;
    if (file.size > COURSE_VIDEO_MAX_BYTES) return m.videoTooLarge;
  } else {
    if (!ATTACHMENT_NAME.test(file.name)) return m.attachmentType;
    if (file.size > COURSE_ATTACHMENT_MAX_BYTES) return m.attachmentTooLarge;
  }
  return null;
}

// Sizes are shown the one way the buyer pages show them too.
export { formatBytes } from '../../../lib/bytes.ts';

/** Counts for the list and the builder's header. */
export function outlineCounts(course: VendorCourse) {
  const lessons = course.modules.flatMap((mod) => mod.lessons);
  return {
    modules: course.modules.length,
    lessons: lessons.length,
    videos: lessons.filter((l) => l.video).length,
    dripped: lessons.filter((l) => l.dripDays > 0).length,
  };
}

/** The same rule as the contract's title schema, with its messages. */
export function titleProblem(title: string): string | null {
  const t = title.trim();
  if (!t) return m.titleMissing;
  if (t.length > COURSE_TITLE_MAX) return m.titleTooLong;
  return null;
}

/** Drip days as typed: a whole number from 0 to the limit, else the contract's message. */
export function dripProblem(value: string): string | null {
  if (!/^\d+$/.test(value.trim())) return m.dripDays;
  return Number(value) <= DRIP_DAYS_MAX ? null : m.dripDays;
}
