/**
 * The vendor's course builder (issue 19, ADR 044): limits, accepted file types and messages. Plain
 * values, no zod (ADR 012): the builder checks files before it uploads them.
 */
import { groupThousands } from '../format.ts';

export const COURSE_TITLE_MAX = 120;
/** A lesson's notes, Markdown. */
export const LESSON_BODY_MAX = 50_000;
/** Drip: a lesson opens at most this many days after enrolment. */
export const DRIP_DAYS_MAX = 3650;
export const LESSON_DURATION_MAX_SECONDS = 86_400;
export const COURSE_MODULES_MAX = 50;
export const MODULE_LESSONS_MAX = 100;
export const LESSON_ATTACHMENTS_MAX = 20;

const MB = 1024 * 1024;
/** Uploaded videos are served as they are (no transcoding): MP4 or WebM up to 200 MB. */
export const COURSE_VIDEO_MAX_BYTES = 200 * MB;
/** Downloads beside a lesson: up to 25 MB each. */
export const COURSE_ATTACHMENT_MAX_BYTES = 25 * MB;
/** A file name as people see it when they download; no paths. */
export const UPLOAD_NAME_MAX = 120;

/** Video types the builder accepts (recognised by their bytes, not their name). */
export const courseVideoTypes = ['video/mp4', 'video/webm'] as const;
export type CourseVideoType = (typeof courseVideoTypes)[number];

/** Attachment types the builder accepts (recognised by their bytes, not their name). */
export const courseAttachmentTypes = [
  'application/pdf',
  'application/zip',
  'text/csv',
  'text/plain',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
] as const;
export type CourseAttachmentType = (typeof courseAttachmentTypes)[number];

/** What the file pickers offer (`accept`); the server decides by the bytes. */
export const COURSE_VIDEO_ACCEPT = '.mp4,.m4v,.webm,video/mp4,video/webm';
export const COURSE_ATTACHMENT_ACCEPT =
  '.pdf,.zip,.csv,.txt,.md,.png,.jpg,.jpeg,.gif,.webp,application/pdf,application/zip,text/csv,text/plain,image/*';

/** Whether a file name is only a name: no folders, no `..`, no control characters. */
export function uploadNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return vendorCourseMessages.nameMissing;
  if (trimmed.length > UPLOAD_NAME_MAX) return vendorCourseMessages.nameTooLong;
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(trimmed) || trimmed.startsWith('.') || trimmed.includes('..'))
    return vendorCourseMessages.namePath;
  return null;
}

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

export const vendorCourseMessages = {
  vendorsOnly: 'Only vendors can build courses. Set up your storefront first.',
  courseNotFound: 'We could not find that course among your products.',
  moduleNotFound: 'We could not find that module in this course.',
  lessonNotFound: 'We could not find that lesson in this course.',
  fileNotFound: 'We could not find that file in this lesson.',
  titleMissing: 'Give it a title.',
  titleTooLong: `Keep the title to ${COURSE_TITLE_MAX} characters.`,
  bodyTooLong: `Keep the lesson notes to ${groupThousands(LESSON_BODY_MAX)} characters.`,
  dripDays: `Drip days are a whole number from 0 (opens at once) to ${DRIP_DAYS_MAX}.`,
  duration: `The length is a whole number of seconds up to ${LESSON_DURATION_MAX_SECONDS}.`,
  tooManyModules: `A course can have up to ${COURSE_MODULES_MAX} modules.`,
  tooManyLessons: `A module can have up to ${MODULE_LESSONS_MAX} lessons.`,
  tooManyAttachments: `A lesson can have up to ${LESSON_ATTACHMENTS_MAX} attachments.`,
  orderMismatch:
    'The order names modules or lessons that changed meanwhile. Reload the course and try again.',
  videoType: 'Upload the video as MP4 or WebM.',
  videoTooLarge: `Videos can be up to ${mb(COURSE_VIDEO_MAX_BYTES)}.`,
  attachmentType: 'Attach a PDF, ZIP, CSV, text file or a PNG, JPEG, GIF or WebP image.',
  attachmentTooLarge: `Attachments can be up to ${mb(COURSE_ATTACHMENT_MAX_BYTES)} each.`,
  fileMissing: 'Choose a file to upload.',
  nameMissing: 'The file needs a name.',
  nameTooLong: `Keep the file name to ${UPLOAD_NAME_MAX} characters.`,
  namePath: 'Use a plain file name, without folders, leading dots or “..”.',
  notDeleted: 'That lesson is not deleted.',
} as const;
